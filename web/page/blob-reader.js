// The bytes of the model's large bodies, read off the page's main thread.
//
// Why: the HTTP source takes a large body as a Blob (src/sources/http.js),
// which gathers outside the page; reading its bytes back on the main thread
// comes in chunks, one task each, and those tasks wait behind everything
// else the page does as it starts (its bundle, the model's instances, the
// loader's own steps, which go first). On a phone profile (CPU 4× slower)
// a 2 MiB table whose bytes had arrived reached the loader 0.3–0.6 s after
// its Blob did, on the path to the first view. A Worker reads them in its
// own thread and hands them over in one message (docs/page.md).
//
// Where the Worker cannot start (its file missing, a policy refusing it),
// each body waiting for it, and every later one, is read here instead.

/** A readBlob (src/sources/http.js) that reads in a new Worker started from `workerUrl`, or undefined where no Worker can start. */
export function blobReaderInWorker(workerUrl) {
  let worker;
  try {
    worker = new Worker(workerUrl, { name: 'the model’s bytes' });
  } catch {
    return undefined;
  }
  // The reads waiting for the Worker, by number: how each settles.
  const waiting = new Map();
  let nextId = 0;
  let broken = false;
  worker.addEventListener('message', ({ data }) => {
    const read = waiting.get(data.id);
    waiting.delete(data.id);
    if (data.error === undefined) read?.resolve(data.bytes);
    else read?.reject(new Error(data.error));
  });
  worker.addEventListener('error', (event) => {
    event.preventDefault();
    broken = true;
    worker.terminate();
    const reads = [...waiting.values()];
    waiting.clear();
    for (const read of reads) read.blob.arrayBuffer().then(read.resolve, read.reject);
  });
  return (blob) => {
    if (broken) return blob.arrayBuffer();
    return new Promise((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, { blob, resolve, reject });
      worker.postMessage({ id, blob });
    });
  };
}
