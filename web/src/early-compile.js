// The module's .wasm fetched and compiled as early as a page can ask: the
// page's first script (web/page/first-requests.js, a classic script run
// while the document is still being parsed) starts the compile, and the
// package's runtime (runtime.js) takes it instead of fetching the file
// again. Compiling runs off the main thread, so by the time the bundle has
// arrived and run, the module is ready to instantiate. Like
// early-requests.js, this module imports nothing: the first script holds its
// own copy of it.

/** Fetches and compiles the .wasm at `url` (an http(s) URL), streaming where the server allows. */
export async function fetchAndCompileWasm(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`Could not fetch ${url}: HTTP ${response.status}`);
  // compileStreaming needs the application/wasm type; fall back when a server forgets it.
  if (WebAssembly.compileStreaming && response.headers.get('content-type')?.startsWith('application/wasm')) {
    return WebAssembly.compileStreaming(response);
  }
  return WebAssembly.compile(await response.arrayBuffer());
}

// Compiles started by compileWasmEarly, by URL, until the runtime takes
// them. The first script's copy of this module and the bundle's share it
// through the global object, under a key no other code uses.
const earlyCompiles = (globalThis[Symbol.for('embeddings-and-position: wasm compiled early')] ??= new Map());

/** Starts fetching and compiling the .wasm at `url` now, for the runtime to take later. */
export function compileWasmEarly(url) {
  if (!(url instanceof URL) || earlyCompiles.has(url.href)) return;
  const compiled = fetchAndCompileWasm(url);
  compiled.catch(() => {});  // the runtime, which takes it, reports a failure
  earlyCompiles.set(url.href, compiled);
}

/** The compile compileWasmEarly started for this URL, once, or undefined. */
export function takeEarlyCompile(url) {
  const compiled = earlyCompiles.get(url.href);
  earlyCompiles.delete(url.href);
  return compiled;
}
