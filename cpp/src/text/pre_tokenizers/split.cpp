// tokenizers' Split: pieces cut where `pattern` (a regex, regex.h, or a
// string matched literally) matches, as the onig crate's find_iter finds
// the matches; `behavior` says what becomes of them (segments.h), and
// `invert` swaps matches and the text between them first.
#include <memory>
#include <utility>

#include "segments.h"
#include "tokenizer_json/reading.h"

namespace embeddings::pre_tokenizers {
namespace {

class Split : public PreTokenizer {
 public:
  Split(std::shared_ptr<const regex::Regex> pattern, Behavior behavior, bool invert)
      : pattern_(std::move(pattern)), behavior_(behavior), invert_(invert) {}

  void split(std::string_view text, bool, PreTokenizerBuffers& own, StageScratch& scratch, TextBudget&,
             PieceSink& sink) const override {
    std::vector<std::size_t>& cuts = own.cuts;
    cuts.clear();
    const auto emit = [&](std::size_t begin, std::size_t end) {
      cuts.push_back(begin);
      cuts.push_back(end);
    };
    PieceJoiner<decltype(emit)> joiner(behavior_, invert_, emit);
    regex_segments(*pattern_, text, scratch.regex, [&](std::size_t begin, std::size_t end, bool is_match) {
      joiner.add(begin, end, is_match);
    });
    joiner.finish();
    for (std::size_t i = 0; i < cuts.size() && !sink.stopped(); i += 2)
      sink.piece(text.substr(cuts[i], cuts[i + 1] - cuts[i]), cuts[i] == 0);
  }
  bool keeps_text() const override { return behavior_ != Behavior::Removed; }

 private:
  const std::shared_ptr<const regex::Regex> pattern_;
  const Behavior behavior_;
  const bool invert_;
};

}  // namespace

bool read_split(const json::Value& value, const std::string& where, tokenizer_json::Reading& reading,
                PreTokenizers& out) {
  std::shared_ptr<const regex::Regex> pattern;
  Behavior behavior = Behavior::Isolated;
  bool invert = false;
  if (!reading.read_pattern(value, where, pattern) || !read_behavior(value, where, reading, behavior) ||
      !reading.read_bool(value, "invert", where, invert)) {
    return false;
  }
  out.push_back(std::make_shared<Split>(std::move(pattern), behavior, invert));
  return true;
}

}  // namespace embeddings::pre_tokenizers
