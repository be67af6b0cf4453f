// Checkpoints of each common family's naming load with their config.json;
// models without a position table (rotary positions) trace as their token rows.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { loadModel, rowView, cosineMatrix } from '../../../web/index.js';
import { families, makeFamilyModel } from '../helpers/checkpoints.js';

const familyNames = {
  'gpt2': 'GPT-2', 'gpt2-bare': 'GPT-2', 'llama': 'Llama, Mistral, Qwen, Gemma, Phi', 'qwen2': 'Llama, Mistral, Qwen, Gemma, Phi',
  'gemma': 'Llama, Mistral, Qwen, Gemma, Phi', 'phi': 'Llama, Mistral, Qwen, Gemma, Phi', 'gpt-neox': 'GPT-NeoX', 'opt': 'OPT',
};

for (const family of Object.keys(families)) {
  test(`a ${family} checkpoint loads its tables under its own names`, async () => {
    const files = makeFamilyModel(family, { width: 8, context: 6 });
    const model = await loadModel({ weights: files.weights, config: files.config, tokenizer: files.tokenizer });
    try {
      assert.equal(model.family, familyNames[family]);
      assert.equal(model.vocabSize, files.vocabSize);
      assert.equal(model.width, 8);
      assert.deepEqual(Array.from(rowView(model.wte, 3)), Array.from(files.wte.subarray(24, 32)));
      const trace = model.trace('Lily saw Max');
      const ids = trace.tokens.map((t) => t.id);
      const tokenRows = ids.flatMap((id) => Array.from(files.wte.subarray(id * 8, id * 8 + 8)));
      assert.deepEqual(Array.from(trace.tokenEmbeddings.data), tokenRows);
      assert.ok(model.nearest('Lily', 3).length === 3);
      if (files.spec.position) {
        assert.equal(model.hasPositionTable, true);
        assert.equal(model.context, 6);
        assert.equal(model.maxTraceTokens, 6);
        // wpe starts at position 0: OPT's two leading rows are left out.
        assert.deepEqual(Array.from(model.wpe.data), Array.from(files.wpe));
        assert.deepEqual(Array.from(trace.positionEmbeddings.data), Array.from(files.wpe.subarray(0, ids.length * 8)));
        assert.equal(cosineMatrix(model.wpe).rows, 6);
      } else {
        assert.equal(model.hasPositionTable, false);
        assert.equal(model.wpe, null);
        assert.equal(model.context, files.config.max_position_embeddings);
        assert.equal(model.maxTraceTokens, 1024);
        assert.equal(trace.positionEmbeddings, null);
        // What the first layer reads is the token rows themselves.
        assert.deepEqual(Array.from(trace.embeddings.data), tokenRows);
        assert.throws(() => model.cosineMatrix(model.wpe), /this model has no position table: it uses rotary positions/);
        await assert.rejects(model.map({ method: 'pca', table: model.wpe }), /a model with rotary positions has no position table/);
        assert.match(String(model), /rotary positions \(no position table\)/);
      }
    } finally {
      model.dispose();
    }
  });
}

test('a model without a position table traces up to 1024 tokens, whatever its context', async () => {
  const files = makeFamilyModel('llama', { width: 8, context: 6 });
  const model = await loadModel({ weights: files.weights, config: files.config, tokenizer: files.tokenizer });
  try {
    const long = ' Max'.repeat(1024);
    assert.equal(model.trace(long).tokens.length, 1024);
    assert.throws(() => model.trace(`${long} Max`), /a trace of this model holds at most 1024/);
    assert.equal(model.trace(`${long} Max`, { truncate: true }).truncated, 1);
  } finally {
    model.dispose();
  }
});

test('a model without a position table traces no more tokens than its config.json says it reads', async () => {
  const files = makeFamilyModel('llama', { width: 8, context: 6 });
  const model = await loadModel({ weights: files.weights, config: { ...files.config, max_position_embeddings: 100 }, tokenizer: files.tokenizer });
  try {
    assert.equal(model.context, 100);
    assert.equal(model.maxTraceTokens, 100);
    const long = ' Max'.repeat(100);
    assert.equal(model.trace(long).tokens.length, 100);
    assert.throws(() => model.trace(`${long} Max`), /the model reads at most 100\./);
    assert.equal(model.trace(`${long} Max`, { truncate: true }).truncated, 1);
  } finally {
    model.dispose();
  }
});

test('a config field that contradicts the tensors is named as the family spells it', async () => {
  const files = makeFamilyModel('llama', { width: 8, context: 6 });
  await assert.rejects(loadModel({ weights: files.weights, config: { ...files.config, hidden_size: 16 } }),
    /hidden_size is 16 but model\.embed_tokens\.weight has columns: 8/);
  const opt = makeFamilyModel('opt', { width: 8, context: 6 });
  await assert.rejects(loadModel({ weights: opt.weights, config: { ...opt.config, max_position_embeddings: 8 } }),
    /max_position_embeddings is 8 but model\.decoder\.embed_positions\.weight has, after its 2 leading rows, 6/);
});
