// Reading tokenizer.json into a Tokenizer: one small function per part of
// the file, each refusing what it does not implement exactly with a message
// that names the field.
//
// Memory: the file is walked twice without building its tree. The first
// walk checks the syntax of the whole file and finds the vocabulary, the
// merges and the added tokens, counting their entries; from the counts the
// tables' memory is known before any is allocated, and a file that would not
// fit is refused. The second walk reads the small parts as trees and streams
// the big ones into the final tables.
#include "tokenizer_json.h"

#include <algorithm>
#include <atomic>
#include <utility>

namespace embeddings {
namespace tokenizer_json {

std::string describe(const json::Value& value) {
  if (value.is_number()) {
    const bool cut = value.text.size() > 40;
    return "the number " + value.text.substr(0, 40) + (cut ? "..." : "");
  }
  if (value.is_string()) return "the string " + quote(value.text);
  if (value.is_bool()) return value.boolean ? "true" : "false";
  return json::type_name(value.type);
}

std::string describe(const json::Value* value) { return value == nullptr ? "nothing" : describe(*value); }

}  // namespace tokenizer_json

namespace {

using tokenizer_json::describe;
using tokenizer_json::is_null_or_absent;
using tokenizer_json::kMaxId;
using tokenizer_json::quote;

// A JSON tree takes up to this many bytes of memory per byte of its text
// (measured at the worst, "[0,0,0,...]", in wasm32); the small parts of the
// file are read as trees, so they are counted at this rate.
constexpr std::uint64_t kTreeBytesPerTextByte = 96;

}  // namespace

// Reads an optional boolean member: absent or null keeps `value`.
bool Tokenizer::Reader::read_optional_bool(const json::Value& object, const char* key,
                                           const std::string& where, bool& value) {
  const json::Value* member = object.find(key);
  if (is_null_or_absent(member)) return true;
  if (!member->is_bool())
    return fail(where + "." + key + " must be true or false, found " + describe(*member));
  value = member->boolean;
  return true;
}

bool Tokenizer::Reader::count(json::Reader& reader, Part& part, bool object) {
  part.found = true;
  part.at = reader.position();
  std::string_view key;
  std::string key_storage;
  if (object) {
    if (!reader.begin_object()) return false;
    while (reader.next_member(key, key_storage)) {
      ++part.entries;
      part.key_bytes += key.size();
      if (!reader.skip_value()) return false;
    }
  } else {
    if (!reader.begin_array()) return false;
    while (reader.next_item()) {
      ++part.entries;
      if (!reader.skip_value()) return false;
    }
  }
  return !reader.failed();
}

bool Tokenizer::Reader::skip_small(json::Reader& reader, const std::string& key, std::vector<Small>& parts) {
  const std::size_t at = reader.position();
  parts.push_back({key, at});
  if (!reader.skip_value()) return false;
  small_bytes_ += reader.offset() - at;
  return true;
}

bool Tokenizer::Reader::locate() {
  json::Reader reader(text_);
  json::Type type;
  if (reader.peek(type) && type != json::Type::Object) {
    if (!reader.read_value(root_) || !reader.end_document()) return fail_json(reader);
    return fail("the top level must be an object, found " + describe(root_));
  }
  const auto top_member = [&](const std::string& key) {
    json::Type member_type;
    if (!reader.peek(member_type)) return false;
    if (key == "model" && member_type == json::Type::Object) {
      model_found_ = true;
      return walk_object(reader, [&](const std::string& model_key) {
        json::Type value_type;
        if (!reader.peek(value_type)) return false;
        if (model_key == "vocab" && value_type == json::Type::Object) return count(reader, vocab_, true);
        if (model_key == "merges" && value_type == json::Type::Array) return count(reader, merges_, false);
        return skip_small(reader, model_key, model_small_);
      });
    }
    if (key == "added_tokens" && member_type == json::Type::Array) return count(reader, added_, false);
    return skip_small(reader, key, small_);
  };
  if (!walk_object(reader, top_member) || !reader.end_document()) return fail_json(reader);
  return true;
}

bool Tokenizer::Reader::read_small_parts() {
  root_ = json::Value{};
  root_.type = json::Type::Object;
  for (const Small& small : small_) {
    json::Reader reader(text_, small.at);
    root_.members.emplace_back(small.key, json::Value{});
    if (!reader.read_value(root_.members.back().second)) return fail_json(reader);
  }
  if (!model_found_) return true;
  json::Value model;
  model.type = json::Type::Object;
  for (const Small& small : model_small_) {
    json::Reader reader(text_, small.at);
    model.members.emplace_back(small.key, json::Value{});
    if (!reader.read_value(model.members.back().second)) return fail_json(reader);
  }
  root_.members.emplace_back("model", std::move(model));
  return true;
}

bool Tokenizer::Reader::read_settings() {
  for (const char* key : {"truncation", "padding"}) {
    const json::Value* member = root_.find(key);
    if (!is_null_or_absent(member))
      return fail(std::string(key) + " must be null, found " + describe(*member) + " (not supported)");
  }
  return true;
}

bool Tokenizer::Reader::read_model_settings() {
  const json::Value* model = root_.find("model");
  if (model == nullptr || !model->is_object())
    return fail("model must be an object, found " + describe(model));
  const json::Value* type = model->find("type");
  if (type != nullptr && type->is_string() && type->text == "WordPiece") {
#if EMBEDDINGS_CRITICAL_MODULE
    return fail("model: WordPiece is left out of this build (it is in embeddings-full.wasm)");
#else
    return read_word_piece_settings(*model);
#endif
  }
  if (type == nullptr || !type->is_string() || type->text != "BPE")
    return fail("model.type must be \"BPE\" or \"WordPiece\", found " + describe(type) + " (not supported)");
  const json::Value* dropout = model->find("dropout");
  if (!is_null_or_absent(dropout)) {
    return fail("model.dropout must be null, found " + describe(*dropout) +
                " (BPE dropout makes encoding random; not supported)");
  }
  if (!read_optional_bool(*model, "byte_fallback", "model", settings_.byte_fallback)) return false;
  for (const char* key : {"continuing_subword_prefix", "end_of_word_suffix"}) {
    const json::Value* member = model->find(key);
    if (is_null_or_absent(member)) continue;
    if (!member->is_string()) {
      return fail(std::string("model.") + key + " must be null or a string, found " + describe(*member));
    }
    if (!read_affix(*member, key,
                    key[0] == 'c' ? settings_.continuing_subword_prefix : settings_.end_of_word_suffix))
      return false;
  }
#if EMBEDDINGS_CRITICAL_MODULE
  if (settings_.byte_fallback || !settings_.continuing_subword_prefix.empty() ||
      !settings_.end_of_word_suffix.empty()) {
    return fail(
        "model: byte_fallback, continuing_subword_prefix and end_of_word_suffix are left out of this "
        "build (they are in embeddings-full.wasm)");
  }
#endif
  settings_.by_characters = !t_.byte_level_vocabulary_;
  if (!read_optional_bool(*model, "fuse_unk", "model", settings_.fuse_unk) ||
      !read_optional_bool(*model, "ignore_merges", "model", settings_.ignore_merges)) {
    return false;
  }
  unk_ = model->find("unk_token");
  if (!is_null_or_absent(unk_) && !unk_->is_string())
    return fail("model.unk_token must be null or a string, found " + describe(*unk_));
  if (!vocab_.found) return fail("model.vocab must be an object, found " + describe(model->find("vocab")));
  if (!merges_.found) return fail("model.merges must be an array, found " + describe(model->find("merges")));
  return true;
}

// Kept as the bytes a vocabulary entry holds (GPT-2's alphabet decoded).
bool Tokenizer::Reader::read_affix(const json::Value& value, const char* key, std::string& bytes) {
  if (t_.byte_level_vocabulary_ ? !byte_level::decode(value.text, bytes) : (bytes = value.text, false)) {
    return fail(std::string("model.") + key + " " + quote(value.text) +
                " is not a byte-level string (the vocabulary is in GPT-2's byte alphabet)");
  }
  if (key[0] == 'c') prefix_ = value.text;
  return true;
}

#if !EMBEDDINGS_CRITICAL_MODULE
// tokenizers' WordPiece: unk_token, continuing_subword_prefix and
// max_input_chars_per_word are required, as there; no merges.
bool Tokenizer::Reader::read_word_piece_settings(const json::Value& model) {
  settings_.word_piece = true;
  settings_.by_characters = !t_.byte_level_vocabulary_;
  unk_ = model.find("unk_token");
  if (unk_ == nullptr || !unk_->is_string())
    return fail("model.unk_token must be a string, found " + describe(unk_));
  const json::Value* prefix = model.find("continuing_subword_prefix");
  if (prefix == nullptr || !prefix->is_string())
    return fail("model.continuing_subword_prefix must be a string, found " + describe(prefix));
  if (!read_affix(*prefix, "continuing_subword_prefix", settings_.continuing_subword_prefix) ||
      !read_count_member(model, "max_input_chars_per_word", "model", settings_.max_input_chars_per_word)) {
    return false;
  }
  if (!vocab_.found) return fail("model.vocab must be an object, found " + describe(model.find("vocab")));
  return true;
}
#endif

bool Tokenizer::Reader::read_added_tokens() {
  if (!added_.found) {
    const json::Value* added = root_.find("added_tokens");
    if (is_null_or_absent(added)) return true;
    return fail("added_tokens must be an array, found " + describe(*added));
  }
  json::Reader reader(text_, added_.at);
  std::unordered_map<std::int64_t, std::size_t> by_id;
  added_tokens_.reserve(added_.entries);
  json::Value item;
  reader.begin_array();
  for (std::size_t i = 0; reader.next_item(); ++i) {
    if (!reader.read_value(item)) return fail_json(reader);
    const std::string where = "added_tokens[" + std::to_string(i) + "]";
    if (!item.is_object()) return fail(where + " must be an object, found " + describe(item));
    const json::Value* id = item.find("id");
    std::int64_t id_value = -1;
    if (id == nullptr || !id->as_int64(id_value) || id_value < 0 || id_value > kMaxId) {
      return fail(where + ".id must be an integer from 0 to " + std::to_string(kMaxId) + ", found " +
                  describe(id));
    }
    const json::Value* content = item.find("content");
    if (content == nullptr || !content->is_string() || content->text.empty())
      return fail(where + ".content must be a non-empty string, found " + describe(content));
    AddedToken token;
    token.id = static_cast<std::int32_t>(id_value);
    token.content = content->text;
    if (!read_optional_bool(item, "single_word", where, token.single_word) ||
        !read_optional_bool(item, "lstrip", where, token.lstrip) ||
        !read_optional_bool(item, "rstrip", where, token.rstrip) ||
        !read_optional_bool(item, "normalized", where, token.normalized) ||
        !read_optional_bool(item, "special", where, token.special)) {
      return false;
    }
    if (const auto seen = added_by_content_.find(token.content); seen != added_by_content_.end()) {
      return fail(where + ": content " + quote(token.content) + " repeats added_tokens[" +
                  std::to_string(seen->second) + "]");
    }
    if (const auto seen = by_id.find(id_value); seen != by_id.end()) {
      return fail(where + ": id " + std::to_string(id_value) + " is also the id of added_tokens[" +
                  std::to_string(seen->second) + "]");
    }
    added_by_content_.emplace(token.content, i);
    by_id.emplace(id_value, i);
    added_bytes_ += token.content.size();
    added_tokens_.push_back(std::move(token));
  }
  return !reader.failed() || fail_json(reader);
}

bool Tokenizer::Reader::check_memory(std::uint64_t limit) {
  const std::size_t tokens = vocab_.entries + added_tokens_.size();
  const std::uint64_t tables = Vocabulary::memory_bytes(tokens, vocab_.key_bytes + added_bytes_) +
                               bpe::MergeTable::memory_bytes(merges_.entries) +
                               AddedVocabulary::memory_bytes(added_tokens_.size(), added_bytes_);
  const std::uint64_t trees = small_bytes_ * kTreeBytesPerTextByte;
  const std::uint64_t needed = std::max(tables, trees);
  if (needed <= limit) return true;
  return fail("loading it needs about " + mebibytes(needed) + " of memory (model.vocab " +
              std::to_string(vocab_.entries) + " entries, model.merges " + std::to_string(merges_.entries) +
              ", added_tokens " + std::to_string(added_tokens_.size()) + "), more than the " +
              mebibytes(limit) + " available");
}

bool Tokenizer::from_json(std::string_view json_text, Tokenizer& out, std::string& error,
                          std::uint64_t memory_limit) {
  Tokenizer loaded;
  Reader reader(json_text, loaded, error);
  if (!reader.read(memory_limit)) return false;
  static std::atomic<std::uint64_t> loaded_so_far{0};
  loaded.serial_ = ++loaded_so_far;
  out = std::move(loaded);
  return true;
}

}  // namespace embeddings
