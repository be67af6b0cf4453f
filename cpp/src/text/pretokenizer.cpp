#include "embeddings/text/pretokenizer.h"

#include <cstdint>

#include "embeddings/common/utf8.h"
#include "embeddings/text/unicode/unicode.h"

namespace embeddings {
namespace {

enum class CharClass { Letter, Number, Whitespace, Other };

struct Char {
  CharClass cls;
  std::size_t length;  // Bytes, 1 to 4.
};

// Classifies the character at `text[pos]` (pos < text.size()). A byte that
// does not start valid UTF-8 is an "other" character of one byte.
Char char_at(std::string_view text, std::size_t pos) {
  const unsigned char byte = static_cast<unsigned char>(text[pos]);
  std::uint32_t code = byte;
  std::size_t length = 1;
  if (byte >= 0x80) {
    length = utf8::decode(text, pos, code);
    if (length == 0) return {CharClass::Other, 1};
  }
  if (unicode::is_letter(code)) return {CharClass::Letter, length};
  if (unicode::is_number(code)) return {CharClass::Number, length};
  if (unicode::is_whitespace(code)) return {CharClass::Whitespace, length};
  return {CharClass::Other, length};
}

// End of the run of characters of class `cls` that starts at `pos`.
std::size_t run_end(std::string_view text, std::size_t pos, CharClass cls) {
  while (pos < text.size()) {
    const Char c = char_at(text, pos);
    if (c.cls != cls) break;
    pos += c.length;
  }
  return pos;
}

// Length of a contraction ('s 't 're 've 'm 'll 'd) at `pos`, or 0.
std::size_t contraction_length(std::string_view text, std::size_t pos) {
  if (text[pos] != '\'' || pos + 1 >= text.size()) return 0;
  const char first = text[pos + 1];
  if (first == 's' || first == 't' || first == 'm' || first == 'd') return 2;
  if (pos + 2 >= text.size()) return 0;
  const char second = text[pos + 2];
  if ((first == 'r' && second == 'e') || (first == 'v' && second == 'e') || (first == 'l' && second == 'l')) {
    return 3;
  }
  return 0;
}

}  // namespace

std::size_t pretoken_length(std::string_view text, std::size_t pos) {
  if (pos >= text.size()) return 0;
  if (const std::size_t length = contraction_length(text, pos)) return length;

  // " ?\p{L}+", " ?\p{N}+" and " ?[^\s\p{L}\p{N}]+", with the optional space.
  if (text[pos] == ' ' && pos + 1 < text.size()) {
    const Char next = char_at(text, pos + 1);
    if (next.cls != CharClass::Whitespace) return run_end(text, pos + 1, next.cls) - pos;
  }
  const Char first = char_at(text, pos);
  if (first.cls != CharClass::Whitespace) return run_end(text, pos, first.cls) - pos;

  // "\s+(?!\S)": the whole run when it ends the text, otherwise the run less
  // its last character; if that leaves nothing, "\s+" takes the single one.
  std::size_t end = pos;
  std::size_t last_start = pos;
  while (end < text.size()) {
    const Char c = char_at(text, end);
    if (c.cls != CharClass::Whitespace) break;
    last_start = end;
    end += c.length;
  }
  if (end == text.size() || last_start == pos) return end - pos;
  return last_start - pos;
}

void pretokenize(std::string_view text, std::vector<std::string_view>& pieces) {
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t length = pretoken_length(text, pos);
    pieces.push_back(text.substr(pos, length));
    pos += length;
  }
}

std::vector<std::string_view> pretokenize(std::string_view text) {
  std::vector<std::string_view> pieces;
  pretokenize(text, pieces);
  return pieces;
}

}  // namespace embeddings
