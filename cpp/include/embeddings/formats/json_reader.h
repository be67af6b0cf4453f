// Reads one JSON document a piece at a time, with parse()'s rules and
// messages (json.h), so that a big file can be walked without building its
// tree: a tokenizer.json vocabulary of 400,000 entries becomes the
// tokenizer's tables directly instead of a tree ten times the file's size.
//
//   Reader reader(text);
//   std::string key;
//   if (reader.begin_object())
//     while (reader.next_member(key)) reader.skip_value();   // or read_string(), ...
//   if (reader.failed()) ... reader.error() ...
//
// A walk that a call refuses (wrong type, bad syntax) leaves failed() true;
// every later call then returns false. Keys are checked for duplicates only
// in the trees read_value() builds; a caller that walks an object itself and
// cares checks its own keys.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "embeddings/formats/json.h"

namespace embeddings::json {

class Reader {
 public:
  // Reads `input` from byte `start` (a value's first byte, as position()
  // gave it), so a second walk can go straight to a part found by the first.
  // Error messages give byte offsets into the whole of `input`.
  explicit Reader(std::string_view input, std::size_t start = 0, ParseOptions options = {});

  // The type of the next value, which is not consumed; false at the end of
  // the input or before a character that cannot start a value.
  bool peek(Type& type);
  // The byte where the next value starts (after whitespace).
  std::size_t position();
  // The byte after what has been read so far (so after a value: its end).
  std::size_t offset() const { return pos_; }

  // The next value as a tree (parse()'s tree, duplicate keys refused).
  bool read_value(Value& out);
  // Checks and passes the next value without building anything.
  bool skip_value();
  bool read_string(std::string& out);
  // The same without a copy where it can: a string without escapes is a
  // view of the input; one with escapes is decoded into `storage` and
  // viewed there. (Loading a tokenizer.json reads a million short strings.)
  bool read_string(std::string_view& out, std::string& storage);
  // A number's source text (see Value::text).
  bool read_number(std::string_view& lexeme);

  // Objects: begin_object(), then next_member() before each member's value;
  // next_member() is false after the last member (and the closing brace).
  bool begin_object();
  bool next_member(std::string& key);
  // The same, the key read as read_string(out, storage) reads a string.
  bool next_member(std::string_view& key, std::string& storage);
  // Arrays: begin_array(), then next_item() before each item.
  bool begin_array();
  bool next_item();

  // After the top-level value: only whitespace may follow.
  bool end_document();

  bool failed() const { return !error_.empty(); }
  const std::string& error() const { return error_; }
  // Records the caller's own error at the current position (the first one
  // recorded stays); returns false.
  bool fail(const std::string& what);

 private:
  // These three run for every byte between a document's tokens. The page's
  // module is built for size (-Oz), which inlines nothing by itself: as
  // calls (and the calls to string_view's own accessors inside them) they
  // were about a quarter of a tokenizer.json's load there. Forced inline,
  // they cost no size.
  [[gnu::always_inline]] bool at_end() const { return pos_ >= input_.size(); }
  [[gnu::always_inline]] char peek_char() const { return input_.data()[pos_]; }
  void skip_whitespace();
  bool expect_literal(std::string_view literal);
  bool value(Value* out, std::size_t depth);  // out == nullptr: check and skip.
  bool object(Value* out, std::size_t depth);
  bool array(Value* out, std::size_t depth);
  bool number(std::string_view& lexeme);
  bool hex4(std::uint32_t& out);
  bool string(std::string& out);
  // The string at pos_ as a view: of the input when it has no escape, else
  // of *storage (scratch_ when storage is null: skipping).
  bool string(std::string_view& out, std::string* storage);
  bool open(char bracket);
  bool next(char close);

  std::string_view input_;
  ParseOptions options_;
  std::size_t pos_ = 0;
  std::size_t values_ = 0;  // Values begun so far, against options_.max_values.
  std::string error_;
  std::string scratch_;      // Strings that skip_value() passes over.
  std::vector<bool> first_;  // Per container begun by the caller: nothing read from it yet.
};

}  // namespace embeddings::json
