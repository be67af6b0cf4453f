// The pipeline: text through the added tokens, the normalizer, the
// pre-tokenizer and the model; ids back through the decoder; the book's
// lookups by id and by display form. Loading is tokenizer_json.cpp.
#include "embeddings/tokenizer.h"

#include <algorithm>

#include "embeddings/byte_level.h"
#include "embeddings/normalize.h"
#include "embeddings/pretokenizer.h"
#include "embeddings/token_display.h"
#include "embeddings/utf8.h"

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
      tokenizer_.encode_gap(text, scratch_, ids_);
      return;
    }
    Splitter normalized(tokenizer_, AddedVocabulary::Pass::Normalized, scratch_, ids_);
    tokenizer_.added_.split(tokenizer_.normalize(text, scratch_), AddedVocabulary::Pass::Normalized,
                            normalized);
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
  added_.split(utf8_text, AddedVocabulary::Pass::Raw, raw);
}

// A normalizer that changes the text will write it into `scratch` and
// return a view of that.
std::string_view Tokenizer::normalize(std::string_view text, [[maybe_unused]] Scratch& scratch) const {
  switch (normalizer_.kind) {
    case Normalizer::Kind::None: return text;
    case Normalizer::Kind::NFC:
    case Normalizer::Kind::NFD:
#if !EMBEDDINGS_CRITICAL_MODULE
    {
      const normalize::Form form =
          normalizer_.kind == Normalizer::Kind::NFC ? normalize::Form::NFC : normalize::Form::NFD;
      if (normalize::is_quick_unchanged(form, text)) return text;
      normalize::apply(form, text, scratch.normalized);
      return scratch.normalized;
    }
#endif
      return text;  // (Without the normalizers in the build, the reader refuses them.)
  }
  return text;
}

#if !EMBEDDINGS_CRITICAL_MODULE
namespace {

// The pieces a Split stage makes of `text`, in order, each given to `emit`:
// the pattern's matches and the text between them, as tokenizers'
// find_matches() lists them (every byte in one of them, in order), then
// joined or dropped as the behavior says, and empty pieces left out.
template <typename Emit>
void split_pieces(const PreTokenizer& split, std::string_view text, regex::Regex::Scratch& scratch,
                  Emit&& emit) {
  using Behavior = PreTokenizer::Behavior;
  // What the behavior has not passed on yet: a piece that a later segment
  // may still join.
  std::size_t pending_begin = 0;
  std::size_t pending_end = 0;
  bool pending = false;
  bool pending_is_match = false;
  bool previous_is_match = false;
  const auto flush = [&] {
    if (pending && pending_end > pending_begin) emit(text.substr(pending_begin, pending_end - pending_begin));
    pending = false;
  };
  const auto hold = [&](std::size_t begin, std::size_t end, bool is_match) {
    flush();
    pending = true;
    pending_begin = begin;
    pending_end = end;
    pending_is_match = is_match;
  };
  const auto segment = [&](std::size_t begin, std::size_t end, bool is_match) {
    is_match = is_match != split.invert;
    switch (split.behavior) {
      case Behavior::Isolated:
        if (end > begin) emit(text.substr(begin, end - begin));
        break;
      case Behavior::Removed:
        if (!is_match && end > begin) emit(text.substr(begin, end - begin));
        break;
      case Behavior::MergedWithPrevious:
        if (is_match && !previous_is_match && pending) {
          pending_end = end;
        } else {
          hold(begin, end, is_match);
        }
        break;
      case Behavior::MergedWithNext:
        // A match joins the piece after it when that piece is not a match.
        if (pending && pending_is_match && !is_match) {
          pending_end = end;
          pending_is_match = false;  // joined: nothing more joins it
          flush();
        } else {
          hold(begin, end, is_match);
        }
        break;
      case Behavior::Contiguous:
        if (pending && is_match == previous_is_match) {
          pending_end = end;
        } else {
          hold(begin, end, is_match);
        }
        break;
    }
    previous_is_match = is_match;
  };

  std::size_t previous_end = 0;
  // Oniguruma's find_iter, as the onig crate runs it: the next search
  // starts where the last match ended, and an empty match found by a
  // search that starts right at the end of the previous match is skipped
  // (the search then starts one character on).
  std::size_t search_from = 0;
  bool matched_before = false;
  std::size_t begin = 0;
  std::size_t end = 0;
  while (search_from <= text.size() && split.pattern->search(text, search_from, begin, end, scratch)) {
    if (begin == end && matched_before && search_from == previous_end) {
      std::uint32_t code = 0;
      const std::size_t used = search_from < text.size() ? utf8::decode(text, search_from, code) : 0;
      search_from += used == 0 ? 1 : used;
      continue;
    }
    if (begin != previous_end) segment(previous_end, begin, false);
    segment(begin, end, true);
    previous_end = end;
    search_from = end;
    matched_before = true;
  }
  if (previous_end != text.size()) segment(previous_end, text.size(), false);
  flush();
}

}  // namespace
#endif

// One gap between added tokens, normalized: pre-tokenizer, then model.
void Tokenizer::encode_gap(std::string_view gap, Scratch& scratch, std::vector<std::int32_t>& ids) const {
  if (pre_tokenizer_.kind == PreTokenizer::Kind::Sequence) {
    pre_tokenize(pre_tokenizer_.steps.data(), pre_tokenizer_.steps.size(), gap, 0, scratch, ids);
  } else {
    pre_tokenize(&pre_tokenizer_, 1, gap, 0, scratch, ids);
  }
}

// Runs the first of `count` stages on `piece` and the rest on each piece it
// makes; after the last stage, the model.
void Tokenizer::pre_tokenize(const PreTokenizer* steps, std::size_t count, std::string_view piece,
                             std::size_t depth, Scratch& scratch, std::vector<std::int32_t>& ids) const {
  if (piece.empty() || scratch.over) return;
  if (count == 0) {
    encode_piece(piece, scratch, ids);
    return;
  }
  const PreTokenizer& step = *steps;
  const auto next = [&](std::string_view part) {
    if (!scratch.over) pre_tokenize(steps + 1, count - 1, part, depth + 1, scratch, ids);
  };
  switch (step.kind) {
    case PreTokenizer::Kind::ByteLevel: {
      std::string_view text = piece;
      if (step.add_prefix_space && piece[0] != ' ') {
        if (scratch.prefixed.size() <= depth) scratch.prefixed.resize(depth + 1);
        std::string& prefixed = scratch.prefixed[depth];
        prefixed.assign(1, ' ');
        prefixed.append(piece);
        text = prefixed;
      }
      if (!step.use_regex) {
        next(text);
        return;
      }
      std::size_t pos = 0;
      while (pos < text.size() && !scratch.over) {
        const std::size_t length = bounded_pretoken_length(text, pos, scratch, ids.size());
        if (scratch.over) return;
        next(text.substr(pos, length));
        pos += length;
      }
      return;
    }
    case PreTokenizer::Kind::Split:
#if !EMBEDDINGS_CRITICAL_MODULE
      split_pieces(step, piece, scratch.regex, next);
#endif
      return;  // (Without Split in the build, the reader refuses it.)
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

bool Tokenizer::decode(const std::int32_t* ids, std::size_t count, std::string& text,
                       std::string& error) const {
  std::string bytes;
  text.clear();
  switch (decoder_.kind) {
    case Decoder::Kind::None:
    case Decoder::Kind::ByteLevel:
      if (!join_bytes(ids, count, bytes, error)) return false;
      byte_level::append_utf8_lossy(text, bytes);
      return true;
  }
  return false;
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
