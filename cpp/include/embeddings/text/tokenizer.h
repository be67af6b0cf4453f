// BPE (and WordPiece) tokenizer compatible with Hugging Face `tokenizers`
// (GPT-2, Llama 2 and 3, Qwen, Gemma, GPT-4o, BERT's model): loads a
// tokenizer.json and encodes text to exactly the ids that library gives,
// decodes ids back to text, and names tokens for the book.
//
// The parts, as Hugging Face's tokenizers and tiktoken divide them: the
// pipeline's stages (tokenizer_pipeline.h), the added tokens
// (added_tokens.h), the BPE merge and model (bpe.h), the tokens' storage
// (vocabulary.h), the book's display form (token_display.h); the
// tokenizer.json reader is tokenizer_json.cpp, and this class joins them.
//
// Encoding, step by step (as Hugging Face does it):
//  1. Added tokens (special tokens such as "<|endoftext|>") are cut out of
//     the raw text first (added_tokens.h says how).
//  2. Every gap between added tokens is pre-tokenized: by each Split stage
//     of a Sequence in turn (regex.h), then ByteLevel (pretokenizer.h); with
//     add_prefix_space a space is put in front of a piece that does not
//     already start with one.
//  3. Each piece's bytes become single-byte tokens, which are merged by BPE:
//     always the pair with the lowest merge rank, the leftmost one on ties,
//     over a linked list of symbols with a priority queue (O(n log n) in the
//     piece length). Bytes with no token of their own become unk_token when
//     one is set (fused when fuse_unk) and are dropped otherwise, as in
//     Hugging Face. (A single piece longer than 2^30 bytes, which no real
//     text has, is encoded in 2^30-byte parts.)
//
// A Tokenizer is immutable after loading: every method is const and safe to
// call from several threads at once. A caller that encodes many texts may
// pass a PieceCache (piece_cache.h) of its own, which remembers the ids of
// the pieces it has seen: the ids are the same with it or without, it only
// saves their merges; the cache is the caller's, one per thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "embeddings/text/added_tokens.h"
#include "embeddings/text/bpe.h"
#include "embeddings/text/piece_cache.h"
#include "embeddings/text/tokenizer_pipeline.h"
#include "embeddings/text/vocabulary.h"

namespace embeddings {

class Tokenizer {
 public:
  // Loads a Hugging Face tokenizer.json. Supported: model BPE (vocab;
  // merges as "a b" strings or ["a", "b"] pairs; ignore_merges; unk_token and
  // fuse_unk; dropout null; byte_fallback; continuing_subword_prefix and
  // end_of_word_suffix) or WordPiece; the normalizers, pre-tokenizers and
  // decoders of tokenizer_pipeline.h (docs/tokenizer.md lists them), a
  // vocabulary in GPT-2's byte alphabet when the pre-tokenizer ends in
  // ByteLevel and spelled as text otherwise; a post_processor that only adds
  // special tokens (not run: encode adds none); truncation and padding null;
  // added_tokens. Anything else is refused with a message that names the
  // field and the problem (not the file: the caller, which knows its name,
  // adds it); `out` is left untouched on failure.
  //
  // Memory: the file is read without building its tree; the vocabulary and
  // merges go straight into the tables. Before they are built, the memory
  // they will take is estimated from the counts of entries, and a file whose
  // tables would need more than `memory_limit` bytes is refused with a
  // message giving both sizes, rather than failing halfway. The estimate is
  // within a factor of two of the memory loading takes (the tests measure it).
  static bool from_json(std::string_view json_text, Tokenizer& out, std::string& error,
                        std::uint64_t memory_limit = std::numeric_limits<std::uint64_t>::max());

  // The token ids of `utf8_text`. Invalid UTF-8 is accepted: such bytes are
  // encoded like any others (see pretokenizer.h), so decode_bytes() gives
  // them back.
  std::vector<std::int32_t> encode(std::string_view utf8_text) const;
  // Same, appending to `ids`; with a `cache`, the pieces it holds are not
  // merged again, and those it does not are put in it.
  void encode(std::string_view utf8_text, std::vector<std::int32_t>& ids, PieceCache* cache = nullptr) const;
  // Encodes `utf8_text` into `ids` (replacing their contents) unless it has
  // more than `max_tokens` tokens. Returns true with every id when it has at
  // most that many; false as soon as it is known to have more, with `ids`
  // unspecified. It stops early: after the piece that passes the limit, or
  // before a piece whose length alone proves it (every byte has a token and
  // no token is longer than max_token_bytes()). So refusing a megabyte of
  // text for a context of 1024 tokens costs about as much as encoding the
  // first 1024 tokens.
  bool encode_at_most(std::string_view utf8_text, std::size_t max_tokens, std::vector<std::int32_t>& ids,
                      PieceCache* cache = nullptr) const;

  // Tells this tokenizer from every other one loaded in the process (a copy
  // keeps it: it gives the same ids), so a PieceCache knows whose pieces it holds.
  std::uint64_t serial() const { return serial_; }

  // The text of `count` ids: the tokens' bytes joined, then made valid UTF-8
  // with U+FFFD for ill-formed parts (Rust's from_utf8_lossy). Special tokens
  // are included as their content. False, with `error` naming the position
  // and the id, when an id is not in the vocabulary; `text` is then cleared.
  // (Hugging Face silently skips such ids.) A null decoder in the JSON is
  // decoded the same way, not joined with spaces as Hugging Face would.
  bool decode(const std::int32_t* ids, std::size_t count, std::string& text, std::string& error) const;
  // Same without the UTF-8 repair: the exact bytes, so that
  // decode_bytes(encode(s)) == s for any byte string s.
  bool decode_bytes(const std::int32_t* ids, std::size_t count, std::string& bytes, std::string& error) const;

  // Largest id + 1, over the model vocabulary and the added tokens (the rows
  // an embedding table needs). Ids below it may be unused if the file has gaps.
  std::size_t vocab_size() const { return vocabulary_.id_limit(); }
  // Number of distinct ids in use.
  std::size_t token_count() const { return vocabulary_.size(); }
  bool has_id(std::int32_t id) const { return vocabulary_.has(id); }
  bool is_special(std::int32_t id) const;

  // The bytes a token stands for (an added token: its content); empty for an
  // unknown id.
  std::string token_bytes(std::int32_t id) const;
  // The longest token_bytes() over all ids.
  std::size_t max_token_bytes() const { return vocabulary_.max_bytes(); }

  // How the book shows a token (token_display.h): "·girl" for " girl". An
  // added token shows its content unchanged. Empty for an unknown id.
  std::string token_display(std::int32_t id) const;

  // The id of the single token that `text` names, or -1. Looked up in this
  // order: (1) `text` read as a display form ("·", "↵", "⇥" and "<0xNN>"
  // turned back into bytes) against the model vocabulary; (2) `text` as the
  // content of an added token; (3) `text` as raw bytes against the model
  // vocabulary. So "·girl" and " girl" both find the token for " girl";
  // a literal "<0x41>" token is found by (3) only if no token "A" exists.
  std::int32_t token_id(std::string_view text) const;

  // Whether decode_bytes(encode(s)) == s for every byte string s: a
  // byte-level vocabulary with a token for every byte, no added tokens, no
  // normalizer, and no pre-tokenizer stage that adds or drops text.
  bool round_trips() const;

  const std::vector<AddedToken>& added_tokens() const { return added_.tokens(); }
  bool add_prefix_space() const { return pre_tokenizer_.add_prefix_space; }

 private:
  struct Scratch;
  class Reader;  // Reads tokenizer.json: src/tokenizer_json.h
  class Splitter;

  void encode_with(std::string_view utf8_text, Scratch& scratch, std::vector<std::int32_t>& ids) const;
  std::string_view normalize(std::string_view text, Scratch& scratch) const;
  void encode_gap(std::string_view gap, Scratch& scratch, std::vector<std::int32_t>& ids) const;
  void pre_tokenize(const PreTokenizer* steps, std::size_t count, std::string_view piece, std::size_t depth,
                    bool at_start, Scratch& scratch, std::vector<std::int32_t>& ids) const;
  std::size_t bounded_pretoken_length(std::string_view text, std::size_t pos, Scratch& scratch,
                                      std::size_t ids_so_far) const;
  void encode_piece(std::string_view piece, Scratch& scratch, std::vector<std::int32_t>& ids) const;
  bool join_bytes(const std::int32_t* ids, std::size_t count, std::string& bytes, std::string& error) const;
  // The token as the file spells it (an added token: its content), which is what decoders read.
  std::string token_string(std::int32_t id) const;

  Normalizer normalizer_;
  PreTokenizer pre_tokenizer_;
  bpe::BpeModel model_;
  Decoder decoder_;
  // Whether the vocabulary is spelled in GPT-2's byte alphabet (a ByteLevel
  // pre-tokenizer maps text into it); else it is spelled as text itself.
  bool byte_level_vocabulary_ = true;
  Vocabulary vocabulary_;  // Every token, model and added.
  AddedVocabulary added_;
  std::uint64_t serial_ = 0;
};

}  // namespace embeddings
