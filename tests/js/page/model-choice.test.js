// Which model the chapter page opens: the address's ?model= folder or
// single files, else the package's model; and the files a reader picked.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { addressProblemsInWords, modelChoiceFromAddress, modelFilesFromAddress, modelFilesFromPicked } from '../../../web/page/model-choice.js';
import { defaultModelFiles } from '../../../web/src/model/index.js';

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

test('a parameter the page cannot fetch opens the package\'s model, and is named with why', () => {
  // Each threw a TypeError from new URL() before, and the page stayed at "Loading the model…".
  for (const name of ['model', 'weights', 'config', 'tokenizer']) {
    for (const [value, reason] of [['http://[::1', /not an address the page can read/], ['mailto:x', /a mailto: address, and the page fetches only http: and https: ones/],
      ['javascript:alert(1)', /a javascript: address/], ['x'.repeat(5000), /5,000 characters long, more than the 2,048/]]) {
      const { files, problems } = modelChoiceFromAddress(`?${name}=${encodeURIComponent(value)}`, page);
      assert.equal(files, defaultModelFiles, `?${name}=${value.slice(0, 20)}`);
      assert.equal(problems.length, 1);
      assert.equal(problems[0].name, name);
      assert.match(problems[0].reason, reason);
      assert.ok(problems[0].value.length <= 61, 'a value is quoted short');
    }
  }
  // One bad parameter among good ones: the whole address's model is set aside, not a mix of two models.
  const mixed = modelChoiceFromAddress('?model=/m/&tokenizer=mailto:x', page);
  assert.equal(mixed.files, defaultModelFiles);
  assert.match(addressProblemsInWords(mixed.problems), /^The address could not be used \(\?tokenizer=mailto:x is a mailto: address, .*\), so the page shows its own model\.$/);
  assert.equal(addressProblemsInWords([]), '');
  // A control or a bidirectional override in a value is shown as an escape.
  assert.match(modelChoiceFromAddress(`?model=${encodeURIComponent('mailto:\u202Eevil\n')}`, page).problems[0].value, /^mailto:\\u202eevil\\u000a$/);
});

test('picked files are sorted by name; without a .safetensors file it says what to pick', () => {
  const file = (name) => new File([new Uint8Array(1)], name);
  const weights = file('model.safetensors'), config = file('config.json'), tokenizer = file('tokenizer.json');
  assert.deepEqual(modelFilesFromPicked([tokenizer, weights, config]), { weights, config, tokenizer });
  assert.deepEqual(modelFilesFromPicked([file('Model.SAFETENSORS')]).weights.name, 'Model.SAFETENSORS');
  assert.throws(() => modelFilesFromPicked([config, tokenizer]),
    /no \.safetensors file among config\.json, tokenizer\.json: pick the model’s model\.safetensors/);
});
