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
#include "tokenizer_json/tokenizer_json.h"

#include <algorithm>
#include <atomic>
#include <utility>

namespace embeddings {
namespace {

using tokenizer_json::describe;
using tokenizer_json::is_null_or_absent;
using tokenizer_json::kMaxId;

// A JSON tree takes up to this many bytes of memory per byte of its text
// (measured at the worst, "[0,0,0,...]", in wasm32); the small parts of the
// file are read as trees, so they are counted at this rate.
constexpr std::uint64_t kTreeBytesPerTextByte = 96;

}  // namespace

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
    // (A Unigram list's tokens take at most its text's length.)
    part.key_bytes = reader.offset() - part.at;
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
        if (model_key == "vocab" && value_type == json::Type::Array) {
          vocab_.array = true;
          return count(reader, vocab_, false);
        }
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

// ---- The pipeline's components ----------------------------------------------------

bool Tokenizer::Reader::read_pre_tokenizer() {
  const json::Value* pre = root_.find("pre_tokenizer");
  PreTokenizers& stages = t_.pre_tokenizers_;
  if (!is_null_or_absent(pre) && !reading_.read_pre_tokenizer(*pre, "pre_tokenizer", stages)) return false;
  // A ByteLevel stage maps text into GPT-2's byte alphabet, in which the
  // vocabulary is then spelled; a stage after it would see that alphabet
  // instead of the text.
  t_.byte_level_vocabulary_ = false;
  for (std::size_t i = 0; i < stages.size(); ++i) {
    t_.reads_start_ = t_.reads_start_ || stages[i]->reads_start();
    if (!stages[i]->byte_level()) continue;
    if (i + 1 != stages.size()) return fail("pre_tokenizer: a stage after ByteLevel (not supported)");
    t_.byte_level_vocabulary_ = true;
  }
  reading_.byte_level_vocabulary = t_.byte_level_vocabulary_;
  return true;
}

bool Tokenizer::Reader::read_normalizer() {
  const json::Value* normalizer = root_.find("normalizer");
  return is_null_or_absent(normalizer) ||
         reading_.read_normalizer(*normalizer, "normalizer", t_.normalizers_);
}

bool Tokenizer::Reader::read_decoder() {
  const json::Value* decoder = root_.find("decoder");
  t_.has_decoder_ = !is_null_or_absent(decoder);
  return !t_.has_decoder_ || reading_.read_decoder(*decoder, "decoder", t_.decoders_);
}

bool Tokenizer::Reader::read_post_processor() {
  const json::Value* post = root_.find("post_processor");
  if (is_null_or_absent(post)) return true;
  if (!reading_.read_post_processor(*post, "post_processor", t_.post_processors_)) return false;
  t_.offset_trims_ = reading_.offset_trims;
  return true;
}

bool Tokenizer::Reader::read_model() {
  const json::Value* model = root_.find("model");
  if (model == nullptr || !model->is_object())
    return fail("model must be an object, found " + describe(model));
  if (!reading_.read_model(*model, builder_)) return false;
  const bool array = builder_->scored_vocabulary();
  if (!vocab_.found || vocab_.array != array) {
    return fail(std::string("model.vocab must be ") + (array ? "an array" : "an object") + ", found " +
                (vocab_.found ? (vocab_.array ? "an array" : "an object") : describe(model->find("vocab"))));
  }
  if (builder_->has_merges() && !merges_.found)
    return fail("model.merges must be an array, found " + describe(model->find("merges")));
  return true;
}

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
    if (!reading_.read_bool(item, "single_word", where, token.single_word) ||
        !reading_.read_bool(item, "lstrip", where, token.lstrip) ||
        !reading_.read_bool(item, "rstrip", where, token.rstrip) ||
        !reading_.read_bool(item, "normalized", where, token.normalized) ||
        !reading_.read_bool(item, "special", where, token.special)) {
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
                               builder_->memory_bytes(vocab_.entries, vocab_.key_bytes, merges_.entries) +
                               AddedVocabulary::memory_bytes(added_tokens_.size(), added_bytes_);
  const std::uint64_t trees = small_bytes_ * kTreeBytesPerTextByte;
  const std::uint64_t needed = std::max(tables, trees);
  if (needed <= limit) return true;
  return fail("loading it needs about " + mebibytes(needed) + " of memory (model.vocab " +
              std::to_string(vocab_.entries) + " entries, model.merges " + std::to_string(merges_.entries) +
              ", added_tokens " + std::to_string(added_tokens_.size()) + "), more than the " +
              mebibytes(limit) + " available");
}

Tokenizer::Loading::Loading(std::string_view json_text, std::uint64_t memory_limit)
    : reader_(std::make_unique<Reader>(json_text, loaded_, error_)) {
  reader_->set_memory_limit(memory_limit);
}

Tokenizer::Loading::~Loading() = default;

Tokenizer::Loading::Step Tokenizer::Loading::step() {
  if (state_ != Step::More) return state_;
  if (!reader_->step(next_++)) {
    state_ = Step::Failed;
  } else if (next_ == Reader::kSteps) {
    static std::atomic<std::uint64_t> loaded_so_far{0};
    loaded_.serial_ = ++loaded_so_far;
    state_ = Step::Done;
  }
  // The reader's scratch (its indexes of the file) goes once the load is over.
  if (state_ != Step::More) reader_.reset();
  return state_;
}

Tokenizer Tokenizer::Loading::take() { return std::move(loaded_); }

bool Tokenizer::from_json(std::string_view json_text, Tokenizer& out, std::string& error,
                          std::uint64_t memory_limit) {
  Loading loading(json_text, memory_limit);
  Loading::Step step = Loading::Step::More;
  while (step == Loading::Step::More) step = loading.step();
  if (step == Loading::Step::Failed) {
    error = loading.error();
    return false;
  }
  out = loading.take();
  return true;
}

}  // namespace embeddings
