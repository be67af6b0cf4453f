// Parsing a Split pattern into a tree (Node), which regex_program.cpp
// turns into the program regex.h's machine runs (regex.cpp).
#include <algorithm>

#include "embeddings/common/message.h"
#include "embeddings/text/regex/regex.h"
#include "embeddings/text/unicode/unicode.h"
#include "regex_internal.h"

namespace embeddings::regex {
namespace {

using detail::kMaxProgram;
using detail::kUnbounded;
using detail::Node;
using unicode::Category;

// A counted repeat is compiled by copying its body, so bound the copies,
// and the program they make: a file's pattern must not take the memory.
constexpr int kMaxCount = 1000;
// Parsing, compiling and matching recurse once per group level (the
// machine itself does not recurse, but a lookahead runs a nested one).
constexpr int kMaxDepth = 64;

// The categories whose members have other cases: (?i) would change them.
constexpr std::uint32_t kCased = (1u << static_cast<unsigned>(Category::Lu)) |
                                 (1u << static_cast<unsigned>(Category::Ll)) |
                                 (1u << static_cast<unsigned>(Category::Lt));

bool is_cased(std::uint32_t code) {
  return ((kCased >> static_cast<unsigned>(unicode::general_category(code))) & 1u) != 0;
}

Regex::CharSet set_of(unicode::Ranges ranges) {
  Regex::CharSet set;
  set.ranges = std::move(ranges);
  set.finish();
  return set;
}

}  // namespace

class Compiler {
 public:
  Compiler(std::string_view pattern, Regex& out, std::string& error, bool optimize)
      : pattern_(pattern), out_(out), error_(error), optimize_(optimize) {}

  bool compile(std::uint64_t max_bytes) {
    Node root;
    if (!parse_alternation(root)) return false;
    if (pos_ < pattern_.size()) return fail("unmatched \")\"");
    const std::uint64_t size = ProgramWriter::size(root);
    if (size > kMaxProgram)
      return fail("a pattern whose counted repeats make over " + std::to_string(kMaxProgram) +
                  " instructions");
    if (size * Regex::kBytesPerInstruction > max_bytes) {
      error_ = "its program of " + std::to_string(size) + " instructions would take " +
               mebibytes(size * Regex::kBytesPerInstruction) + " of memory, more than the " +
               mebibytes(max_bytes) + " left";
      return false;
    }
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
    Regex::CharSet set;
    if (c == '[') {
      if (!parse_class(set)) return false;
    } else if (c == '.') {
      ++pos_;
      set.ranges.push_back({'\n', '\n'});
      set.finish();
      set.complement();
    } else if (c == '^' || c == '$') {
      return fail(std::string("the anchor \"") + c + "\" (not supported)");
    } else if (c == '*' || c == '+' || c == '?' || c == '{') {
      return fail(std::string("\"") + c + "\" with nothing to repeat");
    } else if (at_class_escape()) {
      // A property outside a class is not case-folded under (?i), as in Oniguruma.
      if (!parse_class_escape(set)) return false;
    } else {
      std::uint32_t code = 0;
      if (!parse_character(code) || !add_literal(set, code, code)) return false;
      set.finish();
    }
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

  // Whether a class escape (\s, \S, \p{...}, \P{...}) begins here.
  bool at_class_escape() const {
    return pos_ + 1 < pattern_.size() && pattern_[pos_] == '\\' &&
           std::string_view("sSpP").find(pattern_[pos_ + 1]) != std::string_view::npos;
  }

  // \p{Name}, \p{^Name} or \P{Name} from the "{": `set` is the property's
  // characters, or their complement.
  bool parse_property(bool negated, Regex::CharSet& set) {
    if (!take('{')) return fail("\"{\" expected after \\p");
    if (take('^')) negated = !negated;
    const std::size_t close = pattern_.find('}', pos_);
    if (close == std::string_view::npos) return fail("\"}\" expected");
    const std::string_view name = pattern_.substr(pos_, close - pos_);
    unicode::Property property;
    if (!unicode::find_property(name, property)) {
      return fail("the property \\p{" + std::string(name) +
                  "} (not supported: the general categories, the scripts, Any, Assigned and ASCII are)");
    }
    pos_ = close + 1;
    set = set_of(unicode::property_ranges(property));
    if (negated) set.complement();
    return true;
  }

  // A class escape (at_class_escape()): \s and \S (White_Space), \p and \P.
  bool parse_class_escape(Regex::CharSet& set) {
    const char e = pattern_[pos_ + 1];
    pos_ += 2;
    if (e == 's' || e == 'S') {
      set = set_of(unicode::white_space_ranges());
      if (e == 'S') set.complement();
      return true;
    }
    return parse_property(e == 'P', set);
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

  // One character, written as itself or escaped (\n, \x41, \x{1F600},
  // \u00E9, \.): its code point.
  bool parse_character(std::uint32_t& code) {
    if (peek() != '\\') {
      const std::size_t used = utf8::decode(pattern_, pos_, code);
      if (used == 0) return fail("invalid UTF-8");
      pos_ += used;
      return true;
    }
    ++pos_;
    if (at_end()) return fail("a pattern ending in \"\\\"");
    const char e = pattern_[pos_++];
    switch (e) {
      case 'r': code = '\r'; return true;
      case 'n': code = '\n'; return true;
      case 't': code = '\t'; return true;
      case 'f': code = '\f'; return true;
      case 'v': code = '\v'; return true;
      case 'x': return parse_hex(!at_end() && peek() == '{' ? 0 : 2, code);
      case 'u': return parse_hex(4, code);
      default: break;
    }
    if ((e >= 'a' && e <= 'z') || (e >= 'A' && e <= 'Z') || (e >= '0' && e <= '9')) {
      pos_ -= 2;
      return fail(std::string("the escape \"\\") + e + "\" (not supported)");
    }
    code = static_cast<unsigned char>(e);
    if (code >= 0x80) return fail("an escaped non-ASCII character");
    return true;
  }

  // Adds [first, last] to `set`, with the other cases of its letters under
  // (?i). Only ASCII letters are folded (Unicode's simple case folding gives
  // them the extra U+017F for s and U+212A for k); a range that holds a
  // non-ASCII cased letter is refused under (?i). The caller finishes `set`.
  bool add_literal(Regex::CharSet& set, std::uint32_t first, std::uint32_t last) {
    set.ranges.push_back({first, last});
    if (!ignore_case_) return true;
    for (std::uint32_t code = first; code <= last; ++code) {
      if (code >= 0x80) {
        if (last - first > 0x10000 || is_cased(code))
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

  // [...] from its "[": the union of its items, intersected with each part
  // after a "&&", complemented after "[^", as Oniguruma reads classes.
  bool parse_class(Regex::CharSet& set) {
    if (++depth_ > kMaxDepth) return fail("classes nested over " + std::to_string(kMaxDepth) + " deep");
    ++pos_;  // [
    const bool negated = take('^');
    if (!parse_class_items(set, true)) return false;
    while (pattern_.substr(pos_, 2) == "&&") {
      pos_ += 2;
      Regex::CharSet other;
      if (!parse_class_items(other, false)) return false;
      set.intersect(other);
    }
    if (!take(']')) return fail("\"]\" expected");
    if (negated) set.complement();
    --depth_;
    return true;
  }

  // The items of a class up to its "]" or a "&&", as their union. A "]"
  // first in the class is a literal.
  bool parse_class_items(Regex::CharSet& set, bool first_in_class) {
    for (bool first_item = first_in_class;; first_item = false) {
      if (at_end()) return fail("\"]\" expected");
      const char c = peek();
      if ((c == ']' && !first_item) || pattern_.substr(pos_, 2) == "&&") break;
      if (!parse_class_item(set)) return false;
    }
    set.finish();
    return true;
  }

  // One item of a class: a nested class, a class escape, or a character or
  // a range of them. A class escape cannot be a range's end (Oniguruma
  // refuses [\p{L}-z] and [a-\p{L}] alike).
  bool parse_class_item(Regex::CharSet& set) {
    if (peek() == '[') {
      if (pattern_.substr(pos_, 2) == "[:") return fail("a POSIX bracket \"[:\" (not supported)");
      Regex::CharSet nested;
      if (!parse_class(nested)) return false;
      set.ranges.insert(set.ranges.end(), nested.ranges.begin(), nested.ranges.end());
      set.invalid_bytes = set.invalid_bytes || nested.invalid_bytes;
      return true;
    }
    if (at_class_escape()) {
      const std::size_t start = pos_;
      if (ignore_case_ && pattern_[pos_ + 1] != 's')
        return fail("\\" + std::string(1, pattern_[pos_ + 1]) +
                    " inside a class inside (?i:...) (not supported)");
      Regex::CharSet escape;
      if (!parse_class_escape(escape)) return false;
      if (peek_range_dash()) {
        pos_ = start;
        return fail("a class escape as the start of a range");
      }
      set.ranges.insert(set.ranges.end(), escape.ranges.begin(), escape.ranges.end());
      set.invalid_bytes = set.invalid_bytes || escape.invalid_bytes;
      return true;
    }
    std::uint32_t first = 0;
    if (!parse_character(first)) return false;
    std::uint32_t last = first;
    if (peek_range_dash()) {
      ++pos_;
      if (at_class_escape()) return fail("a range ending in a class escape");
      if (peek() == '[') return fail("a range ending in a class");
      if (!parse_character(last)) return false;
      if (last < first) return fail("a range out of order");
    }
    return add_literal(set, first, last);
  }

  // Whether a "-" that makes a range follows (not one before "]" or "&&").
  bool peek_range_dash() const {
    return pos_ + 1 < pattern_.size() && pattern_[pos_] == '-' && pattern_[pos_ + 1] != ']' &&
           pattern_.substr(pos_ + 1, 2) != "&&";
  }

  std::string_view pattern_;
  Regex& out_;
  std::string& error_;
  const bool optimize_;
  std::size_t pos_ = 0;
  int depth_ = 0;
  bool ignore_case_ = false;
};

bool Regex::compile(std::string_view pattern, Regex& out, std::string& error, bool optimize,
                    std::uint64_t max_bytes) {
  Regex compiled;
  Compiler compiler(pattern, compiled, error, optimize);
  if (!compiler.compile(max_bytes)) return false;
  out = std::move(compiled);
  return true;
}

}  // namespace embeddings::regex
