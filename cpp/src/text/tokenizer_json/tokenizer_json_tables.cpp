// The big parts of tokenizer.json, streamed from the file into the final
// tables: the vocabulary, the ids of the added tokens, the merges; then the
// model and the tokenizer's final tables.
#include <algorithm>

#include "embeddings/common/merge_sort.h"
#include "embeddings/common/utf8.h"
#include "tokenizer_json/tokenizer_json.h"

namespace embeddings {

using tokenizer_json::describe;
using tokenizer_json::is_null_or_absent;
using tokenizer_json::kMaxId;

std::string Tokenizer::Reader::key_of(std::string_view bytes, bool findable) const {
  if (!findable || !t_.byte_level_vocabulary_) return std::string(bytes);
  std::string key;
  byte_level::append_encoded(key, bytes);
  return key;
}

bool Tokenizer::Reader::index_vocabulary() {
  Vocabulary::Clash clash;
  if (t_.vocabulary_.index(clash)) return true;
  const std::string first = key_of(clash.first, clash.first_findable);
  const std::string second = key_of(clash.second, clash.second_findable);
  if (clash.id >= 0) {
    return fail("model.vocab: tokens " + quote(first) + " and " + quote(second) + " both have id " +
                std::to_string(clash.id));
  }
  return fail("model.vocab has the token " + quote(first) + " twice");
}

bool Tokenizer::Reader::read_vocabulary() {
  if (vocab_.array) return read_listed_vocabulary();
  Vocabulary& vocabulary = t_.vocabulary_;
  vocabulary.reserve(vocab_.entries + added_tokens_.size(), vocab_.key_bytes + added_bytes_);
  json::Reader reader(text_, vocab_.at);
  std::string_view key;
  std::string key_storage;
  json::Value value;
  value.type = json::Type::Number;
  std::string_view lexeme;
  reader.begin_object();
  while (reader.next_member(key, key_storage)) {
    if (key.empty()) return fail("model.vocab has an empty token");
    json::Type type;
    std::int64_t id = -1;
    const bool number = reader.peek(type) && type == json::Type::Number && reader.read_number(lexeme);
    // Every id of a real file is a few plain digits: read them here rather
    // than through a json::Value.
    if (number && !lexeme.empty() && lexeme.size() <= 10 &&
        std::all_of(lexeme.begin(), lexeme.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      id = 0;
      for (const char c : lexeme) id = id * 10 + (c - '0');
    } else if (number) {
      value.text.assign(lexeme);
      if (!value.as_int64(id)) id = -1;
    }
    if (number && id > kMaxId) value.text.assign(lexeme);
    if (!number && !reader.failed() && !reader.read_value(value)) return fail_json(reader);
    if (!number || id < 0 || id > kMaxId) {
      return fail("model.vocab[" + quote(key) + "] must be an integer id from 0 to " +
                  std::to_string(kMaxId) + ", found " + describe(value));
    }
    if (!add_entry(key, static_cast<std::int32_t>(id))) return false;
  }
  if (reader.failed()) return fail_json(reader);
  return index_vocabulary();
}

bool Tokenizer::Reader::add_entry(std::string_view key, std::int32_t id) {
  Vocabulary& vocabulary = t_.vocabulary_;
  std::string_view bytes;
  if (!t_.byte_level_vocabulary_) {
    vocabulary.add(id, key, true);  // Spelled as text: the key is the token's bytes.
  } else if (key_decoder_.decode(key, bytes)) {
    vocabulary.add(id, bytes, true);
  } else if (added_by_content_.count(std::string(key)) != 0) {
    // Decoded as its raw text, like Hugging Face's ByteLevel decoder does.
    vocabulary.add(id, key, false);
    raw_ids_.emplace(std::string(key), id);
  } else {
    return fail(
        "model.vocab: token " + quote(key) +
        " is not a byte-level string (it has a character outside GPT-2's 256-character byte alphabet)");
  }
  return true;
}

bool Tokenizer::Reader::check_added_ids() {
  std::vector<std::size_t> order(added_tokens_.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  merge_sort(order, [&](std::size_t a, std::size_t b) { return added_tokens_[a].id < added_tokens_[b].id; });
  const auto model_size = static_cast<std::int64_t>(vocab_.entries);
  std::int64_t max_added = -1;
  bool added_any = false;
  for (const std::size_t i : order) {
    const AddedToken& token = added_tokens_[i];
    const std::int32_t in_vocab = id_of_key(token.content);
    std::int64_t expected;
    if (in_vocab >= 0) {
      expected = in_vocab;
      if (token.id != expected) {
        return fail("added_tokens[" + std::to_string(i) + "] (" + quote(token.content) + ") has id " +
                    std::to_string(token.id) + " but model.vocab gives it id " + std::to_string(expected));
      }
    } else {
      expected = max_added < 0 ? model_size : (max_added >= model_size ? max_added + 1 : model_size);
      if (token.id != expected) {
        return fail("added_tokens[" + std::to_string(i) + "] (" + quote(token.content) + ") has id " +
                    std::to_string(token.id) + ", but Hugging Face tokenizers would give it id " +
                    std::to_string(expected) +
                    " (a token that is not in model.vocab takes the next id after the vocabulary and the "
                    "added tokens before it)");
      }
      // Hugging Face's ByteLevel decoder turns a token into bytes through the
      // byte alphabet when every character is in it, else uses its raw text.
      t_.vocabulary_.add(token.id,
                         t_.byte_level_vocabulary_ && byte_level::decode(token.content, bytes_)
                             ? std::string_view(bytes_)
                             : std::string_view(token.content),
                         false);
      added_any = true;
    }
    max_added = std::max(max_added, expected);
  }
  return !added_any || index_vocabulary();
}

bool Tokenizer::Reader::read_merge(json::Reader& reader, std::size_t i, std::string_view& left,
                                   std::string_view& right) {
  json::Type type;
  if (!reader.peek(type)) return fail_json(reader);
  const std::size_t at = reader.position();
  if (type == json::Type::String) {
    std::string_view text;
    if (!reader.read_string(text, item_.text)) return fail_json(reader);
    const std::size_t space = text.find(' ');
    if (space == std::string_view::npos || text.find(' ', space + 1) != std::string_view::npos)
      return fail(merge_name(i) + " " + quote(text) + " must be two tokens separated by one space");
    left = text.substr(0, space);
    right = text.substr(space + 1);
    return true;
  }
  // A ["left", "right"] pair, read without building its tree (Gemma 3 has
  // half a million of them); anything else is read again as a tree for the
  // message (the first walk has checked its syntax).
  json::Type part;
  if (type == json::Type::Array && reader.begin_array() && reader.next_item() && reader.peek(part) &&
      part == json::Type::String && reader.read_string(left, pair_left_) && reader.next_item() &&
      reader.peek(part) && part == json::Type::String && reader.read_string(right, pair_right_) &&
      !reader.next_item() && !reader.failed()) {
    return true;
  }
  json::Reader again(text_, at);
  if (!again.read_value(item_)) return fail_json(again);
  return fail(merge_name(i) + " must be a \"left right\" string or a [\"left\", \"right\"] pair, found " +
              describe(item_));
}

bool Tokenizer::Reader::read_merges() {
  if (!builder_->has_merges()) return true;  // (read_model() requires them where they are.)
  bpe::MergeTable& merges = *builder_->merges();
  const std::string_view prefix = builder_->merge_prefix();
  const Vocabulary& vocabulary = t_.vocabulary_;
  merges.reserve(merges_.entries);
  json::Reader reader(text_, merges_.at);
  std::string_view left, right;
  std::string merged;
  reader.begin_array();
  for (std::uint32_t i = 0; reader.next_item(); ++i) {
    if (!read_merge(reader, i, left, right)) return false;
    // As tokenizers builds the merged token: the right token less the length
    // of continuing_subword_prefix (whether or not it starts with it).
    const bool prefixfits =
        prefix.empty() || (right.size() >= prefix.size() && utf8::is_valid(right.substr(prefix.size())));
    std::int32_t left_id = -1, right_id = -1, merged_id = -1;
    // Both parts in the byte alphabet (every merge of a byte-level file, which
    // has no prefix): the merged token's bytes are theirs joined, so nothing
    // is decoded twice.
    std::size_t left_length = byte_level::kNotByteLevel, right_length = byte_level::kNotByteLevel;
    if (t_.byte_level_vocabulary_ && prefix.empty()) {
      if (merged_bytes_.size() < left.size() + right.size()) merged_bytes_.resize(left.size() + right.size());
      left_length = byte_level::decode_into(left, merged_bytes_.data());
      if (left_length != byte_level::kNotByteLevel)
        right_length = byte_level::decode_into(right, merged_bytes_.data() + left_length);
    }
    if (right_length != byte_level::kNotByteLevel) {
      const std::string_view bytes(merged_bytes_.data(), left_length + right_length);
      left_id = vocabulary.find(bytes.substr(0, left_length));
      right_id = left_id < 0 ? -1 : vocabulary.find(bytes.substr(left_length));
      merged_id = right_id < 0 ? -1 : vocabulary.find(bytes);
    } else {
      left_id = id_of_key(left);
      right_id = left_id < 0 ? -1 : id_of_key(right);
      if (right_id >= 0 && prefixfits) {
        merged.assign(left).append(right.substr(prefix.size()));
        merged_id = id_of_key(merged);
      }
    }
    if (left_id < 0) return fail(merge_name(i) + ": " + quote(left) + " is not in model.vocab");
    if (right_id < 0) return fail(merge_name(i) + ": " + quote(right) + " is not in model.vocab");
    if (!prefixfits) {
      return fail(merge_name(i) + ": " + quote(right) +
                  " does not start with a whole continuing_subword_prefix's length of characters");
    }
    if (merged_id < 0) {
      merged.assign(left).append(right.substr(prefix.size()));
      return fail(merge_name(i) + ": the merged token " + quote(merged) + " is not in model.vocab");
    }
    std::uint32_t existing = 0;
    if (!merges.insert(left_id, right_id, bpe::Merge{i, merged_id}, existing)) {
      return fail(merge_name(i) + " (" + quote(left) + " " + quote(right) + ") repeats model.merges[" +
                  std::to_string(existing) + "]");
    }
  }
  return !reader.failed() || fail_json(reader);
}

bool Tokenizer::Reader::build_model() {
  class Keys : public tokenizer_json::VocabularyKeys {
   public:
    explicit Keys(Reader& reader) : reader_(reader) {}
    std::int32_t id_of_key(std::string_view key) override { return reader_.id_of_key(key); }

   private:
    Reader& reader_;
  } keys(*this);
  return builder_->build(t_.vocabulary_, keys, reading_, t_.model_);
}

bool Tokenizer::Reader::finish() {
  if (!check_post_processors()) return false;
  // Ids become their tokens' bytes joined where nothing spells them otherwise.
  bool as_bytes = t_.byte_level_vocabulary_ &&
                  (!t_.has_decoder_ || (t_.decoders_.size() == 1 && t_.decoders_[0]->byte_level()));
  std::uint64_t longest = t_.vocabulary_.max_bytes() * (t_.byte_level_vocabulary_ ? 2 : 1);
  for (std::size_t i = 0; i < added_tokens_.size(); ++i) {
    t_.vocabulary_.set_added_index(added_tokens_[i].id, static_cast<std::int32_t>(i));
    if (!added_tokens_[i].normalized_content.empty()) as_bytes = false;
    longest = std::max<std::uint64_t>(longest, added_tokens_[i].normalized_content.size());
  }
  t_.decodes_as_bytes_ = as_bytes;
  t_.most_token_string_bytes_ = longest;
  std::size_t first = 0, second = 0;
  if (!t_.added_.build(std::move(added_tokens_), first, second)) {
    return fail("added_tokens[" + std::to_string(second) + "] (" + quote(t_.added_.tokens()[second].content) +
                ") and added_tokens[" + std::to_string(first) +
                "] are the same once normalized (not supported)");
  }
  t_.offsets_by_bytes_ = t_.gives_offsets_by_bytes();
  if (t_.offsets_by_bytes_ || kGeneralOffsets) return true;
  return fail("these offsets are left out of this build (they are in embeddings-full.wasm)");
}

}  // namespace embeddings
