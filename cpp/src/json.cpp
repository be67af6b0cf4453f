#include "embeddings/json.h"

#include <cstdlib>
#include <limits>
#include <unordered_set>

#include "embeddings/message.h"
#include "embeddings/utf8.h"

namespace embeddings::json {

const Value* Value::find(std::string_view key) const {
  if (type != Type::Object) return nullptr;
  for (const auto& member : members)
    if (member.first == key) return &member.second;
  return nullptr;
}

bool Value::as_uint64(std::uint64_t& out) const {
  if (type != Type::Number || text.empty()) return false;
  std::uint64_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return false;  // sign, fraction or exponent
    const std::uint64_t digit = static_cast<std::uint64_t>(c - '0');
    if (value > (std::numeric_limits<std::uint64_t>::max() - digit) / 10) return false;
    value = value * 10 + digit;
  }
  out = value;
  return true;
}

bool Value::as_int64(std::int64_t& out) const {
  if (type != Type::Number || text.empty()) return false;
  const bool negative = text[0] == '-';
  Value magnitude;
  magnitude.type = Type::Number;
  magnitude.text = negative ? text.substr(1) : text;
  std::uint64_t value = 0;
  if (!magnitude.as_uint64(value)) return false;
  const std::uint64_t limit = negative
                                  ? static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) + 1
                                  : static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  if (value > limit) return false;
  out = negative ? static_cast<std::int64_t>(0 - value) : static_cast<std::int64_t>(value);
  return true;
}

bool Value::as_double(double& out) const {
  if (type != Type::Number) return false;
  // The lexeme is valid JSON, so strtod reads all of it; a number too large
  // for a double gives an infinity and one too small gives 0 (ERANGE), which
  // is what a double can say about it, so errno is not consulted.
  out = std::strtod(text.c_str(), nullptr);
  return true;
}

const char* type_name(Type type) {
  switch (type) {
    case Type::Null: return "null";
    case Type::Bool: return "a boolean";
    case Type::Number: return "a number";
    case Type::String: return "a string";
    case Type::Array: return "an array";
    case Type::Object: return "an object";
  }
  return "a value";
}

namespace {

class Parser {
 public:
  Parser(std::string_view input, ParseOptions options) : input_(input), options_(options) {}

  bool parse_document(Value& out) {
    skip_whitespace();
    if (!parse_value(out, 0)) return false;
    skip_whitespace();
    if (pos_ != input_.size()) return fail("unexpected text after the JSON value");
    return true;
  }

  const std::string& error() const { return error_; }

 private:
  bool fail(const std::string& what) {
    if (error_.empty()) error_ = what + " at byte " + std::to_string(pos_);
    return false;
  }

  bool at_end() const { return pos_ >= input_.size(); }
  char peek() const { return input_[pos_]; }

  void skip_whitespace() {
    while (!at_end()) {
      const char c = peek();
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') break;
      ++pos_;
    }
  }

  bool expect_literal(std::string_view literal) {
    if (input_.substr(pos_, literal.size()) != literal) return fail("invalid literal");
    pos_ += literal.size();
    return true;
  }

  bool parse_value(Value& out, int depth) {
    if (at_end()) return fail("unexpected end of input");
    if (++values_ > options_.max_values)
      return fail("more than " + std::to_string(options_.max_values) + " values");
    switch (peek()) {
      case '{': return parse_object(out, depth + 1);
      case '[': return parse_array(out, depth + 1);
      case '"': out.type = Type::String; return parse_string(out.text);
      case 't':
        out.type = Type::Bool;
        out.boolean = true;
        return expect_literal("true");
      case 'f':
        out.type = Type::Bool;
        out.boolean = false;
        return expect_literal("false");
      case 'n': out.type = Type::Null; return expect_literal("null");
      default:
        if (peek() == '-' || (peek() >= '0' && peek() <= '9')) return parse_number(out);
        return fail("unexpected character");
    }
  }

  bool parse_object(Value& out, int depth) {
    if (depth > options_.max_depth) return fail("nesting deeper than " + std::to_string(options_.max_depth));
    out.type = Type::Object;
    ++pos_;  // '{'
    skip_whitespace();
    if (!at_end() && peek() == '}') {
      ++pos_;
      return true;
    }
    // A hash set, not a scan of the members: a tokenizer.json vocabulary has
    // 50,000+ keys, and a scan per key made loading GPT-2's take seconds.
    std::unordered_set<std::string> keys;
    for (;;) {
      skip_whitespace();
      if (at_end() || peek() != '"') return fail("expected a string key");
      std::string key;
      if (!parse_string(key)) return false;
      if (!keys.insert(key).second) return fail("duplicate key " + quote(key));
      skip_whitespace();
      if (at_end() || peek() != ':') return fail("expected ':'");
      ++pos_;
      skip_whitespace();
      out.members.emplace_back(std::move(key), Value{});
      if (!parse_value(out.members.back().second, depth)) return false;
      skip_whitespace();
      if (at_end()) return fail("unexpected end of input in an object");
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      if (peek() == '}') {
        ++pos_;
        return true;
      }
      return fail("expected ',' or '}'");
    }
  }

  bool parse_array(Value& out, int depth) {
    if (depth > options_.max_depth) return fail("nesting deeper than " + std::to_string(options_.max_depth));
    out.type = Type::Array;
    ++pos_;  // '['
    skip_whitespace();
    if (!at_end() && peek() == ']') {
      ++pos_;
      return true;
    }
    for (;;) {
      skip_whitespace();
      out.items.emplace_back();
      if (!parse_value(out.items.back(), depth)) return false;
      skip_whitespace();
      if (at_end()) return fail("unexpected end of input in an array");
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      if (peek() == ']') {
        ++pos_;
        return true;
      }
      return fail("expected ',' or ']'");
    }
  }

  bool parse_number(Value& out) {
    const std::size_t start = pos_;
    if (peek() == '-') ++pos_;
    if (at_end()) return fail("invalid number");
    if (peek() == '0') {
      ++pos_;
    } else if (peek() >= '1' && peek() <= '9') {
      while (!at_end() && peek() >= '0' && peek() <= '9') ++pos_;
    } else {
      return fail("invalid number");
    }
    if (!at_end() && peek() == '.') {
      ++pos_;
      if (at_end() || peek() < '0' || peek() > '9') return fail("invalid number");
      while (!at_end() && peek() >= '0' && peek() <= '9') ++pos_;
    }
    if (!at_end() && (peek() == 'e' || peek() == 'E')) {
      ++pos_;
      if (!at_end() && (peek() == '+' || peek() == '-')) ++pos_;
      if (at_end() || peek() < '0' || peek() > '9') return fail("invalid number");
      while (!at_end() && peek() >= '0' && peek() <= '9') ++pos_;
    }
    out.type = Type::Number;
    out.text.assign(input_.substr(start, pos_ - start));
    return true;
  }

  bool parse_hex4(std::uint32_t& out) {
    if (input_.size() - pos_ < 4) return fail("truncated \\u escape");
    out = 0;
    for (int i = 0; i < 4; ++i) {
      const char c = input_[pos_++];
      out <<= 4;
      if (c >= '0' && c <= '9')
        out |= static_cast<std::uint32_t>(c - '0');
      else if (c >= 'a' && c <= 'f')
        out |= static_cast<std::uint32_t>(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F')
        out |= static_cast<std::uint32_t>(c - 'A' + 10);
      else
        return fail("invalid \\u escape");
    }
    return true;
  }

  bool parse_string(std::string& out) {
    ++pos_;  // opening quote
    out.clear();
    for (;;) {
      if (at_end()) return fail("unterminated string");
      const unsigned char c = static_cast<unsigned char>(peek());
      if (c == '"') {
        ++pos_;
        return true;
      }
      if (c < 0x20) return fail("control character in a string");
      if (c == '\\') {
        ++pos_;
        if (at_end()) return fail("unterminated string");
        const char escape = input_[pos_++];
        switch (escape) {
          case '"': out += '"'; break;
          case '\\': out += '\\'; break;
          case '/': out += '/'; break;
          case 'b': out += '\b'; break;
          case 'f': out += '\f'; break;
          case 'n': out += '\n'; break;
          case 'r': out += '\r'; break;
          case 't': out += '\t'; break;
          case 'u': {
            std::uint32_t code = 0;
            if (!parse_hex4(code)) return false;
            if (code >= 0xDC00 && code <= 0xDFFF) return fail("lone low surrogate in a \\u escape");
            if (code >= 0xD800 && code <= 0xDBFF) {
              if (input_.substr(pos_, 2) != "\\u") return fail("lone high surrogate in a \\u escape");
              pos_ += 2;
              std::uint32_t low = 0;
              if (!parse_hex4(low)) return false;
              if (low < 0xDC00 || low > 0xDFFF) return fail("lone high surrogate in a \\u escape");
              code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
            }
            utf8::append(out, code);
            break;
          }
          default: return fail("invalid escape");
        }
        continue;
      }
      // A run of plain bytes: copy it after checking it is valid UTF-8.
      const std::size_t start = pos_;
      while (!at_end()) {
        const unsigned char b = static_cast<unsigned char>(peek());
        if (b == '"' || b == '\\' || b < 0x20) break;
        ++pos_;
      }
      const std::string_view run = input_.substr(start, pos_ - start);
      if (!utf8::is_valid(run)) {
        pos_ = start;
        return fail("invalid UTF-8 in a string");
      }
      out.append(run);
    }
  }

  std::string_view input_;
  ParseOptions options_;
  std::size_t pos_ = 0;
  std::size_t values_ = 0;
  std::string error_;
};

}  // namespace

bool parse(std::string_view input, Value& out, std::string& error, ParseOptions options) {
  Parser parser(input, options);
  out = Value{};
  if (parser.parse_document(out)) return true;
  error = parser.error();
  out = Value{};
  return false;
}

namespace {

// What follows the backslash when JSON requires `c` escaped: the letter of a
// short form, 'u' for "\\u00XX", or 0 when `c` stands for itself.
char escape_letter(unsigned char c) {
  switch (c) {
    case '"': return '"';
    case '\\': return '\\';
    case '\n': return 'n';
    case '\r': return 'r';
    case '\t': return 't';
    case '\b': return 'b';
    case '\f': return 'f';
    default: return c < 0x20 ? 'u' : 0;
  }
}

}  // namespace

std::size_t quoted_length(std::string_view text) {
  std::size_t length = 2;
  for (const char ch : text) {
    const char letter = escape_letter(static_cast<unsigned char>(ch));
    length += letter == 0 ? 1 : letter == 'u' ? 6 : 2;
  }
  return length;
}

char* write_quoted(char* out, std::string_view text) {
  static const char* const kHex = "0123456789abcdef";
  *out++ = '"';
  for (const char ch : text) {
    const unsigned char c = static_cast<unsigned char>(ch);
    const char letter = escape_letter(c);
    if (letter == 0) {
      *out++ = ch;
      continue;
    }
    *out++ = '\\';
    *out++ = letter;
    if (letter == 'u') {
      *out++ = '0';
      *out++ = '0';
      *out++ = kHex[c >> 4];
      *out++ = kHex[c & 15];
    }
  }
  *out++ = '"';
  return out;
}

void append_quoted(std::string& out, std::string_view text) {
  const std::size_t start = out.size();
  out.resize(start + quoted_length(text));
  write_quoted(&out[start], text);
}

}  // namespace embeddings::json
