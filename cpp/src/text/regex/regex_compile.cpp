// Parsing a Split pattern into a tree (Node), which regex_program.cpp
// turns into the program regex.h's machine runs (regex.cpp).
#include <algorithm>

#include "embeddings/text/regex/regex.h"
#include "embeddings/text/unicode/unicode.h"
#include "regex_internal.h"

namespace embeddings::regex {
namespace {

using detail::kInvalidByte;
using detail::kMaxProgram;
using detail::kUnbounded;
using detail::next_character;
using detail::Node;
using unicode::Category;

// A counted repeat is compiled by copying its body, so bound the copies,
// and the program they make: a file's pattern must not take the memory.
constexpr int kMaxCount = 1000;
// Parsing, compiling and matching recurse once per group level (the
// machine itself does not recurse, but a lookahead runs a nested one).
constexpr int kMaxDepth = 64;

constexpr std::uint32_t bit(Category category) { return 1u << static_cast<unsigned>(category); }
constexpr std::uint32_t kLetters =
    bit(Category::Lu) | bit(Category::Ll) | bit(Category::Lt) | bit(Category::Lm) | bit(Category::Lo);
constexpr std::uint32_t kMarks = bit(Category::Mn) | bit(Category::Mc) | bit(Category::Me);
constexpr std::uint32_t kNumbers = bit(Category::Nd) | bit(Category::Nl) | bit(Category::No);
// The categories whose members have other cases: (?i) would change them.
constexpr std::uint32_t kCased = bit(Category::Lu) | bit(Category::Ll) | bit(Category::Lt);

struct PropertyName {
  std::string_view name;
  std::uint32_t categories;
};
constexpr PropertyName kProperties[] = {
    {"L", kLetters},
    {"Lu", bit(Category::Lu)},
    {"Ll", bit(Category::Ll)},
    {"Lt", bit(Category::Lt)},
    {"Lm", bit(Category::Lm)},
    {"Lo", bit(Category::Lo)},
    {"M", kMarks},
    {"Mn", bit(Category::Mn)},
    {"Mc", bit(Category::Mc)},
    {"Me", bit(Category::Me)},
    {"N", kNumbers},
    {"Nd", bit(Category::Nd)},
    {"Nl", bit(Category::Nl)},
    {"No", bit(Category::No)},
};

}  // namespace

bool Regex::CharSet::contains_slowly(std::uint32_t code) const {
  bool in = false;
  if (code != kInvalidByte) {
    for (const auto& [first, last] : ranges) {
      if (code >= first && code <= last) {
        in = true;
        break;
      }
    }
    if (!in && categories != 0) in = (categories & bit(unicode::general_category(code))) != 0;
    if (!in && white_space) in = unicode::is_whitespace(code);
  }
  return in != negated;
}

void Regex::CharSet::finish() {
  for (std::uint32_t code = 0; code < 128; ++code) {
    if (contains_slowly(code)) ascii[code >> 6] |= std::uint64_t{1} << (code & 63);
  }
  beyond_ascii =
      negated || categories != 0 || white_space ||
      std::any_of(ranges.begin(), ranges.end(), [](const auto& range) { return range.second >= 128; });
}

class Compiler {
 public:
  Compiler(std::string_view pattern, Regex& out, std::string& error, bool optimize)
      : pattern_(pattern), out_(out), error_(error), optimize_(optimize) {}

  bool compile() {
    Node root;
    if (!parse_alternation(root)) return false;
    if (pos_ < pattern_.size()) return fail("unmatched \")\"");
    if (ProgramWriter::size(root) > kMaxProgram)
      return fail("a pattern whose counted repeats make over " + std::to_string(kMaxProgram) +
                  " instructions");
    ProgramWriter(out_, optimize_).write(root);
    return true;
  }

 private:
  bool fail(const std::string& what) {
    error_ = what + " at offset " + std::to_string(pos_) + " of the pattern";
    return false;
  }
  bool at_end() const { return pos_ >= pattern_.size(); }
  char peek() const { return pattern_[pos_]; }
  bool take(char c) {
    if (at_end() || peek() != c) return false;
    ++pos_;
    return true;
  }

  int add_set(Regex::CharSet set) {
    set.finish();
    out_.sets_.push_back(std::move(set));
    return static_cast<int>(out_.sets_.size()) - 1;
  }
  static Node set_node(int set) {
    Node node;
    node.kind = Node::Kind::Set;
    node.set = set;
    return node;
  }

  bool parse_alternation(Node& node) {
    Node first;
    if (!parse_concatenation(first)) return false;
    if (at_end() || peek() != '|') {
      node = std::move(first);
      return true;
    }
    node.kind = Node::Kind::Alternate;
    node.children.push_back(std::move(first));
    while (take('|')) {
      Node next;
      if (!parse_concatenation(next)) return false;
      node.children.push_back(std::move(next));
    }
    return true;
  }

  bool parse_concatenation(Node& node) {
    node.kind = Node::Kind::Concat;
    while (!at_end() && peek() != '|' && peek() != ')') {
      Node atom;
      if (!parse_atom(atom) || !parse_quantifier(atom)) return false;
      node.children.push_back(std::move(atom));
    }
    return true;
  }

  bool parse_number(int& value) {
    const std::size_t start = pos_;
    value = 0;
    while (!at_end() && peek() >= '0' && peek() <= '9') {
      value = value * 10 + (peek() - '0');
      if (value > kMaxCount) return fail("a count over " + std::to_string(kMaxCount));
      ++pos_;
    }
    return pos_ > start || fail("a number expected");
  }

  bool parse_quantifier(Node& atom) {
    if (at_end()) return true;
    int min = 1;
    int max = 1;
    const char c = peek();
    if (c == '?') {
      min = 0;
    } else if (c == '*') {
      min = 0;
      max = kUnbounded;
    } else if (c == '+') {
      max = kUnbounded;
    } else if (c == '{') {
      ++pos_;
      if (!parse_number(min)) return false;
      max = min;
      if (take(',')) {
        max = kUnbounded;
        if (!at_end() && peek() != '}' && !parse_number(max)) return false;
      }
      if (at_end() || peek() != '}') return fail("\"}\" expected");
      if (max != kUnbounded && max < min) return fail("a count {n,m} with m < n");
    } else {
      return true;
    }
    ++pos_;
    if (!at_end() && (peek() == '?' || peek() == '+'))
      return fail(std::string("a lazy or possessive quantifier (\"") + c + peek() + "\", not supported)");
    if (!at_end() && (peek() == '*' || peek() == '{')) return fail("a quantifier on a quantifier");
    if (atom.kind == Node::Kind::NotAhead || atom.kind == Node::Kind::Ahead)
      return fail("a quantifier on a lookahead");
    if (max == kUnbounded && ProgramWriter::nullable(atom))
      return fail("a repeated part that can match the empty string");
    Node repeat;
    repeat.kind = Node::Kind::Repeat;
    repeat.min = min;
    repeat.max = max;
    repeat.children.push_back(std::move(atom));
    atom = std::move(repeat);
    return true;
  }

  bool parse_atom(Node& node) {
    const char c = peek();
    if (c == '(') return parse_group(node);
    if (c == '[') return parse_class(node);
    if (c == '.') {
      ++pos_;
      Regex::CharSet any;
      any.ranges.push_back({'\n', '\n'});
      any.negated = true;
      node = set_node(add_set(std::move(any)));
      return true;
    }
    if (c == '^' || c == '$') return fail(std::string("the anchor \"") + c + "\" (not supported)");
    if (c == '*' || c == '+' || c == '?' || c == '{')
      return fail(std::string("\"") + c + "\" with nothing to repeat");
    Regex::CharSet set;
    if (!parse_escape_or_literal(set, false)) return false;
    node = set_node(add_set(std::move(set)));
    return true;
  }

  bool parse_group(Node& node) {
    if (++depth_ > kMaxDepth) return fail("groups nested over " + std::to_string(kMaxDepth) + " deep");
    ++pos_;  // (
    const bool outer_ignore_case = ignore_case_;
    Node::Kind kind = Node::Kind::Concat;
    if (take('?')) {
      if (take(':')) {
      } else if (take('!')) {
        kind = Node::Kind::NotAhead;
      } else if (take('=')) {
        kind = Node::Kind::Ahead;
      } else if (pattern_.substr(pos_, 2) == "i:") {
        pos_ += 2;
        ignore_case_ = true;
      } else {
        return fail("a group \"(?" + std::string(pattern_.substr(pos_, 1)) + "\" (not supported)");
      }
    }
    Node inner;
    if (!parse_alternation(inner)) return false;
    if (!take(')')) return fail("\")\" expected");
    ignore_case_ = outer_ignore_case;
    --depth_;
    if (kind == Node::Kind::Concat) {
      node = std::move(inner);
    } else {
      node.kind = kind;
      node.children.push_back(std::move(inner));
    }
    return true;
  }

  // \p{Name} after the "p" or "P": the categories, or false.
  bool parse_property(std::uint32_t& categories) {
    if (!take('{')) return fail("\"{\" expected after \\p");
    const std::size_t close = pattern_.find('}', pos_);
    if (close == std::string_view::npos) return fail("\"}\" expected");
    const std::string_view name = pattern_.substr(pos_, close - pos_);
    for (const PropertyName& property : kProperties) {
      if (property.name == name) {
        pos_ = close + 1;
        categories = property.categories;
        if (ignore_case_ && (categories & kCased) != 0)
          return fail("\\p{" + std::string(name) + "} inside (?i:...) (not supported)");
        return true;
      }
    }
    return fail("the property \\p{" + std::string(name) + "} (not supported)");
  }

  bool parse_hex(std::size_t digits, std::uint32_t& code) {
    code = 0;
    const bool braced = digits == 0 && take('{');
    std::size_t count = 0;
    while (!at_end() && (braced || count < digits)) {
      const char h = peek();
      const int value = h >= '0' && h <= '9'                     ? h - '0'
                        : (h | 0x20) >= 'a' && (h | 0x20) <= 'f' ? (h | 0x20) - 'a' + 10
                                                                 : -1;
      if (value < 0) break;
      code = code * 16 + static_cast<std::uint32_t>(value);
      if (code > 0x10FFFF) return fail("a code point over U+10FFFF");
      ++pos_;
      ++count;
    }
    if (count == 0 || (!braced && count < digits)) return fail("hexadecimal digits expected");
    if (braced && !take('}')) return fail("\"}\" expected");
    return true;
  }

  // One character: sets `code` for a single character, or fills `set` for a
  // class escape (\s, \p{...}); `in_class` refuses what a class cannot hold.
  bool parse_escape_or_literal(Regex::CharSet& set, bool in_class, std::uint32_t* single = nullptr) {
    std::uint32_t code = 0;
    if (peek() != '\\') {
      const std::size_t used = utf8::decode(pattern_, pos_, code);
      if (used == 0) return fail("invalid UTF-8");
      pos_ += used;
    } else {
      ++pos_;
      if (at_end()) return fail("a pattern ending in \"\\\"");
      const char e = pattern_[pos_++];
      switch (e) {
        case 'r': code = '\r'; break;
        case 'n': code = '\n'; break;
        case 't': code = '\t'; break;
        case 'f': code = '\f'; break;
        case 'v': code = '\v'; break;
        case 'x':
          if (!parse_hex(!at_end() && peek() == '{' ? 0 : 2, code)) return false;
          break;
        case 'u':
          if (!parse_hex(4, code)) return false;
          break;
        case 's':
        case 'S':
          if (e == 'S' && in_class) return fail("\\S inside a class (not supported)");
          set.white_space = true;
          set.negated = set.negated || e == 'S';
          return true;
        case 'p':
        case 'P': {
          if (e == 'P' && in_class) return fail("\\P inside a class (not supported)");
          std::uint32_t categories = 0;
          if (!parse_property(categories)) return false;
          set.categories |= categories;
          set.negated = set.negated || e == 'P';
          return true;
        }
        default:
          if ((e >= 'a' && e <= 'z') || (e >= 'A' && e <= 'Z') || (e >= '0' && e <= '9')) {
            pos_ -= 2;
            return fail(std::string("the escape \"\\") + e + "\" (not supported)");
          }
          code = static_cast<unsigned char>(e);
          if (code >= 0x80) return fail("an escaped non-ASCII character");
      }
    }
    if (single != nullptr) {
      *single = code;
      return true;
    }
    return add_literal(set, code, code);
  }

  // Adds [first, last] to `set`, with the other cases of its letters under
  // (?i). Only ASCII letters are folded (Unicode's simple case folding gives
  // them the extra U+017F for s and U+212A for k); a range that holds a
  // non-ASCII cased letter is refused under (?i).
  bool add_literal(Regex::CharSet& set, std::uint32_t first, std::uint32_t last) {
    set.ranges.push_back({first, last});
    if (!ignore_case_) return true;
    for (std::uint32_t code = first; code <= last; ++code) {
      if (code >= 0x80) {
        if (last - first > 0x10000 || (bit(unicode::general_category(code)) & kCased) != 0)
          return fail("a non-ASCII letter inside (?i:...) (not supported)");
        continue;
      }
      const std::uint32_t lower = code | 0x20;
      if (lower < 'a' || lower > 'z') continue;
      set.ranges.push_back({lower, lower});
      set.ranges.push_back({lower & ~0x20u, lower & ~0x20u});
      if (lower == 's') set.ranges.push_back({0x017F, 0x017F});
      if (lower == 'k') set.ranges.push_back({0x212A, 0x212A});
    }
    return true;
  }

  bool parse_class(Node& node) {
    ++pos_;  // [
    Regex::CharSet set;
    const bool negated = take('^');
    bool first_item = true;
    while (true) {
      if (at_end()) return fail("\"]\" expected");
      const char c = peek();
      if (c == ']' && !first_item) break;
      if (c == '[') return fail("a nested class (not supported)");
      if (c == '&' && pattern_.substr(pos_, 2) == "&&") return fail("a class intersection (not supported)");
      first_item = false;
      // An escape for a whole class (\s, \p{...}) stands alone; a character
      // may start a range.
      const bool class_escape = c == '\\' && pos_ + 1 < pattern_.size() &&
                                std::string_view("sSpP").find(pattern_[pos_ + 1]) != std::string_view::npos;
      if (class_escape) {
        if (!parse_escape_or_literal(set, true)) return false;
        continue;
      }
      std::uint32_t first = 0;
      if (!parse_escape_or_literal(set, true, &first)) return false;
      std::uint32_t last = first;
      if (pos_ + 1 < pattern_.size() && peek() == '-' && pattern_[pos_ + 1] != ']') {
        ++pos_;
        if (peek() == '\\' && pos_ + 1 < pattern_.size() &&
            std::string_view("sSpP").find(pattern_[pos_ + 1]) != std::string_view::npos)
          return fail("a range ending in a class escape");
        if (!parse_escape_or_literal(set, true, &last)) return false;
        if (last < first) return fail("a range out of order");
      }
      if (!add_literal(set, first, last)) return false;
    }
    ++pos_;  // ]
    set.negated = negated;
    node = set_node(add_set(std::move(set)));
    return true;
  }

  std::string_view pattern_;
  Regex& out_;
  std::string& error_;
  const bool optimize_;
  std::size_t pos_ = 0;
  int depth_ = 0;
  bool ignore_case_ = false;
};

bool Regex::compile(std::string_view pattern, Regex& out, std::string& error, bool optimize) {
  Regex compiled;
  Compiler compiler(pattern, compiled, error, optimize);
  if (!compiler.compile()) return false;
  out = std::move(compiled);
  return true;
}

}  // namespace embeddings::regex
