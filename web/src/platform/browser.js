// The package's "#platform" outside Node (package.json "imports", its
// "default" condition): what platform/node.js does with files on disk,
// which a browser has not. The package asks for these only for file paths
// and file: URLs, which it opens only in Node, so none is ever called here.
function onlyInNode(what) {
  return () => {
    throw new Error(`${what} needs Node: a browser reads model files from URLs, Blobs or bytes`);
  };
}

export const fileURLToPath = onlyInNode('A file: URL');
export const fileSource = onlyInNode('A file path');
export const readFileBytes = onlyInNode('A file: URL');
export const dirname = onlyInNode('A file path');
export const join = onlyInNode('A file path');
// A browser's map shares its work through its Worker's helpers (map/map-worker.js), not these.
export const coreCount = () => 1;
export const startLayoutHelper = onlyInNode('A map helper thread');
export const threadedLayoutGlue = onlyInNode('The threaded layout module on this thread');
