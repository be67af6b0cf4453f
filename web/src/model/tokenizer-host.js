// The tokenizer's instance: tokenizer.json loaded into a TextSession, and
// encode, decode and token texts through it.
import { instantiate, mark } from '../runtime.js';
import { checkInstance, instanceFailed, nameInstance } from '../instance-guard.js';
import { checkSignal, isUtf8, notUtf8, readBytes } from '../sources/index.js';
import { LEFT_OUT, needsFullModule } from './module-choice.js';
import { MAX_TEXT_BYTES, readUtf8, tooLong, utf16Positions } from './text.js';
import { yieldToMain } from '../event-loop.js';

// Texts of at most this many UTF-16 units are encoded through the session's
// kept buffer (TokenizerHost.encode), which starts at SHORT_TEXT_ROOM bytes
// and is never more than three times this.
const SHORT_TEXT = 16384;
const SHORT_TEXT_ROOM = 4096;
const utf8 = new TextEncoder();
// A display form spells a byte in at most this many characters ("<0xNN>"),
// so a text longer than that many per byte of the longest token, with some
// margin, is never one token and is not looked up.
const DISPLAY_CHARS_PER_BYTE = 6;
const TOKEN_LOOKUP_MARGIN = 16;
const NO_PAIR = 2 ** 32 - 1;
const NO_LIMIT = 2 ** 32 - 1;
const NO_TEXT = new Uint8Array(0);

// A message of the core's under the caller's name, once: some of the
// tokenizer's already start with it ("decode: id 9 at position 2 is not in
// the vocabulary").
const prefixed = (caller, message) => (message.startsWith(`${caller}: `) ? message : `${caller}: ${message}`);

export async function loadTokenizer(input, after = Promise.resolve(), signal = undefined) {
  const { name, bytes: file } = await readBytes(input, 'tokenizer', { signal });
  await after;
  // Reading the file, choosing the module and loading it into the module
  // are each a task of their own, beside the tables' steps (tables.js).
  await yieldToMain();
  checkSignal(signal);
  // The bytes go to the module as they are, without a byte order mark (as
  // TextDecoder would drop it).
  const bytes = file[0] === 0xef && file[1] === 0xbb && file[2] === 0xbf ? file.subarray(3) : file;
  const full = needsFullModule(bytes);
  const module = await instantiate('tokenizer', { full });
  await yieldToMain();
  checkSignal(signal);
  let loaded = await loadTokenizerIn(module, bytes, name, signal);
  // A file the test below misjudged: the chapter's module names what it leaves out.
  if (!loaded.session && !full && LEFT_OUT.test(loaded.message)) {
    loaded = await loadTokenizerIn(await instantiate('tokenizer', { full: true }), bytes, name, signal);
  }
  if (!loaded.session) {
    // The core says what is wrong; the file's name is the caller's to give.
    // Text that is not UTF-8 is said first, as for every other file: the
    // module checks UTF-8 as it reads (a file it loads is valid), so only a
    // refused file needs the check.
    if (!isUtf8(bytes)) throw notUtf8(name);
    throw new Error(`${name}: ${loaded.message}`);
  }
  mark('load:tokenizer-loaded');
  return new TokenizerHost(loaded.module, loaded.session, name);
}

/**
 * Loads the file into a session of `module`, a step per task (the file's
 * walk, its small parts, the vocabulary, the merges, the model's tables):
 * in one call it was the load's longest task on a slow phone (70-140 ms at
 * 4x slower, most of it the first call of each function, which the browser
 * compiles then).
 */
async function loadTokenizerIn(module, bytes, name, signal) {
  nameInstance(module, name);
  const session = new module.TextSession();
  // The pointer first: allocating it may grow memory and replace HEAPU8's buffer.
  const pointer = session.inputBuffer(bytes.length);
  if (pointer) module.HEAPU8.set(bytes, pointer);
  let step = pointer ? session.loadStep() : -1;
  for (let done = 1; step === 0; done++) {
    mark(`load:tokenizer-step-${done}`);
    await yieldToMain();
    if (signal?.aborted) session.delete();
    checkSignal(signal);
    step = session.loadStep();
  }
  if (step < 0) {
    const message = session.error();
    session.delete();
    return { message };
  }
  return { module, session };
}

export class TokenizerHost {
  constructor(module, session, name) {
    this.module = module;
    this.session = session;
    this.name = name;
    this.vocabSize = session.vocabSize();
    // Ids below vocabSize that no token has (gaps in the file's numbering).
    this.unusedIds = this.vocabSize - session.tokenCount();
    this.maxTokenBytes = session.maxTokenBytes();
    // Where the session says what its last encode or decode produced:
    // [address, count, over the limit], as 32-bit words (wasm32). Addresses
    // pass 2^31 in a memory near 4 GiB, so they are shifted unsigned (>>>).
    this.output = session.outputAddress() >>> 2;
    // The session's buffer for short texts (encode): its address and size.
    this.textPointer = 0;
    this.textRoom = 0;
    this.texts = new Array(this.vocabSize);
    this.allTexts = undefined;
    this.refs = 1;  // Models using this tokenizer (see shareTokenizer).
  }

  /** Every id's display text, fetched in one call and kept. */
  vocabulary() {
    if (!this.allTexts) {
      this.allTexts = Object.freeze(JSON.parse(this.session.vocabularyJson()));
      this.allTexts.forEach((text, id) => { this.texts[id] = text; });
    }
    return this.allTexts;
  }

  /**
   * Token ids of a text, or null when `maxTokens` is given and the text has
   * more tokens than that (found without encoding all of it). `special`:
   * { addSpecialTokens, pair } as Hugging Face's encode takes them.
   */
  encode(text, caller, maxTokens = undefined, special = undefined) {
    if (special) return this.#encodeSpecial(text, caller, special);
    // UTF-8 has at least one byte per UTF-16 unit: a cheap first check.
    if (text.length > MAX_TEXT_BYTES) throw tooLong(caller, text.length, 'characters');
    const { session, module } = this;
    let ok;
    if (text.length <= SHORT_TEXT) {
      // Written straight into the session's buffer, kept from call to call
      // (at most three bytes of UTF-8 per UTF-16 unit): no allocation for
      // the text on either side. TextEncoder turns lone
      // surrogates into U+FFFD, as the Hugging Face tokenizers do when they
      // receive such a string.
      const room = 3 * text.length;
      if (room > this.textRoom || !this.textPointer) {
        this.textPointer = session.textBuffer(Math.max(room, SHORT_TEXT_ROOM));
        if (!this.textPointer) throw new RangeError(`${caller}: ${session.error()}`);
        this.textRoom = Math.max(room, SHORT_TEXT_ROOM);
      }
      const { written } = utf8.encodeInto(text, module.HEAPU8.subarray(this.textPointer, this.textPointer + room));
      ok = maxTokens === undefined ? session.encodeText(written) : session.encodeTextAtMost(written, maxTokens);
    } else {
      const bytes = utf8.encode(text);
      if (bytes.length > MAX_TEXT_BYTES) throw tooLong(caller, bytes.length, 'bytes of UTF-8');
      const pointer = session.inputBuffer(bytes.length);
      if (!pointer) throw new RangeError(`${caller}: ${session.error()}`);
      module.HEAPU8.set(bytes, pointer);
      ok = maxTokens === undefined ? session.encode() : session.encodeAtMost(maxTokens);
    }
    if (!ok) throw new RangeError(`${caller}: ${session.error()}`);
    return this.#ids();
  }

  // A text and its pair (or none) as one UTF-8 buffer, the first text's bytes counted.
  #encodeSpecial(text, caller, { addSpecialTokens, pair }) {
    const firstBytes = this.#writeInput(text, pair, caller);
    if (!this.session.encodeSpecial(firstBytes, addSpecialTokens, false, NO_LIMIT)) throw new RangeError(`${caller}: ${this.session.error()}`);
    return this.#ids();
  }

  // Writes a text and its pair (or none) into the input buffer as one UTF-8
  // text; returns the first text's length in bytes, or, without a pair,
  // one past the buffer (2^32 - 1 in wasm32), which the core reads as a single text.
  #writeInput(text, pair, caller) {
    const first = utf8.encode(text);
    const second = pair === undefined ? NO_TEXT : utf8.encode(pair);
    const length = first.length + second.length;
    if (length > MAX_TEXT_BYTES) throw tooLong(caller, length, 'bytes of UTF-8');
    const { session, module } = this;
    const pointer = session.inputBuffer(length);
    if (!pointer) throw new RangeError(`${caller}: ${session.error()}`);
    module.HEAPU8.set(first, pointer);
    module.HEAPU8.set(second, pointer + first.length);
    return pair === undefined ? NO_PAIR : first.length;
  }

  /**
   * A text's ids with each token's place in it: { ids, offsets, partial,
   * sequenceIds } (model.encode's { offsets: true }), or null when
   * `maxTokens` is given and the text has more tokens than that.
   */
  encodeWithOffsets(text, caller, { addSpecialTokens = false, pair = undefined, maxTokens = undefined } = {}) {
    const firstBytes = this.#writeInput(text, pair, caller);
    const { session, module } = this;
    if (!session.encodeSpecial(firstBytes, addSpecialTokens, true, maxTokens ?? NO_LIMIT)) {
      throw new RangeError(`${caller}: ${session.error()}`);
    }
    const [address, count, overLimit, offsetsAddress] = module.HEAPU32.subarray(this.output, this.output + 4);
    if (overLimit) {
      session.release();
      return null;
    }
    const view = new Int32Array(module.HEAP32.buffer, address, count);
    // Four words a token: begin and end (bytes of its text's UTF-8), its sequence, and the partial flag's byte.
    const words = module.HEAP32.subarray(offsetsAddress >>> 2, (offsetsAddress >>> 2) + 4 * count);
    const positions = [utf16Positions(text), pair === undefined ? null : utf16Positions(pair)];
    const ids = new Array(count), offsets = new Array(count), partial = new Array(count), sequenceIds = new Array(count);
    for (let i = 0; i < count; i++) {
      const sequence = words[4 * i + 2];
      const at = positions[sequence];
      ids[i] = view[i];
      offsets[i] = at ? [at[words[4 * i]], at[words[4 * i + 1]]] : [0, 0];
      partial[i] = (words[4 * i + 3] & 0xff) !== 0;
      sequenceIds[i] = at ? sequence : null;
    }
    session.release();
    return { ids, offsets, partial, sequenceIds };
  }

  #ids() {
    const { session, module } = this;
    const [address, count, overLimit] = module.HEAPU32.subarray(this.output, this.output + 3);
    let ids = null;
    if (!overLimit) {
      const view = new Int32Array(module.HEAP32.buffer, address, count);
      // Filled in place: twice as fast as push() for a paragraph's ids.
      ids = new Array(count);
      for (let i = 0; i < count; i++) ids[i] = view[i];
    }
    // The ids are freed at once, so that what the session holds does not
    // depend on the last text (the kept buffer is its only memory).
    session.release();
    return ids;
  }

  decode(ids, skipSpecialTokens = false) {
    if (ids.length > MAX_TEXT_BYTES) {
      throw new RangeError(`decode: ${ids.length} ids are more than the ${MAX_TEXT_BYTES} that can be decoded at once`);
    }
    const { session } = this;
    const pointer = session.idsInput(ids.length);
    if (!pointer) throw new RangeError(prefixed('decode', session.error()));
    this.module.HEAP32.set(ids, pointer >>> 2);
    if (!(skipSpecialTokens ? session.decodeSkippingSpecial() : session.decode())) {
      throw new RangeError(prefixed('decode', session.error()));
    }
    const heap = this.module.HEAPU32;
    const text = readUtf8(this.module, heap[this.output], heap[this.output + 1]);
    session.release();
    return text;
  }

  text(id) {
    return (this.texts[id] ??= this.session.tokenText(id));
  }

  /**
   * A single token's id by its text, shown or raw, or -1. A text longer than
   * any token's display form is not looked up.
   */
  id(text) {
    const longest = DISPLAY_CHARS_PER_BYTE * this.maxTokenBytes + TOKEN_LOOKUP_MARGIN;
    return text.length <= longest ? this.session.tokenId(text) : -1;
  }

  /** Throws once the instance has failed (instance-guard.js), even for what was kept in JavaScript. */
  checkAlive() {
    checkInstance(this.module);
  }

  /** Frees the session and lets go of the instance once no model uses it. */
  dispose() {
    if (--this.refs > 0 || !this.module) return;
    // A failed instance refuses every call, delete() too; it goes as a whole.
    if (!instanceFailed(this.module)) this.session.delete();
    this.session = this.module = this.texts = this.allTexts = undefined;
  }
}

