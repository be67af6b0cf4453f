// How a normalizer's result lines up with its input while offsets are kept
// (Normalizer::normalize_aligned): Hugging Face's NormalizedString
// transform(), which every normalizer there goes through, and which gives
// each character of the result the span of one character of the input.
// Internal to the library.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "embeddings/text/pipeline.h"

namespace embeddings::normalizers {

// The spans of `after`, made of `before` (whose spans are `spans`) as
// `changes` says, one per character of `after`, in NormalizedString's
// terms: 0, the character takes the place of the next character of
// `before` (and its span); 1, it is inserted, with the span of the last
// byte before it; -n, as 0, and the n characters after that one are
// removed. `initial`: characters removed from the start first.
void transform(std::string_view before, const std::vector<Span>& spans, std::string_view after,
               const std::vector<std::int32_t>& changes, std::size_t initial, std::vector<Span>& out);

}  // namespace embeddings::normalizers
