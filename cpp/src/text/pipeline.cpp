// The stages run in turn (pipeline.h): each list by a loop, and the
// pre-tokenizers depth first over an explicit list of levels, so that no
// file, however many stages its Sequences hold, makes the stack deeper.
#include "embeddings/text/pipeline.h"

#include <algorithm>
#include <utility>

#include "embeddings/common/message.h"

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

// The last stage's pieces go straight on; the sink's stop stops them all.
class Forward : public PieceSink {
 public:
  Forward(PieceSink& to, bool at_start) : to_(to), at_start_(at_start) {}
  void piece(std::string_view piece, bool first) override {
    to_.piece(piece, at_start_ && first);
    if (to_.stopped()) stop();
  }
  std::size_t enough_bytes() const override { return to_.enough_bytes(); }
  void too_many() override {
    to_.too_many();
    stop();
  }

 private:
  PieceSink& to_;
  const bool at_start_;
};

}  // namespace

void run_pre_tokenizers(const PreTokenizers& stages, std::string_view text, bool at_start,
                        PreTokenizeScratch& levels, StageScratch& scratch, TextBudget& budget,
                        PieceSink& sink) {
  if (text.empty() || sink.stopped()) return;
  const std::size_t count = stages.size();
  if (count == 0) {
    sink.piece(text, at_start);
    return;
  }
  if (levels.levels.size() < count) levels.levels.resize(count);
  // Level k holds the pieces stage k made of one piece of level k - 1 (level
  // 0: of the text) and which of them goes on next; `first` there says the
  // piece starts the text.
  const auto run = [&](std::size_t k, std::string_view part, bool part_at_start) {
    PreTokenizeScratch::Level& level = levels.levels[k];
    if (k + 1 == count) {
      Forward last(sink, part_at_start);
      stages[k]->split(part, part_at_start, level.own, scratch, budget, last);
      return;
    }
    level.parts.clear();
    level.next = 0;
    Collect collect(level);
    stages[k]->split(part, part_at_start, level.own, scratch, budget, collect);
    for (auto& kept : level.parts) kept.first = kept.first && part_at_start;
  };
  run(0, text, at_start);
  std::size_t depth = 0;  // The deepest level with pieces still to go on.
  while (count > 1 && !sink.stopped() && !budget.refused()) {
    PreTokenizeScratch::Level& level = levels.levels[depth];
    if (level.next == level.parts.size()) {
      if (depth == 0) break;
      --depth;
      continue;
    }
    const PreTokenizeScratch::Part part = level.parts[level.next++];
    if (part.text.empty()) continue;
    run(depth + 1, part.text, part.first);
    if (depth + 2 < count) ++depth;
  }
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
