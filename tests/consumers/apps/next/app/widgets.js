'use client';
import { useEffect, useRef } from 'react';

export default function Widgets() {
  const trace = useRef(null);
  useEffect(() => {
    // Defined once React has hydrated the page, so that React finds the
    // elements as the server wrote them; then the model is handed over.
    import('embeddings-and-position/widgets').then(({ sharedModel }) => {
      trace.current.model = sharedModel();
    });
  }, []);
  return (
    <>
      <ew-nearest-words word="·girl"></ew-nearest-words>
      <ew-trace-table ref={trace} external-model text="Lily saw Max"></ew-trace-table>
      <ew-dot-product></ew-dot-product>
    </>
  );
}
