// Where the package's own files are: the .wasm modules, the map's Worker,
// the widgets' stylesheets and the default model. Each is named beside the
// module that needs it, as new URL('…', import.meta.url), the form Vite and
// webpack find, copy into the app's output and rewrite, and that browsers
// and Node read as they are. A bundler that leaves the form as it is
// (esbuild) puts every module into one file, beside which none of them is;
// for it, locateFiles() says where the package's files are served from
// instead (docs/embedding.md, "esbuild").

let locate;
let firstLocated;

/**
 * Where the package's files are served from, for a bundler that does not
 * copy files named by new URL(…, import.meta.url) (esbuild): the URL of a
 * folder holding a copy of the package's `web/dist/`, `web/widgets/` and
 * `model/` (as they lie in the package: `FOLDER/web/dist/embeddings.wasm`),
 * or a function that gives the URL of each file from its path in the
 * package ("web/dist/embeddings.wasm"). A relative folder is read against
 * the page's address. Called before the package needs its first file: at the
 * top of a module that the app imports before any widget's module.
 * @param {string | URL | ((path: string) => string | URL)} where
 */
export function locateFiles(where) {
  const caller = 'locateFiles';
  if (firstLocated !== undefined) {
    throw new Error(`${caller}: the package has already looked for ${firstLocated}; call it before loadModel() and before ` +
      'any widget is defined (at the top of a module imported before the widgets)');
  }
  if (typeof where === 'function') {
    locate = (path) => {
      const url = where(path);
      if (typeof url !== 'string' && !(url instanceof URL)) {
        throw new TypeError(`${caller}: the function given returned ${url === null ? 'null' : typeof url} for ${path}, not a URL`);
      }
      return new URL(url, baseAddress());
    };
    return;
  }
  if (typeof where !== 'string' && !(where instanceof URL)) {
    throw new TypeError(`${caller}: expected the URL of a folder or a function (path) => URL, got ${where === null ? 'null' : typeof where}`);
  }
  let folder;
  try {
    folder = new URL(where, baseAddress());
  } catch {
    throw new TypeError(`${caller}: ${JSON.stringify(String(where))} is not a URL`);
  }
  if (!folder.pathname.endsWith('/')) folder.pathname += '/';
  locate = (path) => new URL(path, folder);
}

function baseAddress() {
  return typeof document !== 'undefined' ? document.baseURI : undefined;
}

/**
 * The URL of the package's file at `path` (from the package's root) where
 * locateFiles() said, or undefined where it was not called: then the file
 * is the one named beside the module that asks.
 * @param {string} path
 * @returns {URL | undefined}
 */
export function locatedFile(path) {
  firstLocated ??= path;
  return locate?.(path);
}

/**
 * The URL of the package's file at `path`: where locateFiles() said, or
 * else `beside()`, the file named beside the module that asks (its
 * new URL(…, import.meta.url)).
 * @param {string} path
 * @param {() => URL} beside
 * @returns {URL}
 */
export function packageFile(path, beside) {
  return locatedFile(path) ?? beside();
}
