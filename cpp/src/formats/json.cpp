#include "embeddings/formats/json.h"

#include <cstdlib>
#include <limits>

#include "embeddings/formats/json_reader.h"

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

bool parse(std::string_view input, Value& out, std::string& error, ParseOptions options) {
  Reader reader(input, 0, options);
  if (reader.read_value(out) && reader.end_document()) return true;
  error = reader.error();
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
