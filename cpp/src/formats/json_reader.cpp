#include "embeddings/formats/json_reader.h"

#include <cstdint>
#include <unordered_set>

#include "embeddings/common/message.h"
#include "embeddings/common/utf8.h"

namespace embeddings::json {

Reader::Reader(std::string_view input, std::size_t start, ParseOptions options)
    : input_(input), options_(options), pos_(start) {}

bool Reader::fail(const std::string& what) {
  if (error_.empty()) error_ = what + " at byte " + std::to_string(pos_);
  return false;
}

void Reader::skip_whitespace() {
  const char* const text = input_.data();
  const std::size_t size = input_.size();
  while (pos_ < size) {
    const char c = text[pos_];
    if (c != ' ' && c != '\t' && c != '\n' && c != '\r') break;
    ++pos_;
  }
}

bool Reader::expect_literal(std::string_view literal) {
  if (input_.substr(pos_, literal.size()) != literal) return fail("invalid literal");
  pos_ += literal.size();
  return true;
}

bool Reader::peek(Type& type) {
  if (failed()) return false;
  skip_whitespace();
  if (at_end()) return fail("unexpected end of input");
  switch (peek_char()) {
    case '{': type = Type::Object; return true;
    case '[': type = Type::Array; return true;
    case '"': type = Type::String; return true;
    case 't':
    case 'f': type = Type::Bool; return true;
    case 'n': type = Type::Null; return true;
    default:
      if (peek_char() == '-' || (peek_char() >= '0' && peek_char() <= '9')) {
        type = Type::Number;
        return true;
      }
      return fail("unexpected character");
  }
}

std::size_t Reader::position() {
  skip_whitespace();
  return pos_;
}

bool Reader::read_value(Value& out) {
  out = Value{};
  if (failed()) return false;
  skip_whitespace();
  return value(&out, first_.size());
}

bool Reader::skip_value() {
  if (failed()) return false;
  skip_whitespace();
  return value(nullptr, first_.size());
}

bool Reader::read_string(std::string& out) {
  Type type;
  if (!peek(type)) return false;
  if (type != Type::String) return fail("expected a string");
  return string(out);
}

bool Reader::read_string(std::string_view& out, std::string& storage) {
  Type type;
  if (!peek(type)) return false;
  if (type != Type::String) return fail("expected a string");
  return string(out, &storage);
}

bool Reader::read_number(std::string_view& lexeme) {
  Type type;
  if (!peek(type)) return false;
  if (type != Type::Number) return fail("expected a number");
  return number(lexeme);
}

bool Reader::open(char bracket) {
  if (failed()) return false;
  skip_whitespace();
  if (at_end() || peek_char() != bracket)
    return fail(bracket == '{' ? "expected an object" : "expected an array");
  if (first_.size() + 1 > static_cast<std::size_t>(options_.max_depth))
    return fail("nesting deeper than " + std::to_string(options_.max_depth));
  ++pos_;
  first_.push_back(true);
  return true;
}

// Before the next member or item: true when one follows, false after the
// closing bracket (or on error).
bool Reader::next(char close) {
  if (failed() || first_.empty()) return false;
  skip_whitespace();
  if (first_.back()) {
    first_.back() = false;
    if (!at_end() && peek_char() == close) {
      ++pos_;
      first_.pop_back();
      return false;
    }
    return true;
  }
  if (at_end())
    return fail(close == '}' ? "unexpected end of input in an object"
                             : "unexpected end of input in an array");
  if (peek_char() == ',') {
    ++pos_;
    skip_whitespace();
    return true;
  }
  if (peek_char() == close) {
    ++pos_;
    first_.pop_back();
    return false;
  }
  return fail(close == '}' ? "expected ',' or '}'" : "expected ',' or ']'");
}

bool Reader::begin_object() { return open('{'); }

bool Reader::next_member(std::string& key) {
  if (!next('}')) return false;
  if (at_end() || peek_char() != '"') return fail("expected a string key");
  if (!string(key)) return false;
  skip_whitespace();
  if (at_end() || peek_char() != ':') return fail("expected ':'");
  ++pos_;
  return true;
}

bool Reader::next_member(std::string_view& key, std::string& storage) {
  if (!next('}')) return false;
  if (at_end() || peek_char() != '"') return fail("expected a string key");
  if (!string(key, &storage)) return false;
  skip_whitespace();
  if (at_end() || peek_char() != ':') return fail("expected ':'");
  ++pos_;
  return true;
}

bool Reader::begin_array() { return open('['); }

bool Reader::next_item() { return next(']'); }

bool Reader::end_document() {
  if (failed()) return false;
  skip_whitespace();
  if (pos_ != input_.size()) return fail("unexpected text after the JSON value");
  return true;
}

bool Reader::value(Value* out, std::size_t depth) {
  if (at_end()) return fail("unexpected end of input");
  if (++values_ > options_.max_values)
    return fail("more than " + std::to_string(options_.max_values) + " values");
  switch (peek_char()) {
    case '{': return object(out, depth + 1);
    case '[': return array(out, depth + 1);
    case '"':
      if (out == nullptr) {
        std::string_view skipped;
        return string(skipped, nullptr);
      }
      out->type = Type::String;
      return string(out->text);
    case 't':
    case 'f': {
      const bool truth = peek_char() == 't';
      if (out != nullptr) {
        out->type = Type::Bool;
        out->boolean = truth;
      }
      return expect_literal(truth ? "true" : "false");
    }
    case 'n':
      if (out != nullptr) out->type = Type::Null;
      return expect_literal("null");
    default:
      if (peek_char() == '-' || (peek_char() >= '0' && peek_char() <= '9')) {
        std::string_view lexeme;
        if (!number(lexeme)) return false;
        if (out != nullptr) {
          out->type = Type::Number;
          out->text.assign(lexeme);
        }
        return true;
      }
      return fail("unexpected character");
  }
}

bool Reader::object(Value* out, std::size_t depth) {
  if (depth > static_cast<std::size_t>(options_.max_depth))
    return fail("nesting deeper than " + std::to_string(options_.max_depth));
  if (out != nullptr) out->type = Type::Object;
  ++pos_;  // '{'
  skip_whitespace();
  if (!at_end() && peek_char() == '}') {
    ++pos_;
    return true;
  }
  // A hash set, not a scan of the members: a tokenizer.json vocabulary has
  // 50,000+ keys, and a scan per key made loading GPT-2's take seconds.
  std::unordered_set<std::string> keys;
  std::string key;
  for (;;) {
    skip_whitespace();
    if (at_end() || peek_char() != '"') return fail("expected a string key");
    if (!string(key)) return false;
    if (out != nullptr && !keys.insert(key).second) return fail("duplicate key " + quote(key));
    skip_whitespace();
    if (at_end() || peek_char() != ':') return fail("expected ':'");
    ++pos_;
    skip_whitespace();
    Value* member = nullptr;
    if (out != nullptr) {
      out->members.emplace_back(std::move(key), Value{});
      member = &out->members.back().second;
    }
    if (!value(member, depth)) return false;
    skip_whitespace();
    if (at_end()) return fail("unexpected end of input in an object");
    if (peek_char() == ',') {
      ++pos_;
      continue;
    }
    if (peek_char() == '}') {
      ++pos_;
      return true;
    }
    return fail("expected ',' or '}'");
  }
}

bool Reader::array(Value* out, std::size_t depth) {
  if (depth > static_cast<std::size_t>(options_.max_depth))
    return fail("nesting deeper than " + std::to_string(options_.max_depth));
  if (out != nullptr) out->type = Type::Array;
  ++pos_;  // '['
  skip_whitespace();
  if (!at_end() && peek_char() == ']') {
    ++pos_;
    return true;
  }
  for (;;) {
    skip_whitespace();
    Value* item = nullptr;
    if (out != nullptr) item = &out->items.emplace_back();
    if (!value(item, depth)) return false;
    skip_whitespace();
    if (at_end()) return fail("unexpected end of input in an array");
    if (peek_char() == ',') {
      ++pos_;
      continue;
    }
    if (peek_char() == ']') {
      ++pos_;
      return true;
    }
    return fail("expected ',' or ']'");
  }
}

bool Reader::number(std::string_view& lexeme) {
  const std::size_t start = pos_;
  const auto digits = [&] {
    while (!at_end() && peek_char() >= '0' && peek_char() <= '9') ++pos_;
  };
  const auto digit_next = [&] { return !at_end() && peek_char() >= '0' && peek_char() <= '9'; };
  if (peek_char() == '-') ++pos_;
  if (at_end()) return fail("invalid number");
  if (peek_char() == '0') {
    ++pos_;
  } else if (peek_char() >= '1' && peek_char() <= '9') {
    digits();
  } else {
    return fail("invalid number");
  }
  if (!at_end() && peek_char() == '.') {
    ++pos_;
    if (!digit_next()) return fail("invalid number");
    digits();
  }
  if (!at_end() && (peek_char() == 'e' || peek_char() == 'E')) {
    ++pos_;
    if (!at_end() && (peek_char() == '+' || peek_char() == '-')) ++pos_;
    if (!digit_next()) return fail("invalid number");
    digits();
  }
  lexeme = input_.substr(start, pos_ - start);
  return true;
}

bool Reader::hex4(std::uint32_t& out) {
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

bool Reader::string(std::string_view& out, std::string* storage) {
  // The common case, a string without escapes: one run of plain bytes up to
  // the closing quote, checked (the same checks, in the same order, as the
  // loop below) and viewed where it is.
  const std::size_t start = pos_ + 1;
  const auto* const base = reinterpret_cast<const unsigned char*>(input_.data());
  const unsigned char* p = base + start;
  const unsigned char* const end = base + input_.size();
  unsigned char high = 0;
  for (; p < end && *p != '"' && *p != '\\' && *p >= 0x20; ++p) high |= *p;
  if (p < end && *p == '"') {
    const std::string_view run = input_.substr(start, static_cast<std::size_t>(p - base) - start);
    if (high >= 0x80 && !utf8::is_valid(run)) {
      pos_ = start;
      return fail("invalid UTF-8 in a string");
    }
    pos_ = static_cast<std::size_t>(p - base) + 1;
    out = run;
    return true;
  }
  std::string& decoded = storage != nullptr ? *storage : scratch_;
  if (!string(decoded)) return false;
  out = decoded;
  return true;
}

bool Reader::string(std::string& out) {
  ++pos_;  // opening quote
  out.clear();
  for (;;) {
    if (at_end()) return fail("unterminated string");
    const unsigned char c = static_cast<unsigned char>(peek_char());
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
          if (!hex4(code)) return false;
          if (code >= 0xDC00 && code <= 0xDFFF) return fail("lone low surrogate in a \\u escape");
          if (code >= 0xD800 && code <= 0xDBFF) {
            if (input_.substr(pos_, 2) != "\\u") return fail("lone high surrogate in a \\u escape");
            pos_ += 2;
            std::uint32_t low = 0;
            if (!hex4(low)) return false;
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
    // A run of plain bytes: copy it after checking it is valid UTF-8 (a
    // pointer loop, and the check only for runs with non-ASCII bytes: this
    // is most of the time spent reading a tokenizer.json).
    const std::size_t start = pos_;
    const unsigned char* p = reinterpret_cast<const unsigned char*>(input_.data()) + pos_;
    const unsigned char* const end = reinterpret_cast<const unsigned char*>(input_.data()) + input_.size();
    unsigned char high = 0;
    for (; p < end && *p != '"' && *p != '\\' && *p >= 0x20; ++p) high |= *p;
    pos_ = static_cast<std::size_t>(p - reinterpret_cast<const unsigned char*>(input_.data()));
    const std::string_view run = input_.substr(start, pos_ - start);
    if (high >= 0x80 && !utf8::is_valid(run)) {
      pos_ = start;
      return fail("invalid UTF-8 in a string");
    }
    out.append(run);
  }
}

}  // namespace embeddings::json
