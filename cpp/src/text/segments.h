// How a pattern or a character test cuts a text into segments (matches and
// the text between them), and how a behavior joins segments into pieces:
// tokenizers' find_matches() and NormalizedString::split(), shared by the
// pre-tokenizers that cut (Split, Punctuation, Digits, WhitespaceSplit,
// CharDelimiterSplit, Metaspace) and by Replace. Internal to the library.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "embeddings/common/utf8.h"
#include "embeddings/formats/json.h"
#include "embeddings/text/regex/regex.h"

namespace embeddings {

namespace tokenizer_json {
class Reading;
}

// tokenizers' SplitDelimiterBehavior: Removed drops the matches, Isolated
// keeps each as a piece, MergedWithPrevious and MergedWithNext join each to
// the text before or after it, Contiguous joins runs of matches into one piece.
enum class Behavior { Removed, Isolated, MergedWithPrevious, MergedWithNext, Contiguous };

// A component's "behavior" member.
bool read_behavior(const json::Value& component, const std::string& where, tokenizer_json::Reading& reading,
                   Behavior& out);

// Hands `segment(begin, end, is_match)` the matches of `pattern` in `text`
// and the text between them, in order, covering the text: tokenizers'
// find_matches() over Oniguruma's find_iter, as the onig crate runs it (the
// next search starts where the last match ended, and an empty match found
// right at the end of the previous match is skipped: the search then starts
// one character on).
template <typename Segment>
void regex_segments(const regex::Regex& pattern, std::string_view text, regex::Regex::Scratch& scratch,
                    Segment&& segment) {
  std::size_t previous_end = 0;
  std::size_t search_from = 0;
  bool matched_before = false;
  std::size_t begin = 0;
  std::size_t end = 0;
  while (search_from <= text.size() && pattern.search(text, search_from, begin, end, scratch)) {
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
}

// The same for a pattern that is a test of single characters (tokenizers'
// Pattern for Fn(char) -> bool and for char): every character that passes
// is a match of its own. A byte that is not valid UTF-8 is a character that
// passes no test.
template <typename Test, typename Segment>
void character_segments(std::string_view text, Test&& test, Segment&& segment) {
  std::size_t last = 0;
  for (std::size_t pos = 0; pos < text.size();) {
    std::uint32_t code = 0;
    std::size_t used = utf8::decode(text, pos, code);
    const bool passes = used != 0 && test(code);
    if (used == 0) used = 1;
    if (passes) {
      if (last < pos) segment(last, pos, false);
      segment(pos, pos + used, true);
      last = pos + used;
    }
    pos += used;
  }
  if (last < text.size()) segment(last, text.size(), false);
}

// Joins segments into pieces as a behavior says (tokenizers'
// NormalizedString::split), handing each non-empty piece, as offsets into
// the text, to `emit(begin, end)`. Call add() for each segment in order,
// then finish().
template <typename Emit>
class PieceJoiner {
 public:
  PieceJoiner(Behavior behavior, bool invert, Emit& emit)
      : behavior_(behavior), invert_(invert), emit_(emit) {}

  void add(std::size_t begin, std::size_t end, bool is_match) {
    using Behavior = Behavior;
    is_match = is_match != invert_;
    switch (behavior_) {
      case Behavior::Isolated:
        if (end > begin) emit_(begin, end);
        break;
      case Behavior::Removed:
        if (!is_match && end > begin) emit_(begin, end);
        break;
      case Behavior::MergedWithPrevious:
        if (is_match && !previous_is_match_ && pending_) {
          pending_end_ = end;
        } else {
          hold(begin, end, is_match);
        }
        break;
      case Behavior::MergedWithNext:
        // A match joins the piece after it when that piece is not a match.
        if (pending_ && pending_is_match_ && !is_match) {
          pending_end_ = end;
          pending_is_match_ = false;  // joined: nothing more joins it
          flush();
        } else {
          hold(begin, end, is_match);
        }
        break;
      case Behavior::Contiguous:
        if (pending_ && is_match == previous_is_match_) {
          pending_end_ = end;
        } else {
          hold(begin, end, is_match);
        }
        break;
    }
    previous_is_match_ = is_match;
  }
  void finish() { flush(); }

 private:
  void flush() {
    if (pending_ && pending_end_ > pending_begin_) emit_(pending_begin_, pending_end_);
    pending_ = false;
  }
  void hold(std::size_t begin, std::size_t end, bool is_match) {
    flush();
    pending_ = true;
    pending_begin_ = begin;
    pending_end_ = end;
    pending_is_match_ = is_match;
  }

  const Behavior behavior_;
  const bool invert_;
  Emit& emit_;
  // What the behavior has not passed on yet: a piece that a later segment may still join.
  std::size_t pending_begin_ = 0, pending_end_ = 0;
  bool pending_ = false, pending_is_match_ = false, previous_is_match_ = false;
};

// Cuts `text` at the characters that pass `test`, joined as `behavior`
// says: the pieces into `cuts`, as begin and end offsets in turn.
template <typename Test>
void cut_by_characters(std::string_view text, Behavior behavior, Test&& test,
                       std::vector<std::size_t>& cuts) {
  cuts.clear();
  const auto emit = [&](std::size_t begin, std::size_t end) {
    cuts.push_back(begin);
    cuts.push_back(end);
  };
  PieceJoiner<decltype(emit)> joiner(behavior, false, emit);
  character_segments(text, test, [&](std::size_t begin, std::size_t end, bool is_match) {
    joiner.add(begin, end, is_match);
  });
  joiner.finish();
}

}  // namespace embeddings
