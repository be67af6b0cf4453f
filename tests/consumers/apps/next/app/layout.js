// The widgets' stylesheet in the server's HTML: each element keeps its room
// (widgets.css, `:not(:defined)`) until its script has run.
import 'embeddings-and-position/widgets.css';

export const metadata = { title: 'A page of the book', icons: { icon: 'data:,' } };

export default function RootLayout({ children }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
