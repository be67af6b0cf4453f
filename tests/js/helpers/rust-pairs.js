// Pairs of texts through the Rust library: its Node binding's encodeBatch
// takes single texts only, so each pair is one encode(text, pair, options).
export function encodePairs(tokenizer, pairs, options) {
  return Promise.all(pairs.map(([text, pair]) => tokenizer.encode(text, pair, options)));
}
