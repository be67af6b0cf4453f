// The stages of a tokenizer, as tokenizer.json lists them and Hugging Face's
// tokenizers runs them: the normalizers, the pre-tokenizers, the model
// (models.h), the post-processors, and back from ids the decoders. Each
// stage kind is one class in one file under cpp/src/text/<stage>/ (its
// settings, how tokenizer.json gives them, how it is applied), read by the
// registry (cpp/src/text/tokenizer_json/registry_*.cpp); a Sequence is not a
// stage here but the list itself: its reader splices its stages into the
// list around it, so every list is run by a loop and none by recursion,
// however long or deep the file's Sequences are (pipeline.cpp).
//
// Text that a stage makes longer is counted against a TextBudget before it
// is written: a stage that lengthens text computes what it would write
// (or how much it may) first and refuses, rather than allocates, past the
// budget; Growth states, at load time, the most it can lengthen a text.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "embeddings/text/regex/regex.h"

// Code run once per load or per call, off encode()'s path (readers,
// builders, lookups): compiled for size wherever it is, so that the page's
// module (whose budget is its size) and the full one share one source.
#if defined(__clang__)
#define EMBEDDINGS_SMALL [[clang::minsize]]
#else
#define EMBEDDINGS_SMALL
#endif

// Code that runs only while offsets are kept (Tokenizer::EncodeOptions::
// offsets): compiled for size, and never inlined into the paths that call
// it, which run without offsets too (and must stay as fast, and the page's
// module as small).
#if defined(__clang__)
#define EMBEDDINGS_OFFSETS [[clang::minsize]] __attribute__((noinline))
#else
#define EMBEDDINGS_OFFSETS __attribute__((noinline))
#endif

namespace embeddings {

// Whether this build has the general offsets code: offsets carried through
// the stages (Alignment, below), and trimmed by the post-processors that say
// so (trim_offsets). The chapter's module gives offsets only for a tokenizer
// whose tokens' bytes are the text's, one after the other, untrimmed
// (Tokenizer's offsets by bytes), and leaves the rest out, as it does the
// piece cache; its loader refuses other files by name, and the package then
// reads them with the full module.
#if EMBEDDINGS_CHAPTER_MODULE
inline constexpr bool kGeneralOffsets = false;
#else
inline constexpr bool kGeneralOffsets = true;
#endif

inline constexpr std::size_t kNoLimit = std::numeric_limits<std::size_t>::max();

// A bound on a stage's output length, known when it is loaded: at most
// times × (input bytes) + plus bytes. Saturating: a bound past 2^62 is "no bound".
struct Growth {
  static constexpr std::uint64_t kUnbounded = std::uint64_t{1} << 62;
  std::uint64_t times = 1, plus = 0;

  std::uint64_t of(std::uint64_t bytes) const;
  // This stage, then `next`.
  Growth then(Growth next) const;
  bool operator==(const Growth& other) const { return times == other.times && plus == other.plus; }
};

// The bytes of text one call may still write (normalized text, rewritten
// pieces, decoded tokens). A stage asks before it writes; once refused, the
// call ends with the reason it names.
class TextBudget {
 public:
  explicit TextBudget(std::size_t bytes = kNoLimit) : left_(bytes) {}
  // Whether `bytes` more may be written; if not, the budget is spent and
  // `refused()` says by how much the ask passed it.
  bool take(std::size_t bytes);
  // A buffer that is about to be rewritten gives its bytes back.
  void give(std::size_t bytes) { left_ = left_ > kNoLimit - bytes ? kNoLimit : left_ + bytes; }
  bool refused() const { return refused_ != 0; }
  std::size_t asked() const { return refused_; }
  std::size_t left() const { return left_; }

 private:
  std::size_t left_;
  std::size_t refused_ = 0;
};

// ---- Offsets (Tokenizer::EncodeOptions::offsets) ------------------------------

// Bytes [begin, end) of the original text: where a byte of a stage's text
// came from, as Hugging Face's NormalizedString aligns each byte of its
// normalized text with the original character(s) it stands for.
struct Span {
  std::uint32_t begin = 0, end = 0;
};

// Where the bytes of a text that a stage is given came from: `spans`, one
// per byte from `begin` on; or, with no spans, the text is the original's
// own bytes, each standing for its character.
struct Alignment {
  const Span* spans = nullptr;  // One per byte of the text...
  std::uint32_t origin = 0;     // ...or, without them, where the text starts in the original.
};
// The alignment of the part of a text that starts `offset` bytes into it.
inline Alignment shifted(Alignment alignment, std::size_t offset) {
  if (alignment.spans != nullptr) {
    alignment.spans += offset;
  } else {
    alignment.origin += static_cast<std::uint32_t>(offset);
  }
  return alignment;
}
// The original bytes that byte `at` of `text` (aligned as `alignment`)
// stands for: with no spans, its whole character (a byte that is not UTF-8
// is one of its own), as a NormalizedString made of the text aligns it.
Span byte_span(std::string_view text, const Alignment& alignment, std::size_t at);
// Those of bytes [begin, end) (begin < end): from the first's start to the last's end.
Span original_span(std::string_view text, const Alignment& alignment, std::size_t begin, std::size_t end);

// What stages share while they run: the pattern engine's stack and a spare buffer.
struct StageScratch {
  regex::Regex::Scratch regex;
  std::string spare;
};

// ---- Normalizers (cpp/src/text/normalizers/) --------------------------------------

class Normalizer {
 public:
  virtual ~Normalizer() = default;
  // `text` normalized in place. False when the budget refused what it would
  // write (`text` is then unspecified).
  virtual bool normalize(std::string& text, StageScratch& scratch, TextBudget& budget) const = 0;
  // False when the text is certainly left as it is (a cheap look, no copy).
  virtual bool may_change(std::string_view) const { return true; }
  virtual Growth growth() const { return {}; }
  // Whether every byte of the text stays as it is (for round_trips()).
  virtual bool keeps_text() const { return false; }
  // normalize(), keeping `spans` (one per byte of `text`, in and out) as
  // Hugging Face's NormalizedString keeps its alignments, so that each byte
  // of the result says which original character it came from. The default
  // is right for a normalizer that maps each character on its own (every
  // character's result takes its span); the others override it
  // (normalizers/alignment.h).
  virtual bool normalize_aligned(std::string& text, std::vector<Span>& spans, StageScratch& scratch,
                                 TextBudget& budget) const;
};
using Normalizers = std::vector<std::shared_ptr<const Normalizer>>;

// ---- Pre-tokenizers (cpp/src/text/pre_tokenizers/) --------------------------------

// Receives a stage's pieces in order.
class PieceSink {
 public:
  virtual ~PieceSink() = default;
  // `first`: the piece starts where the text the stage was given starts.
  virtual void piece(std::string_view piece, bool first) = 0;
  // A piece this long or longer is more than the caller still wants: a stage
  // that finds one may say too_many() (ByteLevel's lookahead under encode_at_most).
  virtual std::size_t enough_bytes() const { return kNoLimit; }
  virtual void too_many() { stop(); }
  bool stopped() const { return stopped_; }
  void stop() { stopped_ = true; }
  // While offsets are kept: where the bytes of the piece being handed came from.
  Alignment alignment;

 private:
  bool stopped_ = false;
};

// A stage's own buffers: the text it writes (its pieces may be views into
// it until its next call) and the offsets it cuts at.
struct PreTokenizerBuffers {
  std::string text;
  std::vector<std::size_t> cuts;
  // While offsets are kept (`tracks`), a stage that writes `text` says in
  // `sources`, for each of its bytes, which byte of the text it was given
  // that byte takes its place in the original from (as Hugging Face aligns
  // a character it inserts or replaces).
  bool tracks = false;
  std::vector<std::uint32_t> sources;
};

class PreTokenizer {
 public:
  virtual ~PreTokenizer() = default;
  // Cuts `text` into pieces for `sink`. `at_start`: the text begins the
  // input (Metaspace's prepend_scheme "first"). Pieces are views into `text`
  // or into `own.text`. Stops when the sink is stopped or the budget refuses.
  virtual void split(std::string_view text, bool at_start, PreTokenizerBuffers& own, StageScratch& scratch,
                     TextBudget& budget, PieceSink& sink) const = 0;
  virtual Growth growth() const { return {}; }
  // Whether the pieces hold every byte of the text, as it is, in order.
  virtual bool keeps_text() const { return false; }
  // Whether split() reads `at_start` (Metaspace's prepend_scheme "first"):
  // the tokenizer then finds which bytes came from the text's first
  // character from the normalizers' alignments.
  virtual bool reads_start() const { return false; }
  // Whether it maps text into GPT-2's byte alphabet (ByteLevel): the
  // vocabulary is then spelled in that alphabet, and no stage may follow it.
  virtual bool byte_level() const { return false; }
};
using PreTokenizers = std::vector<std::shared_ptr<const PreTokenizer>>;

// ---- Decoders (cpp/src/text/decoders/) -----------------------------------------

class Decoder {
 public:
  virtual ~Decoder() = default;
  // tokenizers' decode_chain: `tokens` (as the file spells them) in place.
  // False when the budget refused what it would write.
  virtual bool decode(std::vector<std::string>& tokens, StageScratch& scratch, TextBudget& budget) const = 0;
  // The most it lengthens a token.
  virtual Growth growth() const { return {}; }
  // Whether it is GPT-2's ByteLevel decoder (then a byte-level vocabulary's
  // text is its tokens' bytes, joined, without spelling them out first).
  virtual bool byte_level() const { return false; }
};
using Decoders = std::vector<std::shared_ptr<const Decoder>>;

// ---- Post-processors (cpp/src/text/post_processors/) ----------------------------

// The sequences being encoded (one, or two for a pair), as post-processors
// see them: lists of ids that they add special tokens around, in order.
// Encodings merge into one list at the end.
using Encodings = std::vector<std::vector<std::int32_t>>;

class PostProcessor {
 public:
  virtual ~PostProcessor() = default;
  // tokenizers' process_encodings. False, with `error`, where the Rust
  // library would fail or panic.
  virtual bool process(Encodings& encodings, bool add_special_tokens, std::string& error) const = 0;
  // The most ids it adds to a sequence or a pair, and every id it may add
  // (which must be in the vocabulary).
  virtual std::size_t added_ids() const { return 0; }
  virtual std::vector<std::int32_t> special_ids() const { return {}; }
  // Whether every id of the texts it is given is in what it gives back.
  virtual bool keeps_ids() const { return true; }
};
using PostProcessors = std::vector<std::shared_ptr<const PostProcessor>>;

// ---- Running the lists ---------------------------------------------------------

// Each normalizer in turn. False when the budget refused a stage.
bool run_normalizers(const Normalizers& normalizers, std::string& text, StageScratch& scratch,
                     TextBudget& budget);

// The buffers of the pre-tokenizers' levels, kept from call to call.
struct PreTokenizeScratch {
  struct Part {
    std::string_view text;
    bool first;  // It starts the text.
  };
  struct Level {
    PreTokenizerBuffers own;  // The stage's.
    std::vector<Part> parts;  // The pieces it made of one piece of the level before...
    std::size_t next = 0;     // ...and which goes on next.
    // While offsets are kept: the text the stage split and its alignment,
    // and the spans of a piece of own.text, the one going on now.
    std::string_view input;
    Alignment alignment;
    std::vector<Span> spans;
  };
  std::vector<Level> levels;
};
// Each pre-tokenizer on every piece the one before made (depth first, without
// recursion); the last one's pieces go to `sink`, in order. No stages: the
// text is one piece. Stops when the sink stops or the budget refuses. With
// `at_start`, a piece of the text that starts in its first `first_bytes`
// bytes (what came from the original text's first character) starts it.
void run_pre_tokenizers(const PreTokenizers& stages, std::string_view text, bool at_start,
                        PreTokenizeScratch& levels, StageScratch& scratch, TextBudget& budget,
                        PieceSink& sink, std::size_t first_bytes = 1);

// The same, keeping offsets: `alignment` is the text's, and each piece's goes
// to the sink in sink.alignment. False where a stage made a piece whose
// bytes cannot be traced back (none does).
bool run_pre_tokenizers_aligned(const PreTokenizers& stages, std::string_view text, bool at_start,
                                const Alignment& alignment, PreTokenizeScratch& levels, StageScratch& scratch,
                                TextBudget& budget, PieceSink& sink, std::size_t first_bytes = 1);
// One stage so, its buffers and the text's alignment in `level`.
bool split_aligned(const PreTokenizer& stage, std::string_view text, bool at_start,
                   const Alignment& alignment, PreTokenizeScratch::Level& level, StageScratch& scratch,
                   TextBudget& budget, PieceSink& sink);
// Each normalizer's normalize_aligned() in turn.
bool run_normalizers_aligned(const Normalizers& normalizers, std::string& text, std::vector<Span>& spans,
                             StageScratch& scratch, TextBudget& budget);

// Each decoder in turn (tokenizers' decode_chain), then the caller joins the tokens.
bool run_decoders(const Decoders& decoders, std::vector<std::string>& tokens, StageScratch& scratch,
                  TextBudget& budget);

// Each post-processor in turn; false with `error` where the Rust library fails.
bool run_post_processors(const PostProcessors& processors, Encodings& encodings, bool add_special_tokens,
                         std::string& error);

// The two general paths, which only the full module's registry links (the
// chapter's tokenizer needs neither: its ids are its pieces', its text its
// tokens' bytes).
//
// Ids to text when the tokens are not simply their bytes joined (a decoder
// other than ByteLevel, a vocabulary spelled as text, added tokens decoded
// as normalized): `tokens`, as the file spells them, through the decoders
// and joined; with no decoder (`has_decoder` false), joined with spaces, as
// Hugging Face's decode does then.
bool decode_tokens(const Decoders& decoders, bool has_decoder, std::vector<std::string>& tokens,
                   std::size_t max_added_bytes, std::string& text, std::string& error);

// How a text (or a pair) is encoded.
class SequenceEncoder {
 public:
  virtual ~SequenceEncoder() = default;
  // Appends the ids of `text`; false when encoding stopped (refused, or over the limit).
  virtual bool encode(std::string_view text, std::vector<std::int32_t>& ids) = 0;
};
// The text's and the pair's ids by `encoder`, through the post-processors,
// merged into `ids`. False, with `error`, where a post-processor fails; also
// false, with no error, where the encoder stopped.
bool process_encodings(const PostProcessors& processors, SequenceEncoder& encoder, std::string_view text,
                       const std::string_view* pair, bool add_special_tokens, std::vector<std::int32_t>& ids,
                       std::string& error);

// One stage's components from their JSON, as tokenizer.json gives it at
// "normalizer", "pre_tokenizer", "decoder" or "post_processor", through the
// registry this build links (the tests read components one at a time so).
bool read_normalizers(std::string_view json_text, Normalizers& out, std::string& error);
bool read_pre_tokenizers(std::string_view json_text, PreTokenizers& out, std::string& error);
bool read_decoders(std::string_view json_text, Decoders& out, std::string& error);
bool read_post_processors(std::string_view json_text, PostProcessors& out, std::string& error);

// The growth of a list: each stage's in turn.
template <typename List>
Growth growth_of(const List& stages) {
  Growth growth;
  for (const auto& stage : stages) growth = growth.then(stage->growth());
  return growth;
}

}  // namespace embeddings
