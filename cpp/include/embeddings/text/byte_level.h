// GPT-2's byte-level alphabet: a one-to-one map from the 256 byte values to
// 256 printable Unicode characters, so that any byte string can be written
// as a JSON string of "visible" characters (tokenizer.json vocabularies use
// it). Printable Latin-1 bytes ('!'..'~', '¡'..'¬', '®'..'ÿ') map to
// themselves; the other 68 bytes map, in increasing order, to U+0100,
// U+0101, ... so the space 0x20 becomes 'Ġ' (U+0120) and '\n' becomes 'Ċ'
// (U+010A).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace embeddings::byte_level {

// The character that stands for `byte`.
std::uint32_t char_for_byte(std::uint8_t byte);

// The byte that `code` stands for; false when `code` is not in the alphabet.
bool byte_for_char(std::uint32_t code, std::uint8_t& byte);

// Appends the byte-level (UTF-8) spelling of the raw bytes `bytes`.
void append_encoded(std::string& out, std::string_view bytes);

// Decodes a byte-level string back to raw bytes. False (and `bytes` left in
// an unspecified state) when `text` is not valid UTF-8 or has a character
// outside the alphabet.
bool decode(std::string_view text, std::string& bytes);

// The same into `out`, which has room for text.size() bytes (never more
// are written): the bytes' count, or kNotByteLevel.
inline constexpr std::size_t kNotByteLevel = static_cast<std::size_t>(-1);
std::size_t decode_into(std::string_view text, char* out);

// decode() into a buffer it keeps, for a loop over many strings: `bytes`
// views the buffer until the next call.
class Decoder {
 public:
  bool decode(std::string_view text, std::string_view& bytes);

 private:
  std::vector<char> buffer_;
};

// Appends `bytes` to `out` as valid UTF-8, replacing each maximal ill-formed
// subsequence with U+FFFD, as Rust's String::from_utf8_lossy does (and the
// WHATWG decoder): "\xF0\x9F\x98" gives one U+FFFD, "\xFF\xFE" gives two.
void append_utf8_lossy(std::string& out, std::string_view bytes);

}  // namespace embeddings::byte_level
