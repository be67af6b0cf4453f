// GPT-2's own tokenizer as a Hugging Face tokenizer.json, built in memory
// from the ranks that js-tiktoken ships (so no 1 MB file is committed).
//
// tiktoken stores GPT-2 as "bytes -> rank" only; Hugging Face needs the
// merge rules too. They are recovered from the ranks: the token of rank r is
// made by byte-level BPE over its own bytes using only the ranks below r,
// which leaves exactly two parts, and that pair is merge number r - 256
// (GPT-2's vocabulary is 256 byte tokens, 50,000 merges in rank order, then
// <|endoftext|>).
import gpt2Ranks from 'js-tiktoken/ranks/gpt2';
import { byteToUnicode } from './fixtures.js';

export const GPT2_EOT = 50256;

/** js-tiktoken's ranks as [bytes, rank] pairs, in rank order. */
export function gpt2TokenBytes() {
  const tokens = [];
  for (const line of gpt2Ranks.bpe_ranks.split('\n')) {
    if (!line) continue;
    const [, offset, ...encoded] = line.split(' ');
    encoded.forEach((b64, i) => tokens.push([Uint8Array.from(Buffer.from(b64, 'base64')), Number(offset) + i]));
  }
  return tokens.sort((a, b) => a[1] - b[1]);
}

/**
 * GPT-2's tokenizer.json as an object (the layout of the file on the Hub),
 * plus how long the merge recovery took.
 */
export function gpt2TokenizerJson() {
  const alphabet = byteToUnicode();
  const vocab = {};
  const rank = new Map();  // byte-level string -> rank
  const merges = [];
  for (const [bytes, r] of gpt2TokenBytes()) {
    const symbol = Array.from(bytes, (b) => alphabet[b]).join('');
    if (bytes.length > 1) {
      // Every character of a byte-level string is one byte (and one UTF-16
      // unit), so the BPE below works on plain string slices.
      const parts = Array.from(symbol);
      for (;;) {
        let best = -1, bestRank = r;
        for (let i = 0; i + 1 < parts.length; i++) {
          const pairRank = rank.get(parts[i] + parts[i + 1]);
          if (pairRank !== undefined && pairRank < bestRank) { best = i; bestRank = pairRank; }
        }
        if (best < 0) break;
        parts.splice(best, 2, parts[best] + parts[best + 1]);
      }
      if (parts.length !== 2) throw new Error(`GPT-2 rank ${r} (${symbol}) is not one merge of two lower-ranked tokens: ${parts.join(' ')}`);
      merges.push(`${parts[0]} ${parts[1]}`);
    }
    if (symbol in vocab) throw new Error(`GPT-2 token ${symbol} twice`);
    vocab[symbol] = r;
    rank.set(symbol, r);
  }
  const eot = '<|endoftext|>';
  if (gpt2Ranks.special_tokens[eot] !== GPT2_EOT) throw new Error('unexpected GPT-2 special tokens');
  vocab[eot] = GPT2_EOT;
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: [{ id: GPT2_EOT, content: eot, single_word: false, lstrip: false, rstrip: false, normalized: true, special: true }],
    normalizer: null,
    pre_tokenizer: { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: true },
    post_processor: { type: 'ByteLevel', add_prefix_space: true, trim_offsets: false, use_regex: true },
    decoder: { type: 'ByteLevel', add_prefix_space: true, trim_offsets: true, use_regex: true },
    model: {
      type: 'BPE', dropout: null, unk_token: null, continuing_subword_prefix: '', end_of_word_suffix: '',
      fuse_unk: false, byte_fallback: false, ignore_merges: false, vocab, merges,
    },
  };
}
