// The pipeline's stages applied (tokenizer_pipeline.h says what each kind
// is): how a pattern cuts a text into segments, how a behavior joins them
// into pieces, the normalizers and the decoders. Internal to the library:
// tokenizer.cpp runs them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "embeddings/common/utf8.h"
#include "embeddings/text/regex/regex.h"
#include "embeddings/text/tokenizer_pipeline.h"

namespace embeddings::stages {

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
  PieceJoiner(PreTokenizer::Behavior behavior, bool invert, Emit& emit)
      : behavior_(behavior), invert_(invert), emit_(emit) {}

  void add(std::size_t begin, std::size_t end, bool is_match) {
    using Behavior = PreTokenizer::Behavior;
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

  const PreTokenizer::Behavior behavior_;
  const bool invert_;
  Emit& emit_;
  // What the behavior has not passed on yet: a piece that a later segment may still join.
  std::size_t pending_begin_ = 0, pending_end_ = 0;
  bool pending_ = false, pending_is_match_ = false, previous_is_match_ = false;
};

// A piece of a text: its offsets.
struct Piece {
  std::size_t begin, end;
};

// The pieces a pre-tokenizer stage that cuts (Split, Whitespace,
// WhitespaceSplit, Digits, Punctuation, Metaspace's split) makes of `text`,
// in order, into `pieces` (replacing its contents).
void cut(const PreTokenizer& stage, std::string_view text, regex::Regex::Scratch& scratch,
         std::vector<Piece>& pieces);

// Metaspace's rewriting of a piece before its cut: spaces to the
// replacement, and the replacement in front as the scheme says
// (`first_piece`: the piece starts the text). Into `out`.
void metaspace_rewrite(const PreTokenizer& stage, std::string_view piece, bool first_piece, std::string& out);

// Whether `normalizer` may change a text (false for None, and for NFC and NFD
// when normalize::is_quick_unchanged says so).
bool may_change(const Normalizer& normalizer, std::string_view text);
// `text` through `normalizer`, in place; `spare` is a buffer it may use.
void normalize(const Normalizer& normalizer, std::string& text, std::string& spare,
               regex::Regex::Scratch& scratch);

// `tokens` (as the file spells them) through `decoder`'s decode_chain, in place.
void decode_chain(const Decoder& decoder, std::vector<std::string>& tokens);

}  // namespace embeddings::stages
