// Compiles the WebAssembly module once and instantiates it as often as
// needed: the package gives every model its own instance (docs/design.md
// says why), plus one for vectors that live outside any model.
import createEmbeddingsModule from '../dist/embeddings.js';

const wasmUrl = new URL('../dist/embeddings.wasm', import.meta.url);
const isNode = typeof process === 'object' && typeof process.versions?.node === 'string';

let compiled;
let observer;

/**
 * For the tests only (web/index.js does not export it): `callback(module,
 * role)` sees every new instance, role being "tables", "tokenizer" or
 * "kernels", so a test can read an instance's C++ heap.
 */
export function observeInstances(callback) {
  observer = callback;
}

/** Compiles the .wasm at `url` (a file: URL in Node); also the layout module's (map.js). */
export async function compileWasm(url) {
  if (url.protocol === 'file:') {
    const { readFile } = await import('node:fs/promises');
    return WebAssembly.compile(await readFile(url));
  }
  const response = await fetch(url);
  if (!response.ok) throw new Error(`Could not fetch ${url}: HTTP ${response.status}`);
  // compileStreaming needs the application/wasm type; fall back when a server forgets it.
  if (WebAssembly.compileStreaming && response.headers.get('content-type')?.startsWith('application/wasm')) {
    return WebAssembly.compileStreaming(response);
  }
  return WebAssembly.compile(await response.arrayBuffer());
}

/** A fresh instance of the module: its own memory, its own C++ objects. */
export async function instantiate(role = 'kernels') {
  compiled ??= compileWasm(wasmUrl);
  const wasmModule = await compiled;
  const module = await createEmbeddingsModule({
    instantiateWasm(imports, done) {
      WebAssembly.instantiate(wasmModule, imports).then((instance) => done(instance, wasmModule));
      return {};
    },
    // Failures inside the runtime would otherwise print and continue silently.
    printErr: (text) => console.error(`[embeddings] ${text}`),
  });
  observer?.(module, role);
  return module;
}

export { isNode };
