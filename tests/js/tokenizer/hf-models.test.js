// The model kinds other than byte-level BPE, against Hugging Face's Rust
// library (the `tokenizers` package): tokenizer.json files made here by its
// own trainers and constructors, on a slice of the shared TinyStories corpus
// (or, without it, the committed stories): Unigram with Metaspace, with
// punctuation and digits, with unk_id and byte_fallback; WordLevel;
// WordPiece with BertNormalizer, BertPreTokenizer and BertProcessing;
// byte-level BPE with RobertaProcessing. Each is compared on the oracle
// corpus (the stories' paragraphs and lines, awkward strings, random text):
// ids without and with special tokens, pairs, and the decoded text with and
// without the special tokens.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import rust from 'tokenizers';

import { loadModel } from '../../../web/index.js';
import { modelForTokenizer } from '../helpers/big-tokenizer.js';
import { encodePairs } from '../helpers/rust-pairs.js';
import { assertSameOffsets } from '../helpers/offsets.js';
import { TRICKY, oracleSafe, randomText, storyTexts, uniformRandom } from '../helpers/text.js';

const utf8 = new TextEncoder();
// The shared corpus beside the repository, or where TINYSTORIES_CORPUS says.
const TINYSTORIES = process.env.TINYSTORIES_CORPUS ?? fileURLToPath(new URL('../../../../shared/data/tinystories/tinystories.txt', import.meta.url));

// Training text: 150 KB of TinyStories where present, else the committed stories.
function trainingText() {
  if (!existsSync(TINYSTORIES)) return storyTexts()[0];
  return readFileSync(TINYSTORIES, 'utf8').slice(0, 150_000).replaceAll('<|endoftext|>', '\n');
}

// The oracle corpus: the stories, a TinyStories slice past the training
// text, awkward strings and random text the Rust library reads as we do.
function corpus() {
  const texts = [...storyTexts(), ...TRICKY.filter(oracleSafe), '', ' ', 'a  b', 'ÀÉÎõü ñ Straße', 'naïve café 123,456.78'];
  if (existsSync(TINYSTORIES)) {
    texts.push(...readFileSync(TINYSTORIES, 'utf8').slice(150_000, 230_000).split('\n').filter((line) => line.trim() && !line.includes('<|')));
  }
  const random = uniformRandom(25);
  for (let i = 0; i < 150; i++) {
    const text = randomText(random, 6);
    if (oracleSafe(text) && text.isWellFormed()) texts.push(text);
  }
  return texts;
}
const TEXTS = corpus();
const PAIRS = TEXTS.slice(1, 40).map((text, i) => [text, TEXTS[(i * 7 + 3) % TEXTS.length]]);

// A Rust tokenizer made by `build`, trained on the training text when asked, as tokenizer.json.
function made(build, { train = true } = {}) {
  const folder = mkdtempSync(join(tmpdir(), 'hf-models-'));
  try {
    const corpusFile = join(folder, 'corpus.txt');
    writeFileSync(corpusFile, trainingText());
    const tokenizer = build();
    if (train) tokenizer.train([corpusFile]);
    const file = join(folder, 'tokenizer.json');
    tokenizer.save(file);
    return JSON.parse(readFileSync(file, 'utf8'));
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

function rowsOf(json) {
  const { vocab } = json.model;
  let rows = Array.isArray(vocab) ? vocab.length : Math.max(...Object.values(vocab)) + 1;
  for (const token of json.added_tokens) rows = Math.max(rows, token.id + 1);
  return rows;
}

// Our ids and text against the Rust library's, for `json` over the corpus.
async function compare(json, what) {
  const text = JSON.stringify(json);
  const model = await loadModel(modelForTokenizer(utf8.encode(text), rowsOf(json)));
  const theirs = rust.Tokenizer.fromString(text);
  try {
    for (const addSpecialTokens of [false, true]) {
      const encodings = await theirs.encodeBatch(TEXTS, { addSpecialTokens });
      TEXTS.forEach((input, i) => {
        const where = `${what}: ${JSON.stringify(input)}${addSpecialTokens ? ' with special tokens' : ''}`;
        assert.deepEqual(model.encode(input, { addSpecialTokens }), Array.from(encodings[i].getIds()), `ids of ${where}`);
        assertSameOffsets(model, encodings[i], input, { addSpecialTokens }, where);
      });
      const pairs = await encodePairs(theirs, PAIRS, { addSpecialTokens });
      PAIRS.forEach(([a, b], i) => {
        const where = `${what}: the pair ${JSON.stringify([a, b])}${addSpecialTokens ? ' with special tokens' : ''}`;
        assert.deepEqual(model.encode(a, { pair: b, addSpecialTokens }), Array.from(pairs[i].getIds()), `ids of ${where}`);
        assertSameOffsets(model, pairs[i], a, { pair: b, addSpecialTokens }, where);
      });
      if (!addSpecialTokens) continue;
      const ids = encodings.map((e) => Array.from(e.getIds()));
      for (const skipSpecialTokens of [false, true]) {
        const decoded = await theirs.decodeBatch(ids, skipSpecialTokens);
        ids.forEach((sequence, i) => {
          assert.equal(model.decode(sequence, { skipSpecialTokens }), decoded[i],
            `${what}: decoding ${JSON.stringify(sequence)}${skipSpecialTokens ? ' without special tokens' : ''}`);
        });
      }
    }
  } finally {
    model.dispose();
  }
}

// A Unigram vocabulary with "<unk>" in front (so unk_id 0) and, with
// byte_fallback, the 256 "<0xNN>" tokens after it, the scores as trained.
function withUnknown(json, { byteFallback = false } = {}) {
  const bytes = byteFallback ? Array.from({ length: 256 }, (_, b) => [`<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`, -100]) : [];
  const vocab = [['<unk>', 0], ...bytes, ...json.model.vocab.filter(([piece]) => !/^<0x[0-9A-F]{2}>$/.test(piece))];
  const model = rust.Unigram.init(vocab, { unkId: 0, byteFallback });
  return made(() => {
    const tokenizer = new rust.Tokenizer(model);
    tokenizer.setPreTokenizer(unigramPreTokenizer());
    tokenizer.setDecoder(rust.sequenceDecoder([rust.byteFallbackDecoder(), rust.metaspaceDecoder()]));
    tokenizer.addSpecialTokens(['<unk>']);
    return tokenizer;
  }, { train: false });
}

// Punctuation and digits apart, then SentencePiece's Metaspace.
const unigramPreTokenizer = () =>
  rust.sequencePreTokenizer([rust.punctuationPreTokenizer(), rust.digitsPreTokenizer(true), rust.metaspacePreTokenizer()]);

test('Unigram (trained by the Rust library, with Metaspace) gives Rust\'s ids and text', async () => {
  const trained = made(() => {
    const tokenizer = new rust.Tokenizer(rust.Unigram.empty());
    tokenizer.setPreTokenizer(unigramPreTokenizer());
    tokenizer.setDecoder(rust.metaspaceDecoder());
    return tokenizer;
  });
  assert.ok(trained.model.vocab.length > 200, `${trained.model.vocab.length} pieces`);
  // As trained: unk_id null, so only texts made of the pieces' characters.
  const known = new Set(trained.model.vocab.flatMap(([piece]) => Array.from(piece)));
  const texts = TEXTS.filter((text) => Array.from(text.replaceAll(' ', '▁')).every((c) => known.has(c)));
  assert.ok(texts.length > (existsSync(TINYSTORIES) ? 100 : 20), `${texts.length} texts of the pieces' characters`);
  const text = JSON.stringify(trained);
  const model = await loadModel(modelForTokenizer(utf8.encode(text), rowsOf(trained)));
  const encodings = await rust.Tokenizer.fromString(text).encodeBatch(texts, { addSpecialTokens: false });
  texts.forEach((input, i) => {
    assert.deepEqual(model.encode(input), Array.from(encodings[i].getIds()), JSON.stringify(input));
    assertSameOffsets(model, encodings[i], input, {}, `Unigram: ${JSON.stringify(input)}`);
  });
  // A character no piece has, without unk_id: refused, by name, as the Rust library refuses it.
  assert.throws(() => model.encode('ψ'), /encode: the model has no token for "ψ" and no unk_id/);
  model.dispose();
  // With "<unk>" and with byte_fallback, every text.
  await compare(withUnknown(trained), 'Unigram with unk_id');
  await compare(withUnknown(trained, { byteFallback: true }), 'Unigram with byte_fallback');
});

test('WordLevel (trained vocabulary, the Rust library\'s constructor) gives Rust\'s ids and text', async () => {
  const trained = made(() => {
    const tokenizer = new rust.Tokenizer(rust.WordLevel.empty());
    tokenizer.setPreTokenizer(rust.whitespacePreTokenizer());
    return tokenizer;
  });
  const vocab = { '<unk>': 0 };
  for (const word of Object.keys(trained.model.vocab)) vocab[word] = Object.keys(vocab).length;
  await compare(made(() => {
    const tokenizer = new rust.Tokenizer(rust.WordLevel.init(vocab, { unkToken: '<unk>' }));
    tokenizer.setPreTokenizer(rust.whitespacePreTokenizer());
    tokenizer.addSpecialTokens(['<unk>']);
    return tokenizer;
  }, { train: false }), 'WordLevel');
});

test('BERT: WordPiece with BertNormalizer, BertPreTokenizer and BertProcessing gives Rust\'s ids and text', async () => {
  const trained = made(() => {
    const tokenizer = new rust.Tokenizer(rust.WordPiece.empty());
    tokenizer.setNormalizer(rust.bertNormalizer({ lowercase: true }));
    tokenizer.setPreTokenizer(rust.bertPreTokenizer());
    return tokenizer;
  });
  const vocab = { '[PAD]': 0, '[UNK]': 1, '[CLS]': 2, '[SEP]': 3, '[MASK]': 4 };
  for (const piece of Object.keys(trained.model.vocab)) if (!(piece in vocab)) vocab[piece] = Object.keys(vocab).length;
  for (const lowercase of [true, false]) {
    await compare(made(() => {
      const tokenizer = new rust.Tokenizer(rust.WordPiece.init(vocab, { unkToken: '[UNK]', maxInputCharsPerWord: 20 }));
      tokenizer.setNormalizer(rust.bertNormalizer({ lowercase, stripAccents: lowercase ? undefined : false }));
      tokenizer.setPreTokenizer(rust.bertPreTokenizer());
      tokenizer.setPostProcessor(rust.bertProcessing(['[SEP]', 3], ['[CLS]', 2]));
      tokenizer.setDecoder(rust.wordPieceDecoder());
      tokenizer.addSpecialTokens(['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]']);
      return tokenizer;
    }, { train: false }), `BERT, lowercase ${lowercase}`);
  }
});

test('byte-level BPE with RobertaProcessing (trained by the Rust library) gives Rust\'s ids and text', async () => {
  const json = made(() => {
    const tokenizer = new rust.Tokenizer(rust.BPE.empty());
    tokenizer.setPreTokenizer(rust.byteLevelPreTokenizer(true));
    return tokenizer;
  });
  json.decoder = { type: 'ByteLevel', add_prefix_space: true, trim_offsets: true, use_regex: true };
  const rows = rowsOf(json);
  json.added_tokens = ['<s>', '</s>', '<pad>', '<mask>'].map((content, i) => ({
    id: rows + i, content, single_word: false, lstrip: content === '<mask>', rstrip: false, normalized: false, special: true,
  }));
  json.post_processor = { type: 'RobertaProcessing', sep: ['</s>', rows + 1], cls: ['<s>', rows], trim_offsets: true, add_prefix_space: true };
  await compare(json, 'byte-level BPE with RobertaProcessing');
});
