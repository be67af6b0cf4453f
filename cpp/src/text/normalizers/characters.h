// A normalizer that maps a text character by character (Lowercase, Nmt,
// StripAccents, ByteLevel, BertNormalizer), under the text budget: when
// the stage's growth could pass what the budget has left, the output's
// length is counted first and refused before anything is written.
// Internal to the library.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "embeddings/common/utf8.h"
#include "embeddings/text/pipeline.h"

namespace embeddings::normalizers {

inline std::size_t utf8_length(std::uint32_t code) {
  return code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
}

// `map(code, emit)` either calls emit(c) for each character `code` becomes
// (none: it is dropped) and returns true, or returns false to keep it as it
// is. A byte that is not UTF-8 is kept. The result replaces `text`.
template <typename Map>
bool map_characters(std::string& text, std::string& spare, TextBudget& budget, const Growth& growth,
                    Map&& map) {
  const std::size_t in = text.size();
  const auto each = [&](auto&& keep, auto&& emit) {
    for (std::size_t pos = 0; pos < in;) {
      std::uint32_t code = 0;
      const std::size_t used = utf8::decode(text, pos, code);
      if (used == 0 || !map(code, emit)) keep(pos, used == 0 ? 1 : used);
      pos += used == 0 ? 1 : used;
    }
  };
  const std::uint64_t most = growth.of(in);
  const bool counted = most > in && most - in > budget.left();
  if (counted) {
    std::size_t length = 0;
    each([&](std::size_t, std::size_t bytes) { length += bytes; },
         [&](std::uint32_t code) { length += utf8_length(code); });
    if (length > in && !budget.take(length - in)) return false;
  }
  spare.clear();
  each([&](std::size_t pos, std::size_t bytes) { spare.append(text, pos, bytes); },
       [&](std::uint32_t code) { utf8::append(spare, code); });
  // (Uncounted, the budget covers the most it could have grown.)
  if (!counted && spare.size() > in) budget.take(spare.size() - in);
  text.swap(spare);
  return true;
}

}  // namespace embeddings::normalizers
