#include "embeddings/text/byte_level.h"

#include <array>

#include "embeddings/common/utf8.h"

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

// Every character of the alphabet is one byte (printable ASCII) or two
// (U+0080..U+0143: lead bytes 0xC2..0xC5), and stands for one byte, so the
// output is never longer than the text and is written through a pointer.
// (A loop of push_back was most of the time of loading a tokenizer.json in
// WebAssembly, where std::string's members are calls into libc++.)
std::size_t decode_into(std::string_view text, char* out) {
  const Tables& t = tables();
  char* const first = out;
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  const unsigned char* const end = p + text.size();
  while (p < end) {
    std::uint32_t code = *p;
    if (code < 0x80) {
      ++p;
    } else if (code >= 0xC2 && code <= 0xC5 && end - p >= 2 && (p[1] & 0xC0) == 0x80) {
      code = ((code & 0x1F) << 6) | (p[1] & 0x3F);
      p += 2;
    } else {
      return kNotByteLevel;  // Invalid UTF-8, or a character from U+0180 on: not in the alphabet.
    }
    if (code >= t.byte_for_char.size() || t.byte_for_char[code] < 0) return kNotByteLevel;
    *out++ = static_cast<char>(t.byte_for_char[code]);
  }
  return static_cast<std::size_t>(out - first);
}

bool decode(std::string_view text, std::string& bytes) {
  bytes.resize(text.size());
  const std::size_t length = decode_into(text, bytes.data());
  if (length == kNotByteLevel) return false;
  bytes.resize(length);
  return true;
}

bool Decoder::decode(std::string_view text, std::string_view& bytes) {
  if (buffer_.size() < text.size()) buffer_.resize(text.size());
  const std::size_t length = decode_into(text, buffer_.data());
  if (length == kNotByteLevel) return false;
  bytes = std::string_view(buffer_.data(), length);
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
