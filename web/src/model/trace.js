// The chapter's `trace` object.
const inspect = Symbol.for('nodejs.util.inspect.custom');

/** What trace() returns: the chapter's `trace` object. */
export class Trace {
  constructor(text, tokens, tokenEmbeddings, positionEmbeddings, embeddings, truncated) {
    /** The text that was traced. */
    this.text = text;
    /** Its tokens in order: { id, text, start, end, partial } (start and end: the token's characters, text.slice(start, end), as model.encode's offsets). */
    this.tokens = tokens;
    /** One row per token: that token's row of wte. */
    this.tokenEmbeddings = tokenEmbeddings;
    /**
     * One row per place: row i - 1 of wpe for place i; null for a model
     * without a position table (rotary positions).
     */
    this.positionEmbeddings = positionEmbeddings;
    /** tokenEmbeddings + positionEmbeddings (the token rows alone without a position table): what the first layer reads. */
    this.embeddings = embeddings;
    /** How many tokens were cut off the end ({ truncate: true } only). */
    this.truncated = truncated;
    Object.freeze(this);
  }

  toString() {
    return `Trace of ${this.tokens.length} tokens: ${this.tokens.map((t) => t.text).join(' | ')}`;
  }

  [inspect]() {
    const d = this.embeddings.cols;
    return `Trace ${JSON.stringify(this.text.length > 60 ? `${this.text.slice(0, 60)}…` : this.text)}\n` +
      `  tokens: ${this.tokens.map((t) => `${t.text} (${t.id})`).join(', ')}\n` +
      `  tokenEmbeddings: Matrix ${this.tokens.length} × ${d}\n` +
      `  positionEmbeddings: ${this.positionEmbeddings ? `Matrix ${this.tokens.length} × ${d}` : 'null (rotary positions)'}\n` +
      `  embeddings: Matrix ${this.tokens.length} × ${d}`;
  }
}
