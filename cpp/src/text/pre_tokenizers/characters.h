// A pre-tokenizer that cuts at the characters that pass a test, joined as a
// behavior says (Punctuation, Digits, WhitespaceSplit, CharDelimiterSplit):
// tokenizers' NormalizedString::split over a Fn(char) -> bool pattern.
// Internal to the library.
#pragma once

#include <utility>

#include "embeddings/text/pipeline.h"
#include "segments.h"

namespace embeddings::pre_tokenizers {

template <typename Test>
void split_by_characters(std::string_view text, Behavior behavior, Test&& test, PreTokenizerBuffers& own,
                         PieceSink& sink) {
  cut_by_characters(text, behavior, std::forward<Test>(test), own.cuts);
  for (std::size_t i = 0; i < own.cuts.size() && !sink.stopped(); i += 2)
    sink.piece(text.substr(own.cuts[i], own.cuts[i + 1] - own.cuts[i]), own.cuts[i] == 0);
}

}  // namespace embeddings::pre_tokenizers
