// What one loaded tokenizer is to its caller: a TextSession owns the
// tokenizer and the buffers text passes through, for the WebAssembly
// bindings (bindings/embind.cpp) and the native tests alike. Its memory
// follows the text it is given; each request is checked against its
// MemoryBudget before it is made. Failures are `false` (or a null buffer)
// with error() saying why, never an exception or an abort.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "embeddings/common/buffer.h"
#include "embeddings/common/memory_budget.h"
#include "embeddings/text/tokenizer.h"

namespace embeddings {

// Worst case of Tokenizer::encode per input byte: the ids (4, doubled by
// vector growth), a piece's symbols (16) and merge queue (up to 3 entries of
// 12, doubled), the prefixed copy of a gap (1), with margin.
inline constexpr std::uint64_t kEncodeBytesPerInputByte = 128;
// And with offsets: each id's (16, doubled by vector growth), the model's
// spans of a piece (12 an id) and the normalized text's (8 a byte), with
// margin; also without them for a tokenizer that aligns its texts' start
// (Tokenizer::aligns_start()).
inline constexpr std::uint64_t kOffsetsBytesPerInputByte = 64;
// Slots of a TextSession's piece cache: 256 KiB, enough for the words of
// a long story (what it saves on TinyStories: docs/tokenizer.md).
inline constexpr std::size_t kPieceCacheSlots = 4096;

class TextSession {
 public:
  explicit TextSession(MemoryBudget budget = {}) : budget_(budget) {}

  const std::string& error() const { return error_; }

  // The caller writes UTF-8 (tokenizer.json, or text to encode) into a
  // buffer of the size it asks for, then calls load() or encode(). Null
  // when there is no memory for it.
  char* input_buffer(std::size_t bytes);
  bool load();
  bool loaded() const { return loaded_; }
  // The same load in steps (Tokenizer::Loading), each a call of its own:
  // load_step() once the file is in the input buffer, again while it
  // returns 0; then 1, loaded (as load() returning true), or -1, failed
  // (error() says why; the tokenizer before stays). Asking for the input
  // buffer meanwhile drops the load under way.
  int load_step();

  // Encodes the input buffer; the ids are at ids(), id_count() of them.
  bool encode();
  // The same, unless the text has more than `max_tokens` tokens: then
  // over_limit() is true and the ids are unspecified (the encoder stops
  // early). False only on failure (memory short, no tokenizer).
  bool encode_at_most(std::size_t max_tokens);
  // The same with Hugging Face's options: the post-processors' special
  // tokens (BOS, [CLS] ... [SEP]), and a pair of texts, the buffer's first
  // `first_bytes` bytes and the rest (a first_bytes past its end: one text).
  // With `offsets`, also each id's offsets (Tokenizer::EncodeOptions::offsets),
  // at offsets(), id_count() of them, and as 32-bit words at the address in
  // output_address()[3]: begin, end, sequence, partial (0 or 1) for each;
  // past `max_tokens` tokens, over_limit(), as encode_at_most() says it.
  bool encode_special(std::size_t first_bytes, bool add_special_tokens, bool offsets = false,
                      std::size_t max_tokens = kNoLimit);
  const TokenOffsets* offsets() const { return offsets_.data(); }
  bool over_limit() const { return over_limit_; }
  const std::int32_t* ids() const { return ids_.data(); }
  std::size_t id_count() const { return ids_.size(); }
  // Frees what the last encode kept, so a long text does not stay resident.
  void release();

  // Encoding text after text without an allocation each time: the caller
  // writes the UTF-8 of a text into text_buffer(bytes), which is kept
  // between calls (and grows when a text needs more), then calls
  // encode_text() with the count of bytes it wrote. The ids are where
  // encode() puts them (release() frees them; the buffer stays, as large as
  // the longest text asked for).
  char* text_buffer(std::size_t bytes);
  bool encode_text(std::size_t length);
  bool encode_text_at_most(std::size_t length, std::size_t max_tokens);

  // Decoding: the caller writes `count` ids at ids_input(count), then calls
  // decode(); the text is at decoded() until the next decode() or release().
  std::int32_t* ids_input(std::size_t count);
  bool decode();
  // The same without the added tokens marked special (skip_special_tokens).
  bool decode_skipping_special();
  std::string_view decoded() const { return decoded_; }

  // What the last encode or decode produced, also as words at
  // output_address(): [0] the address of the ids or of the text, [1] their
  // count in ids or bytes, [2] over_limit(), [3] the address of the offsets
  // (0 without them). A caller across a slow boundary
  // reads them there rather than making three more calls (each Embind call
  // costs a few percent of a short encode).
  const std::uintptr_t* output_address() const { return output_; }

  const Tokenizer& tokenizer() const { return tokenizer_; }
  // Every id's display text as one JSON array ("" for unused ids).
  std::string vocabulary_json() const;

 private:
  struct Request {
    std::size_t first_bytes = static_cast<std::size_t>(-1);  // A pair's first text; past the end: no pair.
    bool add_special_tokens = false;
    bool offsets = false;
  };
  bool encode_checked(std::string_view text, const std::size_t* max_tokens, const Request& request);
  bool decode_with(bool skip_special_tokens);
  void set_output(const void* data, std::size_t count);
  bool fail(std::string message);
  std::string_view input() const { return {input_.data(), input_.size()}; }

  MemoryBudget budget_;
  Tokenizer tokenizer_;
  // A load in steps under way (load_step()), reading the input buffer.
  std::unique_ptr<Tokenizer::Loading> loading_;
  // The pieces encoded so far (piece_cache.h): JavaScript encodes text after
  // text through one session.
  PieceCache piece_cache_;
  bool loaded_ = false;
  bool over_limit_ = false;
  std::uintptr_t output_[4] = {};
  std::string error_, decoded_;
  Buffer<char> input_;
  Buffer<char> text_;  // text_buffer()'s
  std::vector<std::int32_t> ids_;
  std::vector<TokenOffsets> offsets_;
  Buffer<std::int32_t> ids_in_;
};

}  // namespace embeddings
