// Generated tokenizer.json files of the sizes real models ship (tens of
// megabytes), for the loader's memory and the added-token search; never
// committed. GPT-2-style: byte-level vocabulary and merges.
import { byteToUnicode, makeTokenizerJson, writeSafetensors } from './fixtures.js';
import { uniformRandom } from './text.js';

/**
 * A valid byte-level BPE tokenizer.json of about `targetBytes` bytes: the 256
 * byte tokens, then merges of random earlier tokens (short ones more often,
 * so tokens stay word-sized), each with its merged token.
 * Returns { text, ids } (ids: the rows an embedding table needs).
 */
export function bigTokenizerJson(targetBytes, seed = 5) {
  const random = uniformRandom(seed);
  const tokens = byteToUnicode();
  const seen = new Set(tokens);
  const merges = [];
  // Each token adds about its key, its id and its merge to the file.
  let size = 4096;
  while (size < targetBytes) {
    const pick = () => tokens[Math.floor(tokens.length * random() ** 3)];
    const left = pick(), right = pick();
    const merged = left + right;
    if (merged.length > 24 || seen.has(merged)) continue;
    seen.add(merged);
    tokens.push(merged);
    merges.push(`${left} ${right}`);
    size += 2 * Buffer.byteLength(merged) + 16;
  }
  const vocab = {};
  tokens.forEach((token, id) => { vocab[token] = id; });
  const base = JSON.parse(makeTokenizerJson([]));
  const ids = tokens.length + 1;
  base.added_tokens[0].id = tokens.length;
  vocab[base.added_tokens[0].content] = tokens.length;
  base.model.vocab = vocab;
  base.model.merges = merges;
  return { text: JSON.stringify(base), ids };
}

/**
 * Fills an instance's heap and frees room for about `bytes` bytes and a
 * MiB more (a file's text, copied in), so that loading it is refused for
 * memory with the loader's estimate.
 */
export function leaveRoomFor(module, bytes) {
  for (const size of [2 ** 28, 2 ** 24]) while (module._malloc(size) !== 0);
  const blocks = [];
  for (let p; (p = module._malloc(2 ** 20)) !== 0;) blocks.push(p);
  for (const p of blocks.slice(-Math.ceil(bytes / 2 ** 20) - 1)) module._free(p);
}

/** loadModel() files for a tokenizer with `ids` ids: zero tables of width 2 and `context` positions. */
export function modelForTokenizer(tokenizer, ids, context = 4) {
  const width = 2;
  const weights = writeSafetensors([
    { name: 'wte.weight', shape: [ids, width], data: new Float32Array(ids * width) },
    { name: 'wpe.weight', shape: [context, width], data: new Float32Array(context * width) },
  ]);
  const config = { model_type: 'gpt2', vocab_size: ids, n_embd: width, n_positions: context, n_layer: 1, n_head: 1 };
  return { weights, config, tokenizer };
}

/**
 * loadModel() files whose tokenizer has the added tokens `contents` (ids
 * after the vocabulary, in order; special, no strip flags) and a context of
 * `context` positions.
 */
export function tokenizerWithAddedTokens(contents, context = 16, words = [' girl', ' boy', 'Once', ' upon']) {
  const json = JSON.parse(makeTokenizerJson(words));
  let next = Object.keys(json.model.vocab).length;
  for (const content of contents) {
    json.added_tokens.push({ id: next++, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true });
  }
  return modelForTokenizer(new TextEncoder().encode(JSON.stringify(json)), next, context);
}
