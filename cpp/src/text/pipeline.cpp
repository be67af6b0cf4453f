// The stages run in turn (pipeline.h): each list by a loop, and the
// pre-tokenizers depth first over an explicit list of levels, so that no
// file, however many stages its Sequences hold, makes the stack deeper.
#include "embeddings/text/pipeline.h"

#include <algorithm>
#include <functional>
#include <utility>

#include "embeddings/common/message.h"
#include "embeddings/common/utf8.h"

namespace embeddings {

namespace {

std::uint64_t times_saturated(std::uint64_t a, std::uint64_t b) {
  if (a >= Growth::kUnbounded || b >= Growth::kUnbounded) return Growth::kUnbounded;
  return a != 0 && b > Growth::kUnbounded / a ? Growth::kUnbounded : a * b;
}

std::uint64_t plus_saturated(std::uint64_t a, std::uint64_t b) {
  return a >= Growth::kUnbounded || b >= Growth::kUnbounded - a ? Growth::kUnbounded : a + b;
}

}  // namespace

EMBEDDINGS_SMALL std::uint64_t Growth::of(std::uint64_t bytes) const {
  return plus_saturated(times_saturated(times, bytes), plus);
}

// next.of(times × n + plus) = (next.times × times) × n + (next.times × plus + next.plus)
EMBEDDINGS_SMALL Growth Growth::then(Growth next) const {
  return {times_saturated(next.times, times), plus_saturated(times_saturated(next.times, plus), next.plus)};
}

bool TextBudget::take(std::size_t bytes) {
  if (bytes <= left_) {
    left_ -= bytes;
    return true;
  }
  refused_ = std::max<std::size_t>(bytes, 1);
  left_ = 0;
  return false;
}

EMBEDDINGS_OFFSETS Span byte_span(std::string_view text, const Alignment& alignment, std::size_t at) {
  if (alignment.spans != nullptr) return alignment.spans[at];
  std::size_t start = at;
  while (start > 0 && at - start < 3 && (static_cast<unsigned char>(text[start]) & 0xC0) == 0x80) --start;
  std::uint32_t code = 0;
  std::size_t length = utf8::decode(text, start, code);
  if (length == 0 || start + length <= at) {
    start = at;
    length = 1;
  }
  const std::uint32_t begin = alignment.origin + static_cast<std::uint32_t>(start);
  return {begin, begin + static_cast<std::uint32_t>(length)};
}

EMBEDDINGS_OFFSETS Span original_span(std::string_view text, const Alignment& alignment, std::size_t begin,
                                      std::size_t end) {
  return {byte_span(text, alignment, begin).begin, byte_span(text, alignment, end - 1).end};
}

bool run_normalizers(const Normalizers& normalizers, std::string& text, StageScratch& scratch,
                     TextBudget& budget) {
  for (const auto& normalizer : normalizers) {
    if (!normalizer->may_change(text)) continue;
    if (!normalizer->normalize(text, scratch, budget)) return false;
  }
  return true;
}

namespace {

// A level's pieces, kept for the stage after it.
class Collect : public PieceSink {
 public:
  explicit Collect(PreTokenizeScratch::Level& level) : level_(level) {}
  void piece(std::string_view piece, bool first) override { level_.parts.push_back({piece, first}); }

 private:
  PreTokenizeScratch::Level& level_;
};

bool within(std::string_view outer, std::string_view inner) {
  const auto o = reinterpret_cast<std::uintptr_t>(outer.data());
  const auto i = reinterpret_cast<std::uintptr_t>(inner.data());
  return i >= o && i + inner.size() <= o + outer.size();
}

// The alignment of a piece that the level's stage made of level.input: a
// view of it, or of the stage's own text, whose sources say which byte of
// the input each of its bytes takes its place from (its spans, then, into
// level.spans). False when it is neither.
EMBEDDINGS_OFFSETS bool align_piece(std::string_view piece, PreTokenizeScratch::Level& level,
                                    Alignment& out) {
  if (within(level.input, piece)) {
    out = shifted(level.alignment, static_cast<std::size_t>(piece.data() - level.input.data()));
    return true;
  }
  const PreTokenizerBuffers& own = level.own;
  if (!within(own.text, piece) || own.sources.size() != own.text.size()) return false;
  const auto at = static_cast<std::size_t>(piece.data() - own.text.data());
  level.spans.resize(piece.size());
  for (std::size_t i = 0; i < piece.size(); ++i)
    level.spans[i] = byte_span(level.input, level.alignment, own.sources[at + i]);
  out = {level.spans.data(), 0};
  return true;
}

// The last stage's pieces go straight on; the sink's stop stops them all.
// While offsets are kept (`aligned`, the stage's level), each piece's
// alignment goes with it.
class Forward : public PieceSink {
 public:
  Forward(PieceSink& to, bool at_start, PreTokenizeScratch::Level* aligned)
      : to_(to), at_start_(at_start), aligned_(aligned) {}
  void piece(std::string_view piece, bool first) override {
    if (aligned_ != nullptr && !piece.empty() && !align_piece(piece, *aligned_, to_.alignment)) {
      failed_ = true;
      stop();
      return;
    }
    to_.piece(piece, at_start_ && first);
    if (to_.stopped()) stop();
  }
  std::size_t enough_bytes() const override { return to_.enough_bytes(); }
  void too_many() override {
    to_.too_many();
    stop();
  }
  bool failed() const { return failed_; }

 private:
  PieceSink& to_;
  const bool at_start_;
  PreTokenizeScratch::Level* const aligned_;
  bool failed_ = false;
};

// The stages on `text`, depth first; with `alignment` (offsets kept), each
// level's input and its alignment are kept with it. False where a piece's
// bytes could not be traced back.
bool run_levels(const PreTokenizers& stages, std::string_view text, bool at_start, std::size_t first_bytes,
                const Alignment* alignment, PreTokenizeScratch& levels, StageScratch& scratch,
                TextBudget& budget, PieceSink& sink) {
  if (text.empty() || sink.stopped()) return true;
  const std::size_t count = stages.size();
  if (count == 0) {
    if (alignment != nullptr) sink.alignment = *alignment;
    sink.piece(text, at_start);
    return true;
  }
  if (levels.levels.size() < count) levels.levels.resize(count);
  bool traced = true;
  // Level k holds the pieces stage k made of one piece of level k - 1 (level
  // 0: of the text) and which of them goes on next; `first` there says the
  // piece starts the text: a piece of the text, by where it starts in it.
  const std::less<const char*> before;
  const auto starts_text = [&](std::string_view piece, bool first) {
    if (before(piece.data(), text.data()) || !before(piece.data(), text.data() + text.size())) return first;
    return at_start && static_cast<std::size_t>(piece.data() - text.data()) < first_bytes;
  };
  const auto run = [&](std::size_t k, std::string_view part, bool part_at_start, const Alignment& from) {
    PreTokenizeScratch::Level& level = levels.levels[k];
    level.own.tracks = alignment != nullptr;
    level.input = part;
    level.alignment = from;
    if (k + 1 == count) {
      Forward last(sink, part_at_start, alignment != nullptr ? &level : nullptr);
      stages[k]->split(part, part_at_start, level.own, scratch, budget, last);
      traced = traced && !last.failed();
      return;
    }
    level.parts.clear();
    level.next = 0;
    Collect collect(level);
    stages[k]->split(part, part_at_start, level.own, scratch, budget, collect);
    for (auto& kept : level.parts) kept.first = starts_text(kept.text, kept.first && part_at_start);
  };
  run(0, text, at_start, alignment != nullptr ? *alignment : Alignment{});
  std::size_t depth = 0;  // The deepest level with pieces still to go on.
  while (count > 1 && traced && !sink.stopped() && !budget.refused()) {
    PreTokenizeScratch::Level& level = levels.levels[depth];
    if (level.next == level.parts.size()) {
      if (depth == 0) break;
      --depth;
      continue;
    }
    const PreTokenizeScratch::Part part = level.parts[level.next++];
    if (part.text.empty()) continue;
    Alignment from;
    if (alignment != nullptr && !align_piece(part.text, level, from)) return false;
    run(depth + 1, part.text, part.first, from);
    if (depth + 2 < count) ++depth;
  }
  return traced;
}

}  // namespace

void run_pre_tokenizers(const PreTokenizers& stages, std::string_view text, bool at_start,
                        PreTokenizeScratch& levels, StageScratch& scratch, TextBudget& budget,
                        PieceSink& sink, std::size_t first_bytes) {
  run_levels(stages, text, at_start, first_bytes, nullptr, levels, scratch, budget, sink);
}

bool run_pre_tokenizers_aligned(const PreTokenizers& stages, std::string_view text, bool at_start,
                                const Alignment& alignment, PreTokenizeScratch& levels, StageScratch& scratch,
                                TextBudget& budget, PieceSink& sink, std::size_t first_bytes) {
  return run_levels(stages, text, at_start, first_bytes, &alignment, levels, scratch, budget, sink);
}

EMBEDDINGS_OFFSETS bool split_aligned(const PreTokenizer& stage, std::string_view text, bool at_start,
                                      const Alignment& alignment, PreTokenizeScratch::Level& level,
                                      StageScratch& scratch, TextBudget& budget, PieceSink& sink) {
  level.own.tracks = true;
  level.input = text;
  level.alignment = alignment;
  Forward last(sink, at_start, &level);
  stage.split(text, at_start, level.own, scratch, budget, last);
  return !last.failed();
}

bool run_decoders(const Decoders& decoders, std::vector<std::string>& tokens, StageScratch& scratch,
                  TextBudget& budget) {
  for (const auto& decoder : decoders) {
    if (!decoder->decode(tokens, scratch, budget)) return false;
  }
  return true;
}

bool run_post_processors(const PostProcessors& processors, Encodings& encodings, bool add_special_tokens,
                         std::string& error) {
  for (const auto& processor : processors) {
    if (!processor->process(encodings, add_special_tokens, error)) return false;
  }
  return true;
}

bool decode_tokens(const Decoders& decoders, bool has_decoder, std::vector<std::string>& tokens,
                   std::size_t max_added_bytes, std::string& text, std::string& error) {
  text.clear();
  if (!has_decoder) {
    for (std::size_t i = 0; i < tokens.size(); ++i) text.append(i == 0 ? "" : " ").append(tokens[i]);
    return true;
  }
  StageScratch scratch;
  TextBudget budget(max_added_bytes);
  if (!run_decoders(decoders, tokens, scratch, budget)) {
    error = "decode: a decoder would make the text " + mebibytes(budget.asked()) + " longer, more than the " +
            mebibytes(max_added_bytes) + " there is memory for";
    return false;
  }
  for (const std::string& token : tokens) text += token;
  return true;
}

bool process_encodings(const PostProcessors& processors, SequenceEncoder& encoder, std::string_view text,
                       const std::string_view* pair, bool add_special_tokens, std::vector<std::int32_t>& ids,
                       std::string& error) {
  Encodings encodings(pair != nullptr ? 2 : 1);
  if (!encoder.encode(text, encodings[0]) || (pair != nullptr && !encoder.encode(*pair, encodings[1])))
    return false;
  if (!run_post_processors(processors, encodings, add_special_tokens, error)) return false;
  ids.clear();
  for (const auto& encoding : encodings) ids.insert(ids.end(), encoding.begin(), encoding.end());
  return true;
}

}  // namespace embeddings
