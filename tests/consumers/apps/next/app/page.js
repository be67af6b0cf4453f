// A server component: the page's text is rendered on the server, the
// widgets' elements too (empty, sized by widgets.css), upgraded in the browser.
import Widgets from './widgets';

export default function Page() {
  return (
    <main>
      <h1>Embeddings, in my own site</h1>
      <Widgets />
    </main>
  );
}
