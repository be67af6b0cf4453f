// The Worker the page's first script reads the model's large bodies in
// (blob-reader.js; built into the classic script web/dist/blob-worker.js by
// tools/page/bundle.mjs). It is handed each body as a Blob, reads its
// bytes here and hands them back whole, transferred, not copied.
self.onmessage = async ({ data: { id, blob } }) => {
  try {
    const bytes = await blob.arrayBuffer();
    self.postMessage({ id, bytes }, [bytes]);
  } catch (error) {
    self.postMessage({ id, error: error?.message ?? String(error) });
  }
};
