// UTF-8 helpers shared by the JSON reader and the tokenizer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace embeddings::utf8 {

// Appends the UTF-8 encoding of `code` (which must be a Unicode scalar value).
inline void append(std::string& out, std::uint32_t code) {
  if (code < 0x80) {
    out += static_cast<char>(code);
  } else if (code < 0x800) {
    out += static_cast<char>(0xC0 | (code >> 6));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else if (code < 0x10000) {
    out += static_cast<char>(0xE0 | (code >> 12));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (code >> 18));
    out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  }
}

// Decodes one scalar value starting at `text[pos]`. On success returns the
// number of bytes it used (1 to 4) and sets `code`; returns 0 for an invalid,
// overlong, surrogate or truncated sequence.
inline std::size_t decode(std::string_view text, std::size_t pos, std::uint32_t& code) {
  const std::size_t left = text.size() - pos;
  if (left == 0) return 0;
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[pos + i]); };
  const unsigned char b0 = byte(0);
  if (b0 < 0x80) {
    code = b0;
    return 1;
  }
  std::size_t length;
  std::uint32_t minimum;
  if ((b0 & 0xE0) == 0xC0) {
    length = 2;
    code = b0 & 0x1F;
    minimum = 0x80;
  } else if ((b0 & 0xF0) == 0xE0) {
    length = 3;
    code = b0 & 0x0F;
    minimum = 0x800;
  } else if ((b0 & 0xF8) == 0xF0) {
    length = 4;
    code = b0 & 0x07;
    minimum = 0x10000;
  } else
    return 0;
  if (left < length) return 0;
  for (std::size_t i = 1; i < length; ++i) {
    if ((byte(i) & 0xC0) != 0x80) return 0;
    code = (code << 6) | (byte(i) & 0x3F);
  }
  if (code < minimum || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return 0;
  return length;
}

// True when `text` is entirely valid UTF-8.
inline bool is_valid(std::string_view text) {
  std::size_t pos = 0;
  while (pos < text.size()) {
    if (static_cast<unsigned char>(text[pos]) < 0x80) {
      ++pos;
      continue;
    }
    std::uint32_t code = 0;
    const std::size_t used = decode(text, pos, code);
    if (used == 0) return false;
    pos += used;
  }
  return true;
}

// The characters of `text` (a byte that is not UTF-8 counts as one).
inline std::size_t count(std::string_view text) {
  std::size_t characters = 0;
  for (std::size_t pos = 0; pos < text.size(); ++characters) {
    std::uint32_t code = 0;
    const std::size_t used = decode(text, pos, code);
    pos += used == 0 ? 1 : used;
  }
  return characters;
}

}  // namespace embeddings::utf8
