// Every entry of the package in plain Node, as a server render (Next.js,
// Astro's frontmatter) or a Worker imports it: nothing thrown, no element
// defined, each entry's exports there. The element modules are those the
// installed package has.
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const folder = dirname(createRequire(import.meta.url).resolve('embeddings-and-position/package.json'));
const elements = readdirSync(join(folder, 'web/widgets')).filter((file) => file.endsWith('.js') && file !== 'index.js').map((file) => file.slice(0, -3));
const entries = ['embeddings-and-position', 'embeddings-and-position/widgets', 'embeddings-and-position/widgets/definitions',
  ...elements.map((name) => `embeddings-and-position/widgets/${name}`)];
const exports = {};
for (const entry of entries) exports[entry] = Object.keys(await import(entry)).sort();
console.log(JSON.stringify({ exports, customElements: typeof customElements, document: typeof document, HTMLElement: typeof HTMLElement }));
