// The fuzz targets' regression inputs (tests/fuzz/regressions/) through the
// package as a user calls it, in the WebAssembly build: each weights file
// (with its config.json when it carries one) and each tokenizer.json either
// loads or is refused with an Error that names the file, never a
// RuntimeError from inside the module; each text encodes to ids the
// tokenizer decodes. FuzzReplay replays the same files natively.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { loadModel } from '../../../web/index.js';
import { makeModel } from '../helpers/fixtures.js';
import { CONFIG_MARKER } from '../../fuzz/inputs.mjs';

const folder = fileURLToPath(new URL('../../fuzz/regressions/', import.meta.url));
const marker = new TextEncoder().encode(CONFIG_MARKER);

function inputs(target) {
  const names = readdirSync(join(folder, target)).sort();
  assert.ok(names.length > 0, `no regression inputs in tests/fuzz/regressions/${target}/`);
  return names.map((name) => ({ name, bytes: new Uint8Array(readFileSync(join(folder, target, name))) }));
}

function split(bytes) {
  for (let at = 0; at + marker.length <= bytes.length; at++) {
    if (marker.every((byte, i) => bytes[at + i] === byte)) {
      return { weights: bytes.subarray(0, at), config: bytes.subarray(at + marker.length) };
    }
  }
  return { weights: bytes };
}

/** Loads, or checks the refusal is a named Error; returns the model or undefined. */
async function loadOrRefuse(name, files) {
  try {
    return await loadModel(files);
  } catch (error) {
    // (A trap reaches JavaScript as the Error of a stopped instance, with the RuntimeError as its cause.)
    assert.ok(!(error instanceof WebAssembly.RuntimeError) && !(error.cause instanceof WebAssembly.RuntimeError), `${name}: ${error.message}`);
    assert.ok(error instanceof Error, `${name}: threw ${error}`);
    assert.match(error.message, /^(weights|config|tokenizer) \(Uint8Array\): \S/, name);
    assert.ok(error.message.length > 20, `${name}: ${error.message}`);
    return undefined;
  }
}

describe('fuzz regression inputs through loadModel', () => {
  test('weights files (with their config.json)', async () => {
    for (const { name, bytes } of inputs('safetensors')) {
      const model = await loadOrRefuse(name, split(bytes));
      if (!model) continue;
      // The kernels run over whatever numbers the file held.
      const neighbours = model.nearest(0, Math.min(3, model.vocabSize - 1));
      assert.ok(neighbours.every(({ id }) => Number.isInteger(id) && id > 0 && id < model.vocabSize), name);
      assert.equal(model.cosineMatrix(model.wpe).rows, model.context, name);
      model.dispose();
    }
  });

  test('tokenizer.json files', async () => {
    const { weights } = makeModel({ width: 8, context: 5, extraRows: 2000 });
    for (const { name, bytes } of inputs('tokenizer_json')) {
      const model = await loadOrRefuse(name, { weights, tokenizer: bytes });
      if (!model) continue;
      const ids = model.encode('Lily saw <|reserved_special_token_7|> <unused12> <mask> the girl');
      assert.ok(ids.every((id) => Number.isInteger(id) && id >= 0 && id < model.vocabSize), name);
      assert.equal(typeof model.decode(ids), 'string', name);
      model.dispose();
    }
  });

  describe('texts', () => {
    let model;
    before(async () => {
      const fixture = makeModel({ width: 8, context: 5 });
      model = await loadModel({ weights: fixture.weights, tokenizer: fixture.tokenizer });
    });
    after(() => model.dispose());

    test('encode to ids that decode', () => {
      for (const { name, bytes } of inputs('tokenizer_encode')) {
        // The first byte picks the fuzz target's tokenizer; the rest is the text.
        const text = new TextDecoder().decode(bytes.subarray(1));
        const ids = model.encode(text);
        assert.ok(ids.every((id) => Number.isInteger(id) && id >= 0 && id < model.vocabSize), name);
        assert.equal(typeof model.decode(ids), 'string', name);
      }
    });
  });
});
