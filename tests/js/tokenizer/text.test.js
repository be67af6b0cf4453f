// Awkward text: empty, spaces, emoji, CJK, control characters, RTL, the
// special token typed by a reader, lone surrogates, ids that cut a character
// in two, a byte order mark, and texts too long to trace or encode. Ids are
// Hugging Face tokenizers' ids, text comes back unchanged, and the model
// keeps working.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';

import { loadModel } from '../../../web/index.js';
import { makeModel } from '../helpers/fixtures.js';
import { vocabSize, width, context, model, loadTheModel, fixtureOracle, stillWorks, expectThrows } from '../helpers/shared-model.js';

const oracle = fixtureOracle();

before(loadTheModel);
after(() => model.dispose());

describe('text', () => {
  const texts = {
    empty: '',
    'only spaces': '     ',
    'spaces and newlines': ' \n\n  \t \r\n ',
    emoji: 'Lily 🙂👍🏽 saw 🐈‍⬛',
    CJK: '漢字かなカナ한국어 Lily',
    'control characters': '\u0000\u0007\u001b[31mred\u001b[0m\u007f\u0085\u2028',
    'combining marks and RTL': 'e\u0301 שלום مرحبا',
    '<|endoftext|> typed by a reader': 'Lily<|endoftext|> saw<|endoftext|>',
  };
  for (const [name, text] of Object.entries(texts)) {
    test(`${name}: ids as Hugging Face tokenizers, text back unchanged, a trace`, () => {
      const ids = model.encode(text);
      assert.deepEqual(ids, oracle.encode(text).ids);
      assert.equal(model.decode(ids), text);
      assert.deepEqual(model.tokenize(text).map((t) => t.id), ids);
      if (ids.length <= context) {
        const trace = model.trace(text);
        assert.equal(trace.embeddings.rows, ids.length);
        assert.equal(trace.embeddings.cols, width);
      }
      stillWorks();
    });
  }

  test('<|endoftext|> in a text is the special token, as in Hugging Face tokenizers', () => {
    const eot = model.tokenId('<|endoftext|>');
    assert.equal(eot, vocabSize - 1);
    assert.deepEqual(model.encode('<|endoftext|>'), [eot]);
    assert.deepEqual(model.tokenize('a<|endoftext|>b').map((t) => t.text), ['a', '<|endoftext|>', 'b']);
    // Only the exact spelling: a near miss is ordinary text.
    assert.ok(!model.encode('<|endoftext|').includes(eot));
    assert.ok(!model.encode('<|EndOfText|>').includes(eot));
  });

  test('lone surrogates become U+FFFD, as Hugging Face tokenizers make them', () => {
    for (const text of ['a\uD800b', '\uDC00', 'Lily\uD83D']) {
      const ids = model.encode(text);
      assert.deepEqual(ids, oracle.encode(text).ids);
      assert.deepEqual(ids, model.encode(text.replace(/[\uD800-\uDFFF]/g, '\uFFFD')));
      assert.equal(model.decode(ids), text.replace(/[\uD800-\uDFFF]/g, '\uFFFD'));
    }
  });

  test('ids that cut a character in two decode to U+FFFD', () => {
    const ids = model.encode('🙂');
    assert.equal(ids.length, 4);  // one token per byte in this small vocabulary
    assert.equal(model.decode(ids.slice(0, 2)), '\uFFFD');
    assert.equal(model.decode([...ids.slice(0, 3), ...model.encode('x')]), '\uFFFDx');
  });

  test('a megabyte of text: trace says it is too long, without encoding all of it', () => {
    const text = 'Lily saw Max and a girl. '.repeat(42000);
    assert.ok(text.length > 1e6);
    expectThrows(() => model.trace(text), RangeError,
      new RegExp(`^trace: the text is more than 4096 tokens long, but the model reads at most ${context}\\. Shorten it, or pass \\{ truncate: true \\} to keep the first ${context}\\.$`));
    const ids = model.encode(text);
    const cut = model.trace(text, { truncate: true });
    assert.deepEqual(cut.tokens.map((t) => t.id), ids.slice(0, context));
    assert.equal(cut.truncated, ids.length - context);
    // Just over the context: the exact count.
    const over = ' girl'.repeat(context + 1);
    expectThrows(() => model.trace(over), RangeError, new RegExp(`the text is ${context + 1} tokens long`));
    // One long word: its length alone proves it is too long.
    expectThrows(() => model.trace('a'.repeat(1e6)), RangeError, /more than 4096 tokens long/);
  });

  test('text over 8 MiB of UTF-8 is refused before it reaches the tokenizer', () => {
    expectThrows(() => model.encode('a'.repeat(9 * 2 ** 20)), RangeError,
      /^encode: the text is 9437184 characters long; at most 8388608 bytes of UTF-8 \(8 MiB\) can be encoded at once$/);
    // Fewer characters than the limit but more bytes (three per character).
    expectThrows(() => model.trace('漢'.repeat(3 * 2 ** 20)), RangeError, /^trace: the text is 9437184 bytes of UTF-8 long/);
    expectThrows(() => model.tokenize('a'.repeat(9 * 2 ** 20)), RangeError, /^tokenize: the text is/);
  });
});

test('decode(encode(s)) === s for a text that starts with U+FEFF and is longer than 16 bytes', async () => {
  const fixture = makeModel();
  const model = await loadModel({ weights: fixture.weights, tokenizer: fixture.tokenizer });
  try {
    for (const text of ['\uFEFFLily saw Max and the girl saw three boys', '\uFEFF\uFEFFshort', '\uFEFF', `\uFEFF${'x'.repeat(100000)}`]) {
      assert.equal(model.decode(model.encode(text)), text);
    }
  } finally {
    model.dispose();
  }
});
