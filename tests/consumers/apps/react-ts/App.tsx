// React with TypeScript: the elements in JSX, typed with their attributes,
// their `model` property and their events (onew-…), with no declaration of
// an author's own.
import { useRef, useState } from 'react';
import type { Model } from 'embeddings-and-position';
import 'embeddings-and-position/widgets';
import type { TraceTable } from 'embeddings-and-position/widgets';

export function App({ model }: { model: Model }) {
  const trace = useRef<TraceTable>(null);
  const [picked, setPicked] = useState<number>();
  return (
    <main className="book">
      <ew-nearest-words word="·girl" k={5} onew-token={(event) => setPicked(event.detail.id)} />
      <ew-trace-table ref={trace} model={model} text="Lily saw Max" onew-trace={(event) => event.detail.trace?.tokens.length} />
      <ew-dot-product a="1 2 3" b="4 0 -1" onew-change={(event) => event.detail?.sum} />
      <p>{picked}</p>
    </main>
  );
}
