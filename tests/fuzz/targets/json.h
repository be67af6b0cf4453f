// Fuzz target: the strict JSON reader.
//
// Properties checked besides "no crash, no leak, no UB" (and no stack
// overflow: nesting is limited):
// - a refusal has a message that names a byte offset;
// - an accepted document, written back out, parses again to the same text
//   when written out a second time (strings re-escaped, numbers kept as
//   written), and every string in it is valid UTF-8.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "embeddings/common/utf8.h"
#include "embeddings/formats/json.h"
#include "findings.h"

namespace embeddings::fuzz {

inline bool write_json(const json::Value& value, std::string& out) {
  switch (value.type) {
    case json::Type::Null: out += "null"; return true;
    case json::Type::Bool: out += value.boolean ? "true" : "false"; return true;
    case json::Type::Number: out += value.text; return true;
    case json::Type::String:
      if (!utf8::is_valid(value.text)) return false;
      json::append_quoted(out, value.text);
      return true;
    case json::Type::Array:
      out += '[';
      for (std::size_t i = 0; i < value.items.size(); ++i) {
        if (i) out += ',';
        if (!write_json(value.items[i], out)) return false;
      }
      out += ']';
      return true;
    case json::Type::Object:
      out += '{';
      for (std::size_t i = 0; i < value.members.size(); ++i) {
        if (i) out += ',';
        if (!utf8::is_valid(value.members[i].first)) return false;
        json::append_quoted(out, value.members[i].first);
        out += ':';
        if (!write_json(value.members[i].second, out)) return false;
      }
      out += '}';
      return true;
  }
  return false;
}

inline void json_target(const std::uint8_t* data, std::size_t size, Findings& findings) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  json::Value value;
  std::string error;
  if (!json::parse(text, value, error)) {
    if (error.find(" at byte ") == std::string::npos) findings.fail("a refusal without an offset: " + error);
    return;
  }
  std::string once;
  if (!write_json(value, once)) return findings.fail("an accepted document holds invalid UTF-8");
  json::Value again;
  if (!json::parse(once, again, error))
    return findings.fail("the written-out document does not parse: " + error);
  std::string twice;
  if (!write_json(again, twice) || twice != once) return findings.fail("writing out is not stable");
  std::uint64_t u = 0;
  std::int64_t i = 0;
  double d = 0;
  if (value.is_number()) {
    value.as_uint64(u);
    value.as_int64(i);
    value.as_double(d);
  }
}

}  // namespace embeddings::fuzz
