// The second WebAssembly module in Chromium (docs/tokenizer.md, "Two
// WebAssembly modules"): the chapter page with its own model never fetches
// embeddings-full.*; a tokenizer.json with a Split pre-tokenizer, loaded
// through the package in the same page, fetches it over HTTP and gives the
// ids of the page's own tokenizer when its Split is GPT-2's pattern.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, openPage, waitForWidgets, checkModel } from './helpers/browser.js';

let server, browser, page;

before(async () => {
  checkModel();
  server = await startServer();
  browser = await launch();
  page = await openPage(browser);
  await page.goto(`${server.origin}/web/page/`);
  await page.waitForFunction(() => document.documentElement.dataset.page === 'ready');
  assert.deepEqual(await waitForWidgets(page, '#table, #nearest, #trace'), []);
});

after(async () => {
  await browser?.close();
  await server?.close();
});

const fullModuleRequests = () => server.requests.filter((r) => /\/embeddings-full\.(js|wasm)$/.test(r.path));

test('the page with its own model does not fetch embeddings-full', () => {
  assert.deepEqual(fullModuleRequests(), []);
});

test('a Split tokenizer.json loads through embeddings-full.wasm and agrees with the page\'s tokenizer', async () => {
  const result = await page.evaluate(async () => {
    const { loadModel } = await import('/web/index.js');
    const json = await (await fetch('/model/tokenizer.json')).json();
    if (json.pre_tokenizer.type !== 'ByteLevel') return { skipped: `the page's model has a ${json.pre_tokenizer.type} pre-tokenizer` };
    json.pre_tokenizer = {
      type: 'Sequence',
      pretokenizers: [
        { type: 'Split', pattern: { Regex: "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)|\\s+" }, behavior: 'Isolated', invert: false },
        { type: 'ByteLevel', add_prefix_space: json.pre_tokenizer.add_prefix_space, trim_offsets: true, use_regex: false },
      ],
    };
    const split = await loadModel({ weights: '/model/model.safetensors', config: '/model/config.json', tokenizer: new TextEncoder().encode(JSON.stringify(json)) });
    const texts = ['Once upon a time, there was a girl named Lily.', "She said: \"I'M HERE!\"\n\n  Then 12345 cats ran.", 'naïve café 😀 日本語'];
    return { ours: texts.map((t) => split.encode(t)), page: texts.map((t) => window.model.encode(t)) };
  });
  assert.equal(result.skipped, undefined, result.skipped);
  assert.deepEqual(result.ours, result.page);
  const fetched = fullModuleRequests();
  assert.deepEqual(fetched.map((r) => `${r.status} ${r.path}`).sort(), ['200 /web/dist/embeddings-full.js', '200 /web/dist/embeddings-full.wasm']);
  assert.deepEqual(page.problems, []);
});
