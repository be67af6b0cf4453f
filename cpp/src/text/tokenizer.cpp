// The pipeline: text through the added tokens, the normalizer, the
// pre-tokenizer and the model; ids back through the decoder; the book's
// lookups by id and by display form. Loading is tokenizer_json.cpp.
#include "embeddings/text/tokenizer.h"

#include <algorithm>

#include "embeddings/common/utf8.h"
#include "embeddings/text/byte_level.h"
#include "embeddings/text/display/token_display.h"
#include "embeddings/text/pretokenizer.h"
#include "embeddings/text/unicode/normalize.h"
#include "pipeline_stages.h"

namespace embeddings {
namespace {

constexpr std::size_t kNoLimit = static_cast<std::size_t>(-1);
// The merge indexes a piece's symbols with int32, so a longer piece (no real
// text has one) is encoded in parts of this many bytes.
constexpr std::size_t kMaxPieceBytes = std::size_t{1} << 30;

}  // namespace

// Reused buffers for encoding, so a long text does not allocate per piece.
struct Tokenizer::Scratch {
  bpe::MergeWorkspace merge;
  regex::Regex::Scratch regex;
  std::string normalized;  // the normalizer's output, when it changes the text
  std::string spare;       // a normalizer's second buffer
  // Where the raw text begins, and whether the gap being encoded starts it
  // (Metaspace's prepend_scheme "first").
  const char* text_begin = nullptr;
  bool gap_at_start = false;
  // The pieces a cutting stage made, one list per stage of a Sequence.
  std::vector<std::vector<stages::Piece>> pieces;
  // ByteLevel's added space, one buffer per stage of a Sequence: a stage's
  // pieces are views into its own buffer while the later stages run.
  std::vector<std::string> prefixed;
  // encode_at_most(): stop once ids.size() passes this; `over` says it did.
  std::size_t max_tokens = kNoLimit;
  bool over = false;
  PieceCache* cache = nullptr;  // The caller's, bound to this tokenizer.
};

// Receives what one pass of the added tokens leaves (added_tokens.h): a gap
// of the raw pass is normalized and cut again by the normalized pass; a gap
// of that pass goes on to the pre-tokenizer and the model. Tokens go
// straight to the ids.
class Tokenizer::Splitter : public AddedTokenSink {
 public:
  Splitter(const Tokenizer& tokenizer, AddedVocabulary::Pass pass, Scratch& scratch,
           std::vector<std::int32_t>& ids)
      : tokenizer_(tokenizer), pass_(pass), scratch_(scratch), ids_(ids) {}
  void gap(std::string_view text) override {
    if (pass_ == AddedVocabulary::Pass::Normalized) {
      scratch_.gap_at_start = at_start_ && text.data() == normalized_begin_;
      tokenizer_.encode_gap(text, scratch_, ids_);
      return;
    }
    Splitter normalized(tokenizer_, AddedVocabulary::Pass::Normalized, scratch_, ids_);
    normalized.at_start_ = text.data() == scratch_.text_begin;
    const std::string_view normalized_text = tokenizer_.normalize(text, scratch_);
    normalized.normalized_begin_ = normalized_text.data();
    tokenizer_.added_.split(normalized_text, AddedVocabulary::Pass::Normalized, normalized);
  }
  void token(std::int32_t id) override {
    ids_.push_back(id);
    if (ids_.size() > scratch_.max_tokens) scratch_.over = true;
  }
  bool stopped() const override { return scratch_.over; }

 private:
  const Tokenizer& tokenizer_;
  const AddedVocabulary::Pass pass_;
  Scratch& scratch_;
  std::vector<std::int32_t>& ids_;
  // Normalized pass: whether its text is the first raw gap, and where it begins.
  bool at_start_ = false;
  const char* normalized_begin_ = nullptr;
};

bool Tokenizer::is_special(std::int32_t id) const {
  const std::int32_t added = vocabulary_.added_index(id);
  return added >= 0 && added_.tokens()[added].special;
}

std::vector<std::int32_t> Tokenizer::encode(std::string_view utf8_text) const {
  std::vector<std::int32_t> ids;
  encode(utf8_text, ids);
  return ids;
}

void Tokenizer::encode(std::string_view utf8_text, std::vector<std::int32_t>& ids, PieceCache* cache) const {
  Scratch scratch;
  scratch.cache = cache;
  encode_with(utf8_text, scratch, ids);
}

bool Tokenizer::encode_at_most(std::string_view utf8_text, std::size_t max_tokens,
                               std::vector<std::int32_t>& ids, PieceCache* cache) const {
  Scratch scratch;
  scratch.cache = cache;
  scratch.max_tokens = max_tokens;
  ids.clear();
  encode_with(utf8_text, scratch, ids);
  return !scratch.over && ids.size() <= max_tokens;
}

void Tokenizer::encode_with(std::string_view utf8_text, Scratch& scratch,
                            std::vector<std::int32_t>& ids) const {
  if (scratch.cache != nullptr) scratch.cache->bind(serial_);
  Splitter raw(*this, AddedVocabulary::Pass::Raw, scratch, ids);
  scratch.text_begin = utf8_text.data();
  added_.split(utf8_text, AddedVocabulary::Pass::Raw, raw);
}

// A normalizer that changes the text will write it into `scratch` and
// return a view of that.
std::string_view Tokenizer::normalize(std::string_view text, [[maybe_unused]] Scratch& scratch) const {
#if EMBEDDINGS_CRITICAL_MODULE
  return text;  // (Without the normalizers in the build, the reader refuses them.)
#else
  if (!stages::may_change(normalizer_, text)) return text;
  scratch.normalized.assign(text);
  stages::normalize(normalizer_, scratch.normalized, scratch.spare, scratch.regex);
  return scratch.normalized;
#endif
}

// One gap between added tokens, normalized: pre-tokenizer, then model.
void Tokenizer::encode_gap(std::string_view gap, Scratch& scratch, std::vector<std::int32_t>& ids) const {
  const bool sequence = pre_tokenizer_.kind == PreTokenizer::Kind::Sequence;
  const PreTokenizer* steps = sequence ? pre_tokenizer_.steps.data() : &pre_tokenizer_;
  const std::size_t count = sequence ? pre_tokenizer_.steps.size() : 1;
  // Each stage's buffers, made before any is used: the pieces are views into them.
  if (scratch.prefixed.size() < count) scratch.prefixed.resize(count);
  if (scratch.pieces.size() < count) scratch.pieces.resize(count);
  pre_tokenize(steps, count, gap, 0, scratch.gap_at_start, scratch, ids);
}

// Runs the first of `count` stages on `piece` and the rest on each piece it
// makes; after the last stage, the model.
void Tokenizer::pre_tokenize(const PreTokenizer* steps, std::size_t count, std::string_view piece,
                             std::size_t depth, bool at_start, Scratch& scratch,
                             std::vector<std::int32_t>& ids) const {
  if (piece.empty() || scratch.over) return;
  if (count == 0) {
    encode_piece(piece, scratch, ids);
    return;
  }
  const PreTokenizer& step = *steps;
  // `first`: the part starts where the piece does (so the text, if the piece does).
  const auto next = [&](std::string_view part, bool first) {
    if (!scratch.over) pre_tokenize(steps + 1, count - 1, part, depth + 1, at_start && first, scratch, ids);
  };
  // A stage that cuts: each of its pieces on to the next stage.
  [[maybe_unused]] const auto cut = [&](std::string_view text) {
#if !EMBEDDINGS_CRITICAL_MODULE
    std::vector<stages::Piece>& pieces = scratch.pieces[depth];
    stages::cut(step, text, scratch.regex, pieces);
    for (const stages::Piece& part : pieces)
      next(text.substr(part.begin, part.end - part.begin), part.begin == 0);
#endif
  };
  switch (step.kind) {
    case PreTokenizer::Kind::ByteLevel: {
      std::string_view text = piece;
      if (step.add_prefix_space && piece[0] != ' ') {
        std::string& prefixed = scratch.prefixed[depth];
        prefixed.assign(1, ' ');
        prefixed.append(piece);
        text = prefixed;
      }
      if (!step.use_regex) {
        next(text, true);
        return;
      }
      std::size_t pos = 0;
      while (pos < text.size() && !scratch.over) {
        const std::size_t length = bounded_pretoken_length(text, pos, scratch, ids.size());
        if (scratch.over) return;
        next(text.substr(pos, length), pos == 0);
        pos += length;
      }
      return;
    }
    case PreTokenizer::Kind::None: next(piece, true); return;
    case PreTokenizer::Kind::Metaspace:
#if !EMBEDDINGS_CRITICAL_MODULE
    {
      std::string& rewritten = scratch.prefixed[depth];
      stages::metaspace_rewrite(step, piece, at_start, rewritten);
      if (step.split) {
        cut(rewritten);
      } else {
        next(rewritten, true);
      }
    }
#endif
      return;
    case PreTokenizer::Kind::Split:
    case PreTokenizer::Kind::Whitespace:
    case PreTokenizer::Kind::WhitespaceSplit:
    case PreTokenizer::Kind::Digits:
    case PreTokenizer::Kind::Punctuation:
      cut(piece);
      return;  // (Without them in the build, the reader refuses them.)
    case PreTokenizer::Kind::Sequence:
      // Not a stage here: the reader splices a Sequence's stages into the
      // Sequence around it, and encode_gap() runs the outermost one's.
      return;
  }
}

// pretoken_length(), but under encode_at_most() it does not scan a piece
// further than it needs to: a piece of `enough` bytes has more tokens than
// are still allowed, so when the piece starting at `pos` is that long the
// text is too long, whatever follows. The piece is found in a view cut
// `enough + 32` bytes on. It is the same piece as in the whole text when it
// ends 16 bytes or more before the cut: every decision pretoken_length()
// makes looks at most one character (4 bytes) past the piece. Otherwise the
// whole text's piece is at most 4 bytes shorter (a character the cut split),
// so still longer than `enough`.
std::size_t Tokenizer::bounded_pretoken_length(std::string_view text, std::size_t pos, Scratch& scratch,
                                               std::size_t ids_so_far) const {
  const std::size_t longest = vocabulary_.max_bytes();
  if (scratch.max_tokens == kNoLimit || !model_.every_byte_has_a_token() || longest == 0)
    return pretoken_length(text, pos);
  const std::size_t allowed = scratch.max_tokens - ids_so_far;  // ids_so_far <= max_tokens while not over
  if (allowed + 1 > (kNoLimit - 64) / longest) return pretoken_length(text, pos);
  const std::size_t enough = (allowed + 1) * longest;
  const std::size_t view = enough + 32;
  if (text.size() - pos <= view) return pretoken_length(text, pos);
  const std::size_t length = pretoken_length(text.substr(0, pos + view), pos);
  if (length + 16 > view) scratch.over = true;
  return length;
}

void Tokenizer::encode_piece(std::string_view piece, Scratch& scratch, std::vector<std::int32_t>& ids) const {
  if (piece.empty() || scratch.over) return;
  const std::size_t longest = vocabulary_.max_bytes();
  if (scratch.max_tokens != kNoLimit && model_.every_byte_has_a_token() && longest > 0) {
    // Each token of the piece covers at most `longest` of its bytes.
    const std::size_t at_least = (piece.size() + longest - 1) / longest;
    if (at_least > scratch.max_tokens || ids.size() > scratch.max_tokens - at_least) {
      scratch.over = true;
      return;
    }
  }
#if !EMBEDDINGS_CRITICAL_MODULE
  // (The chapter's module leaves the cache out, for its size: its model's
  // 4,096 tokens merge quickly.)
  PieceCache* const cache = scratch.cache;
  if (cache != nullptr && piece.size() <= PieceCache::kMaxPieceBytes) {
    if (!cache->find(piece, ids)) {
      const std::size_t before = ids.size();
      model_.encode_piece(piece, vocabulary_, scratch.merge, ids);
      cache->store(piece, ids.data() + before, ids.size() - before);
    }
    if (ids.size() > scratch.max_tokens) scratch.over = true;
    return;
  }
#endif
  for (std::size_t pos = 0; pos < piece.size(); pos += kMaxPieceBytes)
    model_.encode_piece(piece.substr(pos, kMaxPieceBytes), vocabulary_, scratch.merge, ids);
  if (ids.size() > scratch.max_tokens) scratch.over = true;
}

bool Tokenizer::join_bytes(const std::int32_t* ids, std::size_t count, std::string& bytes,
                           std::string& error) const {
  bytes.clear();
  if (count > 0 && ids == nullptr) {
    error = "decode: ids is null but count is " + std::to_string(count);
    return false;
  }
  std::string_view token;
  for (std::size_t i = 0; i < count; ++i) {
    if (!vocabulary_.bytes(ids[i], token)) {
      bytes.clear();
      error = "decode: id " + std::to_string(ids[i]) + " at position " + std::to_string(i) +
              " is not in the vocabulary (vocab_size " + std::to_string(vocab_size()) + ")";
      return false;
    }
    bytes += token;
  }
  return true;
}

bool Tokenizer::decode_bytes(const std::int32_t* ids, std::size_t count, std::string& bytes,
                             std::string& error) const {
  return join_bytes(ids, count, bytes, error);
}

std::string Tokenizer::token_string(std::int32_t id) const {
  const std::int32_t added = vocabulary_.added_index(id);
  if (added >= 0) return added_.tokens()[added].content;
  std::string_view bytes;
  vocabulary_.bytes(id, bytes);
  if (!byte_level_vocabulary_) return std::string(bytes);
  std::string spelled;
  byte_level::append_encoded(spelled, bytes);
  return spelled;
}

bool Tokenizer::decode(const std::int32_t* ids, std::size_t count, std::string& text,
                       std::string& error) const {
  std::string bytes;
  text.clear();
  if (!join_bytes(ids, count, bytes, error)) return false;
  // A byte-level vocabulary with a ByteLevel decoder (or none): the tokens'
  // bytes are what the decoder would make of their spelling.
  if (byte_level_vocabulary_ &&
      (decoder_.kind == Decoder::Kind::ByteLevel || decoder_.kind == Decoder::Kind::None)) {
    byte_level::append_utf8_lossy(text, bytes);
    return true;
  }
#if EMBEDDINGS_CRITICAL_MODULE
  return false;  // (There the reader refuses other vocabularies and decoders.)
#else
  std::vector<std::string> tokens;
  tokens.reserve(count);
  for (std::size_t i = 0; i < count; ++i) tokens.push_back(token_string(ids[i]));
  if (decoder_.kind == Decoder::Kind::None) {
    // As tokenizers does without a decoder: the tokens joined with spaces.
    for (std::size_t i = 0; i < tokens.size(); ++i) text.append(i == 0 ? "" : " ").append(tokens[i]);
    return true;
  }
  stages::decode_chain(decoder_, tokens);
  for (const std::string& token : tokens) text += token;
  return true;
#endif
}

bool Tokenizer::round_trips() const {
  if (!byte_level_vocabulary_ || !model_.encodes_every_byte_as_itself() || !added_.empty() ||
      normalizer_.kind != Normalizer::Kind::None) {
    return false;
  }
  const bool sequence = pre_tokenizer_.kind == PreTokenizer::Kind::Sequence;
  const PreTokenizer* steps = sequence ? pre_tokenizer_.steps.data() : &pre_tokenizer_;
  const std::size_t count = sequence ? pre_tokenizer_.steps.size() : 1;
  return std::all_of(steps, steps + count, [](const PreTokenizer& step) {
    using Kind = PreTokenizer::Kind;
    switch (step.kind) {
      case Kind::ByteLevel: return !step.add_prefix_space;
      case Kind::Split:
      case Kind::Punctuation: return step.behavior != PreTokenizer::Behavior::Removed;
      case Kind::Digits:
      case Kind::None: return true;
      default: return false;  // Metaspace rewrites spaces; the Whitespace kinds drop them.
    }
  });
}

std::string Tokenizer::token_bytes(std::int32_t id) const {
  std::string_view bytes;
  return vocabulary_.bytes(id, bytes) ? std::string(bytes) : std::string();
}

std::string Tokenizer::token_display(std::int32_t id) const {
  std::string_view bytes;
  if (!vocabulary_.bytes(id, bytes)) return std::string();
  const std::int32_t added = vocabulary_.added_index(id);
  if (added >= 0) return added_.tokens()[added].content;
  return display::from_bytes(bytes);
}

std::int32_t Tokenizer::token_id(std::string_view text) const {
  if (text.empty()) return -1;
  const std::int32_t by_display = vocabulary_.find(display::to_bytes(text));
  if (by_display >= 0) return by_display;
  for (const AddedToken& token : added_.tokens()) {
    if (token.content == text) return token.id;
  }
  return vocabulary_.find(text);
}

}  // namespace embeddings
