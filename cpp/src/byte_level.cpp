#include "embeddings/byte_level.h"

#include <array>

#include "embeddings/utf8.h"

namespace embeddings::byte_level {
namespace {

bool maps_to_itself(unsigned byte) {
  return (byte >= '!' && byte <= '~') || (byte >= 0xA1 && byte <= 0xAC) || (byte >= 0xAE && byte <= 0xFF);
}

struct Tables {
  std::array<std::uint32_t, 256> char_for_byte{};
  // Index: code point; every character of the alphabet is below U+0144.
  std::array<std::int16_t, 0x144> byte_for_char{};

  Tables() {
    byte_for_char.fill(-1);
    std::uint32_t next = 0x100;
    for (unsigned byte = 0; byte < 256; ++byte) {
      const std::uint32_t code = maps_to_itself(byte) ? byte : next++;
      char_for_byte[byte] = code;
      byte_for_char[code] = static_cast<std::int16_t>(byte);
    }
  }
};

const Tables& tables() {
  static const Tables instance;
  return instance;
}

}  // namespace

std::uint32_t char_for_byte(std::uint8_t byte) { return tables().char_for_byte[byte]; }

bool byte_for_char(std::uint32_t code, std::uint8_t& byte) {
  if (code >= tables().byte_for_char.size()) return false;
  const std::int16_t value = tables().byte_for_char[code];
  if (value < 0) return false;
  byte = static_cast<std::uint8_t>(value);
  return true;
}

void append_encoded(std::string& out, std::string_view bytes) {
  for (const char ch : bytes) utf8::append(out, char_for_byte(static_cast<std::uint8_t>(ch)));
}

bool decode(std::string_view text, std::string& bytes) {
  bytes.clear();
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::uint32_t code = 0;
    const std::size_t used = utf8::decode(text, pos, code);
    std::uint8_t byte = 0;
    if (used == 0 || !byte_for_char(code, byte)) return false;
    bytes += static_cast<char>(byte);
    pos += used;
  }
  return true;
}

void append_utf8_lossy(std::string& out, std::string_view bytes) {
  static constexpr char kReplacement[] = "\xEF\xBF\xBD";
  std::size_t pos = 0;
  while (pos < bytes.size()) {
    const auto at = [&](std::size_t i) { return static_cast<unsigned char>(bytes[i]); };
    const unsigned char lead = at(pos);
    if (lead < 0x80) {
      out += static_cast<char>(lead);
      ++pos;
      continue;
    }
    // Length and the allowed range of the second byte (Unicode Table 3-7),
    // which rules out overlong forms, surrogates and code points past U+10FFFF.
    std::size_t length = 0;
    unsigned char low = 0x80, high = 0xBF;
    if (lead >= 0xC2 && lead <= 0xDF) {
      length = 2;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
      length = 3;
      if (lead == 0xE0) low = 0xA0;
      if (lead == 0xED) high = 0x9F;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
      length = 4;
      if (lead == 0xF0) low = 0x90;
      if (lead == 0xF4) high = 0x8F;
    }
    if (length == 0) {
      out += kReplacement;
      ++pos;
      continue;
    }
    std::size_t valid = 1;  // Bytes of the sequence seen so far that can still be part of it.
    while (valid < length && pos + valid < bytes.size()) {
      const unsigned char next = at(pos + valid);
      const unsigned char min = valid == 1 ? low : 0x80;
      const unsigned char max = valid == 1 ? high : 0xBF;
      if (next < min || next > max) break;
      ++valid;
    }
    if (valid == length) {
      out.append(bytes.data() + pos, length);
    } else {
      out += kReplacement;
    }
    pos += valid;
  }
}

}  // namespace embeddings::byte_level
