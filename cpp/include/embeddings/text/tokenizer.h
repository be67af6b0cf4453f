// A tokenizer compatible with Hugging Face `tokenizers` (GPT-2, Llama 2 and
// 3, Qwen, Gemma, GPT-4o, BERT, T5 and the other SentencePiece models):
// loads a tokenizer.json and encodes text to exactly the ids that library
// gives, decodes ids back to text, and names tokens for the book.
//
// The parts, as Hugging Face's tokenizers divides them: the added tokens
// (added_tokens.h), then the pipeline's stages (pipeline.h: the
// normalizers, the pre-tokenizers, the model of models.h, the
// post-processors; back from ids, the decoders), one file per kind under
// cpp/src/text/<stage>/; the tokens' storage (vocabulary.h); the book's
// display form (token_display.h). The tokenizer.json reader is
// cpp/src/text/tokenizer_json/, and this class joins them.
//
// Encoding, step by step (as Hugging Face does it):
//  1. Added tokens with "normalized": false (special tokens such as
//     "<|endoftext|>") are cut out of the raw text first.
//  2. Each gap between them is normalized, and the added tokens with
//     "normalized": true are cut out of the normalized text (their contents
//     normalized too, as there).
//  3. Every gap left is pre-tokenized: each pre-tokenizer on every piece the
//     one before made.
//  4. Each piece becomes ids by the model: BPE merges its byte or character
//     tokens (always the pair with the lowest merge rank, the leftmost on
//     ties, O(n log n) in the piece length); WordPiece cuts the longest
//     tokens from its start; Unigram finds the best-scoring cut; WordLevel
//     looks it up.
//  5. With add_special_tokens, the post-processors put the special tokens
//     around the text (or the pair of texts): BOS, [CLS] ... [SEP].
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
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "embeddings/text/added_tokens.h"
#include "embeddings/text/models.h"
#include "embeddings/text/piece_cache.h"
#include "embeddings/text/pipeline.h"
#include "embeddings/text/vocabulary.h"

namespace embeddings {

// Where a token came from in the text, as Hugging Face's Encoding gives its
// offsets (docs/tokenizer.md#offsets).
struct TokenOffsets {
  // Bytes [begin, end) of the UTF-8 of its text (the pair's, for sequence
  // 1): the original characters it stands for, through every normalizer;
  // (0, 0) for a special token the post-processors put around the text.
  std::uint32_t begin = 0, end = 0;
  // 0: the text; 1: the pair; -1: a special token the post-processors added.
  std::int32_t sequence = 0;
  // It stands for some of the bytes of a character but not all (a
  // byte-level token holding two of an emoji's four bytes, a byte_fallback
  // "<0xNN>" token): [begin, end) is then the span Hugging Face gives it,
  // which holds the whole character (every such token of it has it).
  bool partial = false;
};

class Tokenizer {
 public:
  // Loads a Hugging Face tokenizer.json: every component kind of
  // cpp/src/text/tokenizer_json/registry_full.cpp (docs/tokenizer.md lists
  // them; the chapter's module reads GPT-2's only,
  // registry_chapter.cpp), a vocabulary in GPT-2's byte alphabet when a
  // pre-tokenizer is ByteLevel and spelled as text otherwise; truncation and
  // padding null; added_tokens. Anything else is refused with a message that
  // names the field and the problem (not the file: the caller, which knows
  // its name, adds it); `out` is left untouched on failure.
  //
  // Memory: the file is read without building its tree; the vocabulary and
  // merges go straight into the tables. Before they are built, the memory
  // they will take is estimated from the counts of entries, and a file whose
  // tables would need more than `memory_limit` bytes is refused with a
  // message giving both sizes, rather than failing halfway. The estimate is
  // within a factor of two of the memory loading takes (the tests measure it).
  static bool from_json(std::string_view json_text, Tokenizer& out, std::string& error,
                        std::uint64_t memory_limit = std::numeric_limits<std::uint64_t>::max());

  // The same load in steps (below).
  class Loading;

  struct EncodeOptions {
    // The post-processors' special tokens, as add_special_tokens in Hugging
    // Face's encode (false: the text's own tokens, which is what the chapter counts).
    bool add_special_tokens = false;
    // A second text, encoded after the first (TemplateProcessing's pair).
    const std::string_view* pair = nullptr;
    // Stop as soon as the ids are known to be more than this many.
    std::size_t max_tokens = kNoLimit;
    // The most bytes the stages may add to the text (normalized text,
    // rewritten pieces): a stage that would pass it refuses before it
    // allocates, and encode() says so (the caller's memory budget).
    std::size_t max_added_bytes = kNoLimit;
    PieceCache* cache = nullptr;  // The caller's, bound to this tokenizer.
    // Each id's offsets, one per id, into this (the cache is then not used:
    // it keeps ids only). A text of 4 GiB or more is refused so.
    std::vector<TokenOffsets>* offsets = nullptr;
  };
  enum class Encoded {
    Ok,
    TooManyTokens,  // More than max_tokens (the ids are then unspecified).
    Refused,        // `error` says why: the budget, or where the Rust library fails too.
  };
  // The ids of `utf8_text` (and the pair), replacing the contents of `ids`.
  // Invalid UTF-8 is accepted: such bytes are encoded like any others (see
  // pre_tokenizers/gpt2_split.h), so decode_bytes() gives them back.
  Encoded encode(std::string_view utf8_text, const EncodeOptions& options, std::vector<std::int32_t>& ids,
                 std::string& error) const;

  // Conveniences over the above, without special tokens, for callers whose
  // files cannot be refused (GPT-2-style BPE: the tools, tests and
  // benchmarks); a refusal leaves `ids` empty.
  std::vector<std::int32_t> encode(std::string_view utf8_text) const;
  // Appending to `ids`; with a `cache`, the pieces it holds are not merged
  // again, and those it does not are put in it.
  void encode(std::string_view utf8_text, std::vector<std::int32_t>& ids, PieceCache* cache = nullptr) const;
  // Encodes `utf8_text` into `ids` (replacing their contents) unless it has
  // more than `max_tokens` tokens. Returns true with every id when it has at
  // most that many; false as soon as it is known to have more, with `ids`
  // unspecified. It stops early: after the piece that passes the limit, or
  // before a piece whose length alone proves it (every byte has a token and
  // no token is longer than max_token_bytes()). So refusing a megabyte of
  // text for a context of 1024 tokens costs about as much as encoding the
  // first 1024 tokens. A text encode() refuses gives true and no ids, or
  // false where the limit is passed before the refused piece is reached;
  // encode() with EncodeOptions::max_tokens tells the three cases apart.
  bool encode_at_most(std::string_view utf8_text, std::size_t max_tokens, std::vector<std::int32_t>& ids,
                      PieceCache* cache = nullptr) const;

  // The most bytes the stages can make of `bytes` bytes of text, known at
  // load: the normalizers' and pre-tokenizers' growths in turn (saturating
  // at Growth::kUnbounded).
  std::uint64_t most_text_bytes(std::uint64_t bytes) const;
  // The most ids the post-processors add.
  std::size_t most_added_ids() const { return most_added_ids_; }

  // Tells this tokenizer from every other one loaded in the process (a copy
  // keeps it: it gives the same ids), so a PieceCache knows whose pieces it holds.
  std::uint64_t serial() const { return serial_; }

  struct DecodeOptions {
    // Leave out the added tokens marked special, as skip_special_tokens in Hugging Face's decode.
    bool skip_special_tokens = false;
    // The most bytes the decoders may add to the tokens' text.
    std::size_t max_added_bytes = kNoLimit;
  };
  // The text of `count` ids, through the decoders. A byte-level vocabulary
  // with a ByteLevel decoder (or none) gives the tokens' bytes joined, then
  // made valid UTF-8 with U+FFFD for ill-formed parts (Rust's
  // from_utf8_lossy); special tokens are their content. False, with `error`
  // naming the position and the id, when an id is not in the vocabulary
  // (Hugging Face silently skips such ids), or when the budget refused;
  // `text` is then cleared.
  bool decode(const std::int32_t* ids, std::size_t count, const DecodeOptions& options, std::string& text,
              std::string& error) const;
  bool decode(const std::int32_t* ids, std::size_t count, std::string& text, std::string& error) const {
    return decode(ids, count, DecodeOptions{}, text, error);
  }
  // The tokens' bytes joined, without the decoders or the UTF-8 repair: the
  // exact bytes, so that decode_bytes(encode(s)) == s for any byte string s.
  bool decode_bytes(const std::int32_t* ids, std::size_t count, std::string& bytes, std::string& error) const;
  // The memory decode() of these ids takes at most, from their tokens' own
  // sizes (counted first, reading each id once): `base` with decoders that
  // add nothing, `most` with what the decoders may add (Growth::kUnbounded
  // when that has no bound). False, with decode()'s error, for an id that
  // is not in the vocabulary.
  bool decode_memory(const std::int32_t* ids, std::size_t count, bool skip_special_tokens,
                     std::uint64_t& base, std::uint64_t& most, std::string& error) const;

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
  std::string token_text(std::int32_t id) const;

  // The id of the single token that `text` names, or -1. Looked up in this
  // order: (1) `text` read as a display form ("·", "↵", "⇥" and "<0xNN>"
  // turned back into bytes) against the model vocabulary; (2) `text` as the
  // content of an added token; (3) `text` as raw bytes against the model
  // vocabulary. So "·girl" and " girl" both find the token for " girl";
  // a literal "<0x41>" token is found by (3) only if no token "A" exists.
  std::int32_t token_id(std::string_view text) const;

  // Whether the normalizers and pre-tokenizers keep every byte of the text, as it is, in order.
  bool keeps_text() const;
  // Whether encode() aligns the normalized start of a text with the text
  // even without offsets (Metaspace's prepend_scheme "first" after
  // normalizers reads where the first character went): it then needs the
  // memory of offsets too.
  bool aligns_start() const { return reads_start_ && !normalizers_.empty(); }

  // Whether decode_bytes(encode(s)) == s for every byte string s: a
  // byte-level vocabulary with a token for every byte, no added tokens, no
  // normalizer that changes text, and no pre-tokenizer stage that adds or drops text.
  bool round_trips() const;

  const std::vector<AddedToken>& added_tokens() const { return added_.tokens(); }

 private:
  struct Scratch;
  class Reader;  // Reads tokenizer.json: cpp/src/text/tokenizer_json/tokenizer_json.h
  class Splitter;
  class ToModel;
  class Sequences;

  void encode_sequence(std::string_view text, Scratch& scratch, std::vector<std::int32_t>& ids) const;
  // The general paths (tokenizer_full.cpp; tokenizer_chapter.cpp in the
  // chapter's module): the texts through the post-processors, the
  // normalizers, several pre-tokenizers; a piece through the cache; ids
  // through their tokens' spelling and the decoders.
  void encode_processed(std::string_view text, const EncodeOptions& options, Scratch& scratch,
                        std::vector<std::int32_t>& ids, std::string& problem) const;
  // A gap through the normalizers (a view of it, or of scratch's copy).
  std::string_view normalize_gap(std::string_view text, Scratch& scratch) const;
  // More than one pre-tokenizer, each on every piece the one before made.
  void pre_tokenize_levels(std::string_view gap, std::size_t first_bytes, Scratch& scratch,
                           PieceSink& sink) const;
  bool encode_cached(std::string_view piece, PieceCache& cache, ModelScratch& scratch,
                     std::vector<std::int32_t>& ids) const;
  bool decode_as_tokens(const std::int32_t* ids, std::size_t count, const DecodeOptions& options,
                        std::string& text, std::string& error) const;
  void encode_gap(std::string_view gap, std::size_t first_bytes, Scratch& scratch,
                  std::vector<std::int32_t>& ids) const;
  void encode_gap_aligned(std::string_view gap, std::size_t first_bytes, Scratch& scratch,
                          PieceSink& to_model) const;
  bool join_bytes(const std::int32_t* ids, std::size_t count, bool skip_special, std::string& bytes,
                  std::string& error) const;
  std::string not_in_vocabulary(std::int32_t id, std::size_t position) const;
  // The token as the file spells it (an added token: its content, normalized
  // as Hugging Face's decode gives it), which is what decoders read.
  std::string token_string(std::int32_t id) const;
  // Offsets (tokenizer_offsets.cpp): how an encode keeps them (or why it
  // cannot); whether every token's bytes are the text's, one after the
  // other (then offsets are found from the ids alone, by record_by_bytes,
  // the chapter module's only way); the ids the model made of `piece`
  // (aligned as `alignment`) from ids[first] on, by the model's spans; an
  // added token cut from `matched` (so aligned); one token's, trimmed as the
  // post-processors say.
  void keep_offsets(std::string_view text, const EncodeOptions& options, Scratch& scratch,
                    std::string& problem) const;
  bool gives_offsets_by_bytes() const;
  void record_by_bytes(std::string_view text, const EncodeOptions& options,
                       const std::vector<std::int32_t>& ids, std::size_t first_ids) const;
  void record_piece(std::string_view piece, const Alignment& alignment, const std::int32_t* ids,
                    std::size_t count, Scratch& scratch) const;
  void record_added(std::int32_t id, std::string_view matched, const Alignment& alignment,
                    Scratch& scratch) const;
  void record(TokenOffsets offsets, std::string_view token, bool byte_level, Scratch& scratch) const;
  // The same general paths with offsets: a gap through the normalizers, with
  // its alignment; more than one pre-tokenizer, each piece's alignment in
  // sink.alignment (false when a piece's bytes could not be traced back).
  std::string_view normalize_aligned(std::string_view gap, Scratch& scratch, Alignment& alignment) const;
  bool pre_tokenize_aligned(std::string_view gap, std::size_t first_bytes, const Alignment& alignment,
                            Scratch& scratch, PieceSink& sink) const;

  Normalizers normalizers_;
  PreTokenizers pre_tokenizers_;
  std::shared_ptr<const Model> model_;
  PostProcessors post_processors_;
  Decoders decoders_;
  bool has_decoder_ = false;  // "decoder": null joins the tokens with spaces.
  // A byte-level vocabulary with a ByteLevel decoder or none whose added
  // tokens decode as their own bytes: decode() joins the bytes; else it
  // takes the general path (decode_as_tokens).
  bool decodes_as_bytes_ = true;
  // Whether the post-processors keep every id of the texts (then passing
  // max_tokens while encoding is final).
  bool post_processors_keep_ids_ = true;
  std::size_t most_added_ids_ = 0;
  std::uint64_t most_token_string_bytes_ = 0;  // The longest token_string().
  // Whether the vocabulary is spelled in GPT-2's byte alphabet (a ByteLevel
  // pre-tokenizer maps text into it); else it is spelled as text itself.
  bool byte_level_vocabulary_ = true;
  Vocabulary vocabulary_;  // Every token, model and added.
  AddedVocabulary added_;
  std::uint64_t serial_ = 0;
  // The post-processors that trim offsets (ByteLevel's and RobertaProcessing's
  // trim_offsets), in order, one character each: 1 when it has add_prefix_space.
  std::string offset_trims_;
  bool offsets_by_bytes_ = false;  // gives_offsets_by_bytes(), known at load.
  // Whether a pre-tokenizer reads where the text starts (PreTokenizer::reads_start()).
  bool reads_start_ = false;
};

// The same load in steps, one per call of step(), with the same result and
// the same messages: a caller with other work to do between them (a page's
// main thread, where one call of 70-140 ms on a slow phone was the load's
// longest task) runs each in a task of its own. The text must stay as it
// is until the load is done or dropped.
class Tokenizer::Loading {
 public:
  enum class Step { More, Done, Failed };
  Loading(std::string_view json_text, std::uint64_t memory_limit = std::numeric_limits<std::uint64_t>::max());
  ~Loading();
  Loading(const Loading&) = delete;
  Loading& operator=(const Loading&) = delete;
  // The next step: More while steps are left, then Done (take() gives the
  // tokenizer) or Failed (error() says why); after either, it stays so.
  Step step();
  const std::string& error() const { return error_; }
  // The tokenizer loaded, once step() said Done (moved out: call once).
  Tokenizer take();

 private:
  Tokenizer loaded_;
  std::string error_;
  std::unique_ptr<Reader> reader_;
  int next_ = 0;
  Step state_ = Step::More;
};

}  // namespace embeddings
