// Which model the chapter page opens: the address's ?model= folder or
// single files, else the package's model; and the files a reader picked.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { modelFilesFromAddress, modelFilesFromPicked } from '../../web/page/model-choice.js';
import { defaultModelFiles } from '../../web/src/model/index.js';

const page = 'https://example.org/book/web/page/';

test('no parameter (or an empty one) opens the package\'s model', () => {
  assert.equal(modelFilesFromAddress('', page), defaultModelFiles);
  assert.equal(modelFilesFromAddress('?model=&weights=', page), defaultModelFiles);
  assert.equal(modelFilesFromAddress('?lang=en', page), defaultModelFiles);
});

test('?model= names a folder of the three files, relative to the page', () => {
  const files = modelFilesFromAddress('?model=../../models/qwen', page);
  assert.deepEqual(Object.fromEntries(Object.entries(files).map(([k, v]) => [k, v.href])), {
    weights: 'https://example.org/book/models/qwen/model.safetensors',
    config: 'https://example.org/book/models/qwen/config.json',
    tokenizer: 'https://example.org/book/models/qwen/tokenizer.json',
  });
});

test('?weights=, ?config= and ?tokenizer= name single files and win over ?model=', () => {
  const files = modelFilesFromAddress('?model=/m/&weights=/m/model.safetensors.index.json', page);
  assert.equal(files.weights.href, 'https://example.org/m/model.safetensors.index.json');
  assert.equal(files.config.href, 'https://example.org/m/config.json');
  const alone = modelFilesFromAddress(`?weights=${encodeURIComponent('https://cdn.example.org/x.safetensors')}&config=c.json`, page);
  assert.equal(alone.weights.href, 'https://cdn.example.org/x.safetensors');
  assert.equal(alone.config.href, 'https://example.org/book/web/page/c.json');
  assert.equal(alone.tokenizer, undefined);
});

test('picked files are sorted by name; without a .safetensors file it says what to pick', () => {
  const file = (name) => new File([new Uint8Array(1)], name);
  const weights = file('model.safetensors'), config = file('config.json'), tokenizer = file('tokenizer.json');
  assert.deepEqual(modelFilesFromPicked([tokenizer, weights, config]), { weights, config, tokenizer });
  assert.deepEqual(modelFilesFromPicked([file('Model.SAFETENSORS')]).weights.name, 'Model.SAFETENSORS');
  assert.throws(() => modelFilesFromPicked([config, tokenizer]),
    /no \.safetensors file among config\.json, tokenizer\.json: pick the model’s model\.safetensors/);
});
