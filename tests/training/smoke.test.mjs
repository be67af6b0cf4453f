// The training tools must not rot: tools/training/train-default-model.sh --smoke runs
// the whole pipeline (C++ tokenizer and encoder, PyTorch training, export) on
// ~200 KB of TinyStories in seconds, and its output must have the layout the
// shipped model/ has. Also runs the Python unit tests of the trainer.
//
// The corpus: $TINYSTORIES_CORPUS, else TinyStories in its usual folder beside
// the repository (../shared/data/tinystories/tinystories.txt); where neither
// is there (a clean machine), ~250 KB of made-up stories of the same shape,
// so the tools are checked everywhere. Needs python3-torch (tools/setup.sh test).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import rustTokenizers from 'tokenizers';
import { loadModel } from '../../web/index.js';
import { madeUpStories } from './helpers/stories.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const tinyStories = process.env.TINYSTORIES_CORPUS ?? resolve(root, '..', 'shared', 'data', 'tinystories', 'tinystories.txt');
if (process.env.TINYSTORIES_CORPUS && !existsSync(tinyStories)) {
  throw new Error(`TINYSTORIES_CORPUS names ${tinyStories}, which does not exist`);
}

// A strict safetensors header reader: names, dtypes, shapes, offsets, metadata.
function readHeader(path) {
  const bytes = readFileSync(path);
  assert.ok(bytes.length >= 8, `${path}: too small`);
  const n = Number(bytes.readBigUInt64LE(0));
  assert.equal((8 + n) % 8, 0, `${path}: data does not start 8-byte aligned`);
  const header = JSON.parse(bytes.subarray(8, 8 + n).toString('utf8'));
  const { __metadata__: metadata, ...tensors } = header;
  const names = Object.keys(tensors);
  assert.deepEqual(names, [...names].sort(), `${path}: tensors not sorted by name`);
  let offset = 0;
  for (const name of names) {
    const { dtype, shape, data_offsets: [begin, end] } = tensors[name];
    const size = { F32: 4, F16: 2 }[dtype];
    assert.ok(size, `${path}: ${name} has dtype ${dtype}`);
    assert.equal(begin, offset, `${path}: ${name} is not contiguous`);
    assert.equal(end - begin, size * shape.reduce((a, b) => a * b, 1), `${path}: ${name} size`);
    offset = end;
  }
  assert.equal(bytes.length, 8 + n + offset, `${path}: file size`);
  return { tensors, metadata };
}

test('trainer unit tests (python3 -m unittest)', () => {
  execFileSync('/usr/bin/python3', ['-m', 'unittest', 'discover', '-s', 'tests/training', '-p', 'test_*.py'], {
    cwd: root,
    stdio: 'inherit',
  });
});

const haveTinyStories = existsSync(tinyStories);
const corpusName = haveTinyStories ? 'TinyStories' : 'made-up stories (no TinyStories corpus here)';

test(`tools/training/train-default-model.sh --smoke builds a complete model folder that loadModel loads (${corpusName})`, { timeout: 600_000 }, async () => {
  const out = mkdtempSync(join(tmpdir(), 'smoke-model-'));
  const corpusFolder = haveTinyStories ? undefined : mkdtempSync(join(tmpdir(), 'smoke-corpus-'));
  const corpus = haveTinyStories ? tinyStories : join(corpusFolder, 'stories.txt');
  if (!haveTinyStories) writeFileSync(corpus, madeUpStories(250_000));
  try {
    execFileSync(join(root, 'tools', 'training', 'train-default-model.sh'), ['--smoke', '--out', out, corpus], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const json = (name) => JSON.parse(readFileSync(join(out, name), 'utf8'));

    const config = json('config.json');
    assert.equal(config.model_type, 'gpt2');
    assert.deepEqual(config.architectures, ['GPT2LMHeadModel']);
    assert.equal(config.vocab_size, 512);
    assert.equal(config.tie_word_embeddings, true);
    assert.equal(config.eos_token_id, 511);

    const tokenizer = json('tokenizer.json');
    assert.equal(tokenizer.model.type, 'BPE');

    const { tensors, metadata } = readHeader(join(out, 'model.safetensors'));
    assert.equal(metadata.format, 'pt');
    const { n_embd: C, n_positions: T, n_layer: L, n_inner: M } = config;
    assert.deepEqual(tensors['transformer.wte.weight'].shape, [512, C]);
    assert.deepEqual(tensors['transformer.wpe.weight'].shape, [T, C]);
    assert.deepEqual(tensors[`transformer.h.${L - 1}.attn.c_attn.weight`].shape, [C, 3 * C]);
    assert.deepEqual(tensors['transformer.h.0.mlp.c_fc.weight'].shape, [C, M]);
    assert.deepEqual(tensors['transformer.h.0.mlp.c_proj.weight'].shape, [M, C]);
    assert.equal(Object.keys(tensors).length, 4 + 12 * L);
    assert.ok(Object.values(tensors).every((t) => t.dtype === 'F32'));

    const index = json('snapshots/index.json');
    const steps = index.snapshots.map((s) => s.step);
    assert.equal(steps[0], 0);
    assert.equal(steps.at(-1), 20);
    for (const s of index.snapshots) {
      const snap = readHeader(join(out, 'snapshots', s.file));
      assert.deepEqual(Object.keys(snap.tensors), ['transformer.wpe.weight', 'transformer.wte.weight']);
      assert.ok(Object.values(snap.tensors).every((t) => t.dtype === 'F16'));
      assert.equal(Number(snap.metadata.step), s.step);
      assert.equal(Number(snap.metadata.tokens_seen), s.tokens_seen);
      assert.ok(Number.isFinite(s.val_loss));
    }

    const curve = json('training-curve.json');
    assert.ok(curve.train.length > 0 && curve.val.length > 0);
    assert.equal(curve.summary.steps, 20);
    assert.ok(curve.val.every(([, , loss]) => Number.isFinite(loss)));

    const claims = json('claims.json');
    assert.equal(claims.parameters, 512 * C + T * C + L * (12 * C * C + 13 * C) + 2 * C);

    // Through the package's own loader, as the page and the book's authors load a model.
    const model = await loadModel({
      weights: join(out, 'model.safetensors'),
      config: join(out, 'config.json'),
      tokenizer: join(out, 'tokenizer.json'),
    });
    try {
      assert.equal(model.vocabSize, 512);
      assert.equal(model.width, C);
      assert.equal(model.context, T);
      assert.equal(model.parameterCount, claims.parameters);
      assert.equal(model.tokenText(511), '<|endoftext|>');
      // The pipeline's last step renumbered the bytes a and b (tools/training/renumber.py):
      // the tokenizer still gives Hugging Face's Rust tokenizers' ids on the renumbered file.
      assert.deepEqual([model.tokenId('a'), model.tokenId('b')], [98, 97]);
      const text = 'Once upon a time, there was a little girl.';
      const texts = [text, 'a b ab ba abba baby', 'A bird, a bee and a big bear.'];
      const rust = rustTokenizers.Tokenizer.fromString(readFileSync(join(out, 'tokenizer.json'), 'utf8'));
      for (const sample of texts) {
        const encoding = await rust.encode(sample, null, { addSpecialTokens: false });
        assert.deepEqual(model.tokenize(sample).map((token) => token.id), encoding.getIds(), sample);
      }
      const trace = model.trace(text);
      assert.equal(trace.tokens.map((t) => t.text).join('').replaceAll('·', ' '), text);
      assert.equal(trace.embeddings.rows, trace.tokens.length);
      const neighbours = model.nearest(trace.tokens[0].id, 5);
      assert.equal(neighbours.length, 5);
      assert.ok(neighbours.every((n) => Number.isFinite(n.score) && n.id !== trace.tokens[0].id));
      // Each snapshot loads the same way, with the final model's tokenizer.
      const last = index.snapshots.at(-1);
      const snapshot = await loadModel({ weights: join(out, 'snapshots', last.file), config: join(out, 'config.json'), tokenizer: model });
      try {
        assert.equal(snapshot.vocabSize, 512);
        assert.equal(snapshot.tokenId('<|endoftext|>'), 511);
      } finally {
        snapshot.dispose();
      }
    } finally {
      model.dispose();
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
    if (corpusFolder) rmSync(corpusFolder, { recursive: true, force: true });
  }
});

test('the script names what is missing', () => {
  assert.throws(
    () => execFileSync(join(root, 'tools', 'training', 'train-default-model.sh'), [], { cwd: root, stdio: 'pipe' }),
    (error) => /no corpus given/.test(error.stderr.toString()),
  );
});
