// The pipeline: text through the added tokens, the normalizers, the
// pre-tokenizers, the model and the post-processors; ids back through the
// decoders; the book's lookups by id and by display form. Loading is
// tokenizer_json/.
#include "embeddings/text/tokenizer.h"

#include <algorithm>

#include "embeddings/common/message.h"
#include "embeddings/common/utf8.h"
#include "embeddings/text/byte_level.h"
#include "embeddings/text/display/token_display.h"
#include "tokenizer_internal.h"

namespace embeddings {
namespace {

// A piece longer than this (no real text has one) is encoded in parts of
// this many bytes: the merge indexes a piece's symbols with int32.
constexpr std::size_t kMaxPieceBytes = std::size_t{1} << 30;

}  // namespace

// Receives what one pass of the added tokens leaves (added_tokens.h): a gap
// of the raw pass is normalized and cut again by the normalized pass; a gap
// of that pass goes on to the pre-tokenizers and the model. Tokens go
// straight to the ids.
class Tokenizer::Splitter : public AddedTokenSink {
 public:
  Splitter(const Tokenizer& tokenizer, AddedVocabulary::Pass pass, Scratch& scratch,
           std::vector<std::int32_t>& ids)
      : tokenizer_(tokenizer), pass_(pass), scratch_(scratch), ids_(ids) {}
  void gap(std::string_view text) override {
    if (pass_ == AddedVocabulary::Pass::Normalized) {
      // The bytes of this gap that came from the text's first character (first_bytes, counted in the
      // normalized text this pass cuts): a gap after a token the normalizers put there may start in them.
      const auto offset = static_cast<std::size_t>(text.data() - normalized_begin_);
      const std::size_t first =
          at_start_ && offset < scratch_.first_bytes ? scratch_.first_bytes - offset : 0;
      tokenizer_.encode_gap(text, first, scratch_, ids_);
      return;
    }
    Splitter normalized(tokenizer_, AddedVocabulary::Pass::Normalized, scratch_, ids_);
    normalized.at_start_ = text.data() == scratch_.text_begin;
    const std::string_view normalized_text = kGeneralOffsets && scratch_.offsets != nullptr
                                                 ? tokenizer_.normalize_aligned(text, scratch_, scratch_.gap)
                                                 : tokenizer_.normalize_gap(text, scratch_);
    if (scratch_.budget.refused()) return;
    normalized.normalized_begin_ = normalized_text.data();
    if (kGeneralOffsets) scratch_.gap_begin = normalized_text.data();
    tokenizer_.added_.split(normalized_text, AddedVocabulary::Pass::Normalized, normalized);
  }
  void token(std::int32_t id, std::string_view matched) override {
    if (kGeneralOffsets && scratch_.offsets != nullptr) record(id, matched);
    ids_.push_back(id);
    if (scratch_.stops_early && scratch_.before + ids_.size() > scratch_.max_tokens) scratch_.over = true;
  }
  bool stopped() const override { return scratch_.over || scratch_.failed || scratch_.budget.refused(); }

 private:
  // The raw pass cuts the text itself; the normalized pass its gap's normalized text.
  EMBEDDINGS_OFFSETS void record(std::int32_t id, std::string_view matched) {
    const Alignment alignment =
        pass_ == AddedVocabulary::Pass::Raw
            ? Alignment{nullptr, static_cast<std::uint32_t>(matched.data() - scratch_.text.data())}
            : shifted(scratch_.gap, static_cast<std::size_t>(matched.data() - scratch_.gap_begin));
    tokenizer_.record_added(id, matched, alignment, scratch_);
  }

  const Tokenizer& tokenizer_;
  const AddedVocabulary::Pass pass_;
  Scratch& scratch_;
  std::vector<std::int32_t>& ids_;
  // Normalized pass: whether its text is the first raw gap's, and where it begins.
  bool at_start_ = false;
  const char* normalized_begin_ = nullptr;
};

// The last pre-tokenizer's pieces, through the model (and the caller's cache).
class Tokenizer::ToModel : public PieceSink {
 public:
  ToModel(const Tokenizer& tokenizer, Scratch& scratch, std::vector<std::int32_t>& ids)
      : tokenizer_(tokenizer), scratch_(scratch), ids_(ids) {}

  void piece(std::string_view piece, bool) override {
    if (piece.empty()) return;
    if (provably_over(piece.size())) return;
    PieceCache* const cache = scratch_.cache;  // (None while offsets are kept.)
    if (cache != nullptr && piece.size() <= PieceCache::kMaxPieceBytes) {
      if (!tokenizer_.encode_cached(piece, *cache, scratch_.model, ids_)) return refused();
    } else {
      if (kGeneralOffsets) whole_ = piece;
      for (std::size_t pos = 0; pos < piece.size(); pos += kMaxPieceBytes) {
        if (!model(piece.substr(pos, kMaxPieceBytes))) return;
      }
    }
    if (scratch_.stops_early && scratch_.before + ids_.size() > scratch_.max_tokens) {
      scratch_.over = true;
      stop();
    }
  }
  void too_many() override {
    scratch_.over = true;
    stop();
  }
  // A piece this long has more tokens than are still allowed: every byte has
  // a token and no token covers more than max_token_bytes() of them.
  std::size_t enough_bytes() const override {
    const std::size_t longest = tokenizer_.vocabulary_.max_bytes();
    if (!counts_by_length() || longest == 0) return kNoLimit;
    const std::size_t allowed = scratch_.max_tokens - scratch_.before - ids_.size();
    if (allowed + 1 > (kNoLimit - 64) / longest) return kNoLimit;
    return (allowed + 1) * longest;
  }

 private:
  bool counts_by_length() const {
    return scratch_.stops_early && scratch_.max_tokens != kNoLimit &&
           tokenizer_.model_->every_byte_has_a_token() &&
           scratch_.before + ids_.size() <= scratch_.max_tokens;
  }
  bool provably_over(std::size_t bytes) {
    const std::size_t longest = tokenizer_.vocabulary_.max_bytes();
    if (!counts_by_length() || longest == 0) return false;
    const std::size_t at_least = (bytes + longest - 1) / longest;
    if (at_least <= scratch_.max_tokens - scratch_.before - ids_.size()) return false;
    scratch_.over = true;
    stop();
    return true;
  }
  bool model(std::string_view piece) {
    const std::size_t first = ids_.size();
    if (kGeneralOffsets && scratch_.offsets != nullptr) scratch_.token_spans.clear();
    if (!tokenizer_.model_->encode_piece(piece, tokenizer_.vocabulary_, scratch_.model, ids_)) {
      refused();
      return false;
    }
    if (kGeneralOffsets && scratch_.offsets != nullptr) record(piece, first);
    return true;
  }
  EMBEDDINGS_OFFSETS void record(std::string_view piece, std::size_t first) {
    const Alignment at = shifted(alignment, static_cast<std::size_t>(piece.data() - whole_.data()));
    tokenizer_.record_piece(piece, at, ids_.data() + first, ids_.size() - first, scratch_);
  }
  void refused() {
    scratch_.failed = true;
    stop();
  }

  const Tokenizer& tokenizer_;
  Scratch& scratch_;
  std::vector<std::int32_t>& ids_;
  std::string_view whole_;  // The piece whose parts model() encodes.
};

// As Hugging Face's decode skips them: by the token's text, looked up among
// the special tokens' contents. A special token that normalization changes
// is decoded as its normalized content, which is not one of them, so the
// Rust library keeps it, and so does this.
EMBEDDINGS_SMALL bool Tokenizer::is_special(std::int32_t id) const {
  const std::int32_t added = vocabulary_.added_index(id);
  if (added < 0) return false;
  const AddedToken& token = added_.tokens()[added];
  return token.special && token.normalized_content.empty();
}

EMBEDDINGS_SMALL Tokenizer::Encoded Tokenizer::encode(std::string_view utf8_text,
                                                      const EncodeOptions& options,
                                                      std::vector<std::int32_t>& ids,
                                                      std::string& error) const {
  Scratch scratch;
  scratch.cache = options.offsets != nullptr ? nullptr : options.cache;
  scratch.max_tokens = options.max_tokens;
  scratch.budget = TextBudget(options.max_added_bytes);
  scratch.stops_early = post_processors_keep_ids_;
  if (scratch.cache != nullptr) scratch.cache->bind(serial_);
  ids.clear();
  std::string problem;  // A post-processor's.
  if (options.offsets != nullptr) {
    options.offsets->clear();
    if (kGeneralOffsets) keep_offsets(utf8_text, options, scratch, problem);
  }
  std::size_t first_ids = 0;  // The text's, before the pair's.
  if (!problem.empty()) {
    // (Refused below.)
  } else if (post_processors_.empty()) {
    // The texts' ids in turn, as Hugging Face's post-processing does without post-processors.
    encode_sequence(utf8_text, scratch, ids);
    first_ids = ids.size();
    scratch.sequence = 1;
    if (options.pair != nullptr) encode_sequence(*options.pair, scratch, ids);
  } else {
    encode_processed(utf8_text, options, scratch, ids, problem);
  }
  if (options.offsets != nullptr && offsets_by_bytes_ && problem.empty())
    record_by_bytes(utf8_text, options, ids, first_ids);
  if (kGeneralOffsets && scratch.untraced)
    problem = "a pre-tokenizer made a piece whose offsets are not known";
  if (scratch.failed || scratch.budget.refused() || !problem.empty()) {
    ids.clear();
    error = scratch.failed ? scratch.model.error
            : scratch.budget.refused()
                ? "a stage would make the text " + mebibytes(scratch.budget.asked()) +
                      " longer, more than the " + mebibytes(options.max_added_bytes) + " there is memory for"
                : problem;
    return Encoded::Refused;
  }
  if (scratch.over) return Encoded::TooManyTokens;
  return ids.size() > options.max_tokens ? Encoded::TooManyTokens : Encoded::Ok;
}

EMBEDDINGS_SMALL std::vector<std::int32_t> Tokenizer::encode(std::string_view utf8_text) const {
  std::vector<std::int32_t> ids;
  encode(utf8_text, ids);
  return ids;
}

EMBEDDINGS_SMALL void Tokenizer::encode(std::string_view utf8_text, std::vector<std::int32_t>& ids,
                                        PieceCache* cache) const {
  EncodeOptions options;
  options.cache = cache;
  std::vector<std::int32_t> encoded;
  std::string error;
  if (encode(utf8_text, options, encoded, error) == Encoded::Ok)
    ids.insert(ids.end(), encoded.begin(), encoded.end());
}

EMBEDDINGS_SMALL bool Tokenizer::encode_at_most(std::string_view utf8_text, std::size_t max_tokens,
                                                std::vector<std::int32_t>& ids, PieceCache* cache) const {
  EncodeOptions options;
  options.cache = cache;
  options.max_tokens = max_tokens;
  std::string error;
  const Encoded result = encode(utf8_text, options, ids, error);
  if (result == Encoded::Refused) ids.clear();
  return result != Encoded::TooManyTokens;
}

EMBEDDINGS_SMALL void Tokenizer::encode_sequence(std::string_view text, Scratch& scratch,
                                                 std::vector<std::int32_t>& ids) const {
  Splitter raw(*this, AddedVocabulary::Pass::Raw, scratch, ids);
  scratch.text_begin = text.data();
  if (kGeneralOffsets && scratch.offsets != nullptr) {
    scratch.text = text;
    scratch.sequence_start = scratch.offsets->size();
  }
  added_.split(text, AddedVocabulary::Pass::Raw, raw);
}

// One gap between added tokens, normalized: the pre-tokenizers, then the
// model. Its first `first_bytes` bytes came from the text's first character
// (none: the gap does not start the text).
void Tokenizer::encode_gap(std::string_view gap, std::size_t first_bytes, Scratch& scratch,
                           std::vector<std::int32_t>& ids) const {
  ToModel to_model(*this, scratch, ids);
  if (kGeneralOffsets && scratch.offsets != nullptr)
    return encode_gap_aligned(gap, first_bytes, scratch, to_model);
  if (pre_tokenizers_.size() > 1) return pre_tokenize_levels(gap, first_bytes, scratch, to_model);
  if (pre_tokenizers_.empty()) return to_model.piece(gap, first_bytes > 0);
  pre_tokenizers_[0]->split(gap, first_bytes > 0, scratch.own, scratch.stage, scratch.budget, to_model);
}

// The same keeping offsets: each piece with its alignment.
EMBEDDINGS_OFFSETS void Tokenizer::encode_gap_aligned(std::string_view gap, std::size_t first_bytes,
                                                      Scratch& scratch, PieceSink& to_model) const {
  const bool at_start = first_bytes > 0;
  const Alignment alignment = shifted(scratch.gap, static_cast<std::size_t>(gap.data() - scratch.gap_begin));
  to_model.alignment = alignment;
  if (pre_tokenizers_.empty()) return to_model.piece(gap, at_start);
  if (scratch.levels.levels.empty()) scratch.levels.levels.resize(1);
  const bool traced = pre_tokenizers_.size() > 1
                          ? pre_tokenize_aligned(gap, first_bytes, alignment, scratch, to_model)
                          : split_aligned(*pre_tokenizers_[0], gap, at_start, alignment,
                                          scratch.levels.levels[0], scratch.stage, scratch.budget, to_model);
  scratch.untraced = scratch.untraced || !traced;
}

EMBEDDINGS_SMALL std::uint64_t Tokenizer::most_text_bytes(std::uint64_t bytes) const {
  return growth_of(normalizers_).then(growth_of(pre_tokenizers_)).of(bytes);
}

EMBEDDINGS_SMALL std::string Tokenizer::not_in_vocabulary(std::int32_t id, std::size_t position) const {
  return "decode: id " + std::to_string(id) + " at position " + std::to_string(position) +
         " is not in the vocabulary (vocab_size " + std::to_string(vocab_size()) + ")";
}

EMBEDDINGS_SMALL bool Tokenizer::decode_memory(const std::int32_t* ids, std::size_t count,
                                               bool skip_special_tokens, std::uint64_t& base,
                                               std::uint64_t& most, std::string& error) const {
  // The tokens' bytes joined, and their spelling as the decoders read it
  // (twice the bytes at most in GPT-2's byte alphabet; an added token's form).
  std::uint64_t joined = 0, spelled = 0;
  std::string_view token;
  for (std::size_t i = 0; i < count; ++i) {
    if (!vocabulary_.bytes(ids[i], token)) {
      error = not_in_vocabulary(ids[i], i);
      return false;
    }
    if (skip_special_tokens && is_special(ids[i])) continue;
    joined += token.size();
    const std::int32_t added = vocabulary_.added_index(ids[i]);
    spelled += added >= 0 ? added_.decoded_form(static_cast<std::size_t>(added)).size()
                          : token.size() * (byte_level_vocabulary_ ? 2 : 1);
  }
  // The bytes, and their text made valid UTF-8 (at most 3 bytes a byte).
  if (decodes_as_bytes_) {
    base = most = 4 * joined;
    return true;
  }
  // The bytes, the tokens (a string each), their spelling, and the decoders'
  // output twice (the tokens rewritten, the text they are joined into, with
  // a space between tokens at most).
  const std::uint64_t kept = joined + count * (sizeof(std::string) + 16) + spelled;
  const Growth decoders = growth_of(decoders_);
  const Growth out{decoders.times, Growth{decoders.plus + 1, 0}.of(count)};
  base = kept + 2 * (spelled + count);
  most = Growth{2, kept}.of(out.of(spelled));
  return true;
}

EMBEDDINGS_SMALL bool Tokenizer::join_bytes(const std::int32_t* ids, std::size_t count, bool skip_special,
                                            std::string& bytes, std::string& error) const {
  bytes.clear();
  if (count > 0 && ids == nullptr) {
    error = "decode: ids is null but count is " + std::to_string(count);
    return false;
  }
  std::string_view token;
  for (std::size_t i = 0; i < count; ++i) {
    if (!vocabulary_.bytes(ids[i], token)) {
      bytes.clear();
      error = not_in_vocabulary(ids[i], i);
      return false;
    }
    if (!skip_special || !is_special(ids[i])) bytes += token;
  }
  return true;
}

EMBEDDINGS_SMALL bool Tokenizer::decode_bytes(const std::int32_t* ids, std::size_t count, std::string& bytes,
                                              std::string& error) const {
  return join_bytes(ids, count, false, bytes, error);
}

EMBEDDINGS_SMALL bool Tokenizer::decode(const std::int32_t* ids, std::size_t count,
                                        const DecodeOptions& options, std::string& text,
                                        std::string& error) const {
  std::string bytes;
  text.clear();
  if (!join_bytes(ids, count, options.skip_special_tokens, bytes, error)) return false;
  // A byte-level vocabulary with a ByteLevel decoder (or none): the tokens'
  // bytes are what the decoder would make of their spelling.
  if (decodes_as_bytes_) {
    byte_level::append_utf8_lossy(text, bytes);
    return true;
  }
  return decode_as_tokens(ids, count, options, text, error);
}

EMBEDDINGS_SMALL bool Tokenizer::keeps_text() const {
  const auto keeps = [](const auto& stages) {
    return std::all_of(stages.begin(), stages.end(), [](const auto& stage) { return stage->keeps_text(); });
  };
  return keeps(normalizers_) && keeps(pre_tokenizers_);
}

EMBEDDINGS_SMALL bool Tokenizer::round_trips() const {
  return byte_level_vocabulary_ && model_->encodes_every_byte_as_itself() && added_.empty() && keeps_text();
}

EMBEDDINGS_SMALL std::string Tokenizer::token_bytes(std::int32_t id) const {
  std::string_view bytes;
  return vocabulary_.bytes(id, bytes) ? std::string(bytes) : std::string();
}

EMBEDDINGS_SMALL std::string Tokenizer::token_text(std::int32_t id) const {
  std::string_view bytes;
  if (!vocabulary_.bytes(id, bytes)) return std::string();
  const std::int32_t added = vocabulary_.added_index(id);
  if (added >= 0) return added_.tokens()[added].content;
  return display::from_bytes(bytes);
}

EMBEDDINGS_SMALL std::int32_t Tokenizer::token_id(std::string_view text) const {
  if (text.empty()) return -1;
  const std::int32_t by_display = vocabulary_.find(display::to_bytes(text));
  if (by_display >= 0) return by_display;
  for (const AddedToken& token : added_.tokens()) {
    if (token.content == text) return token.id;
  }
  return vocabulary_.find(text);
}

}  // namespace embeddings
