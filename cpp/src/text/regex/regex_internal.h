// What the regex engine's three parts share: regex_compile.cpp parses a
// pattern into a tree of Nodes, regex_program.cpp writes the tree as a
// program, regex.cpp runs it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "embeddings/common/utf8.h"
#include "embeddings/text/regex/regex.h"

namespace embeddings::regex::detail {

// Stands for a byte that does not begin valid UTF-8: in no range or property.
constexpr std::uint32_t kInvalidByte = 0xFFFFFFFFu;
// The character at `pos` (kInvalidByte for a byte that begins no valid
// sequence) and its length in bytes; 0 at the end.
inline std::size_t next_character(std::string_view text, std::size_t pos, std::uint32_t& code);

// The start of the character that ends at `pos`, as next_character() reads
// the text from `floor` (a character boundary before `pos`): the nearest
// byte that is not a continuation byte, when the character it begins ends
// exactly at `pos`; else the byte before `pos` alone (an invalid byte).
inline std::size_t previous_character(std::string_view text, std::size_t pos, std::size_t floor) {
  std::size_t start = pos - 1;
  while (start > floor && pos - start < 4 && (static_cast<unsigned char>(text[start]) & 0xC0) == 0x80)
    --start;
  std::uint32_t code = 0;
  if (start + 1 < pos && next_character(text, start, code) != pos - start) start = pos - 1;
  return start;
}

inline std::size_t next_character(std::string_view text, std::size_t pos, std::uint32_t& code) {
  if (pos >= text.size()) return 0;
  const unsigned char byte = static_cast<unsigned char>(text[pos]);
  if (byte < 0x80) {
    code = byte;
    return 1;
  }
  const std::size_t used = utf8::decode(text, pos, code);
  if (used != 0) return used;
  code = kInvalidByte;
  return 1;
}

constexpr int kUnbounded = -1;  // A repeat's max with no bound: *, + and {n,}.
// A counted repeat is written by copying its body: the program is bounded so
// that a file's pattern cannot take the memory.
constexpr std::uint64_t kMaxProgram = 1 << 20;

// A parsed pattern: character sets (by index into the Regex's sets), and
// the ways of putting them together.
struct Node {
  enum class Kind { Set, Concat, Alternate, Repeat, NotAhead, Ahead };
  Kind kind = Kind::Concat;
  int set = -1;
  int min = 1;
  int max = 1;
  std::vector<Node> children;
};

}  // namespace embeddings::regex::detail

namespace embeddings::regex {

inline std::size_t Regex::CharSet::span(std::string_view text, std::size_t pos) const {
  for (std::uint32_t code = 0;;) {
    // ASCII first, without decoding: most of most texts.
    while (pos < text.size() && static_cast<unsigned char>(text[pos]) < 0x80 &&
           contains(static_cast<unsigned char>(text[pos])))
      ++pos;
    const std::size_t used = detail::next_character(text, pos, code);
    if (used == 0 || !contains(code)) return pos;
    pos += used;
  }
}

// Writes a parsed pattern into `out`'s program, and says whether it can
// match the empty string.
class ProgramWriter {
 public:
  ProgramWriter(Regex& out, bool optimize) : out_(out), optimize_(optimize) {}
  void write(const detail::Node& root);
  // The instructions write() would make, saturating past kMaxProgram.
  static std::uint64_t size(const detail::Node& node);
  static bool nullable(const detail::Node& node);
  // How deep lookaheads nest in it (0: none).
  static std::size_t lookahead_depth(const detail::Node& node);

 private:
  void emit(const detail::Node& node);
  // Regex::starts_ for the written program (optimize only).
  void find_starts();
  std::int32_t here() const { return static_cast<std::int32_t>(out_.program_.size()); }
  std::int32_t push(Regex::Op op, std::int32_t x = 0, std::int32_t y = 0) {
    out_.program_.push_back({op, x, y});
    return here() - 1;
  }
  Regex& out_;
  const bool optimize_;
};

}  // namespace embeddings::regex
