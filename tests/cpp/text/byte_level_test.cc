// GPT-2's byte alphabet (byte_level.h).
#include "embeddings/text/byte_level.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "embeddings/common/utf8.h"

namespace embeddings::byte_level_test {

using Ids = std::vector<std::int32_t>;

// decode_into() and byte_level::Decoder, the loader's fast decoders, against
// the definition: each character, read as UTF-8, is a character of the
// alphabet (byte_for_char), or the string is refused.
TEST(ByteLevel, DecodersAgreeWithTheDefinition) {
  const auto reference = [](std::string_view text, std::string& bytes) {
    bytes.clear();
    for (std::size_t pos = 0; pos < text.size();) {
      std::uint32_t code = 0;
      const std::size_t used = utf8::decode(text, pos, code);
      std::uint8_t byte = 0;
      if (used == 0 || !byte_level::byte_for_char(code, byte)) return false;
      bytes += static_cast<char>(byte);
      pos += used;
    }
    return true;
  };
  // Every character of the alphabet, its neighbours, and broken UTF-8.
  std::vector<std::string> characters;
  for (unsigned byte = 0; byte < 256; ++byte) {
    std::string c;
    utf8::append(c, byte_level::char_for_byte(static_cast<std::uint8_t>(byte)));
    characters.push_back(c);
  }
  for (const std::uint32_t code :
       {0x20u, 0x7Fu, 0xADu, 0x143u, 0x144u, 0x17Fu, 0x180u, 0x7FFu, 0x2581u, 0x1F600u}) {
    std::string c;
    utf8::append(c, code);
    characters.push_back(c);
  }
  for (const char* broken : {"\xC3", "\xC0\xA0", "\xC1\xBF", "\x80", "\xFF", "\xC4\x41", "\xE0\x80\xA0"})
    characters.emplace_back(broken);
  std::mt19937 random(12);
  byte_level::Decoder decoder;
  for (int round = 0; round < 20000; ++round) {
    std::string text;
    const int count = static_cast<int>(random() % 12);
    for (int i = 0; i < count; ++i) {
      // Mostly characters of the alphabet, as a vocabulary's keys are.
      const std::size_t pick = random() % 8 != 0 ? random() % 256 : random() % characters.size();
      text += characters[pick];
    }
    std::string expected;
    const bool valid = reference(text, expected);
    std::string into(text.size(), '\0');
    const std::size_t length = byte_level::decode_into(text, into.data());
    ASSERT_EQ(length != byte_level::kNotByteLevel, valid) << text;
    std::string_view viewed;
    ASSERT_EQ(decoder.decode(text, viewed), valid) << text;
    std::string decoded;
    ASSERT_EQ(byte_level::decode(text, decoded), valid) << text;
    if (!valid) continue;
    EXPECT_EQ(into.substr(0, length), expected);
    EXPECT_EQ(viewed, expected);
    EXPECT_EQ(decoded, expected);
  }
}

}  // namespace embeddings::byte_level_test
