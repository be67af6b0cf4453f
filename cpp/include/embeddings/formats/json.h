// A small, strict JSON reader (RFC 8259) for the model's metadata files:
// the safetensors header, config.json and tokenizer.json.
//
// Why not a library: the parser sits on the untrusted-input boundary, so it
// must never throw, never recurse without bound and never allocate from a
// size it has not checked. It returns a named error instead.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace embeddings::json {

enum class Type { Null, Bool, Number, String, Array, Object };

// One parsed JSON value. Numbers keep their source text so that integers
// larger than 2^53 (byte offsets of big files) are read exactly.
class Value {
 public:
  Type type = Type::Null;
  bool boolean = false;
  std::string text;          // String contents (decoded UTF-8) or the number's lexeme.
  std::vector<Value> items;  // Array elements.
  std::vector<std::pair<std::string, Value>> members;  // Object members, in order.

  bool is_null() const { return type == Type::Null; }
  bool is_bool() const { return type == Type::Bool; }
  bool is_number() const { return type == Type::Number; }
  bool is_string() const { return type == Type::String; }
  bool is_array() const { return type == Type::Array; }
  bool is_object() const { return type == Type::Object; }

  // Object member lookup; nullptr when absent or when this is not an object.
  // Duplicate keys are rejected by the parser, so the first match is the only one.
  const Value* find(std::string_view key) const;

  // True and sets `out` when this is a number written as a non-negative
  // integer (no fraction, no exponent) that fits in 64 bits.
  bool as_uint64(std::uint64_t& out) const;
  // True and sets `out` when this is an integer (as above, sign allowed) that fits.
  bool as_int64(std::int64_t& out) const;
  // True and sets `out` for any number.
  bool as_double(double& out) const;
};

// Name of a type, for error messages ("an object", "a string", ...).
const char* type_name(Type type);

struct ParseOptions {
  // Nesting deeper than this is an error, so hostile input cannot exhaust the stack.
  int max_depth = 64;
  // More values than this (counting every array element, object member and
  // nested value) is an error: for files whose size in memory must stay small.
  std::size_t max_values = static_cast<std::size_t>(-1);
};

// Parses `input` as one JSON document. On success returns true and fills
// `out`; on failure returns false and sets `error` to a message that names
// the problem and its byte offset.
bool parse(std::string_view input, Value& out, std::string& error, ParseOptions options = {});

// Appends `text` to `out` as a JSON string literal (with quotes), escaping
// what JSON requires. `text` must be valid UTF-8.
void append_quoted(std::string& out, std::string_view text);
// The same literal's length in bytes, and the literal written at `out`
// (quoted_length(text) bytes; returns the end): for a caller that sizes its
// buffer before it writes.
std::size_t quoted_length(std::string_view text);
char* write_quoted(char* out, std::string_view text);

}  // namespace embeddings::json
