#include "embeddings/tokenizer.h"

#include <algorithm>
#include <limits>
#include <queue>
#include <utility>

#include "embeddings/byte_level.h"
#include "embeddings/json.h"
#include "embeddings/message.h"
#include "embeddings/pretokenizer.h"
#include "embeddings/unicode.h"
#include "embeddings/utf8.h"

namespace embeddings {
namespace {

// Ids are int32 everywhere in the project, and vocab_size() = max id + 1 must fit too.
constexpr std::int64_t kMaxId = std::numeric_limits<std::int32_t>::max() - 1;

std::uint64_t pair_key(std::int32_t left, std::int32_t right) {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(left)) << 32) |
         static_cast<std::uint32_t>(right);
}

std::string describe(const json::Value& value) {
  if (value.is_number()) {
    const bool cut = value.text.size() > 40;
    return "the number " + value.text.substr(0, 40) + (cut ? "..." : "");
  }
  if (value.is_string()) return "the string " + quote(value.text);
  if (value.is_bool()) return value.boolean ? "true" : "false";
  return json::type_name(value.type);
}

bool is_null_or_absent(const json::Value* value) { return value == nullptr || value->is_null(); }

// Reads an optional boolean member: absent or null keeps `value`.
bool read_optional_bool(const json::Value& object, const char* key, const std::string& where, bool& value,
                        std::string& error) {
  const json::Value* member = object.find(key);
  if (is_null_or_absent(member)) return true;
  if (!member->is_bool()) {
    error = "tokenizer.json: " + where + "." + key + " must be true or false, found " + describe(*member);
    return false;
  }
  value = member->boolean;
  return true;
}

// Checks that `object.key` is absent, null, or an object whose "type" is `type`.
bool check_optional_component(const json::Value& root, const char* key, const char* type,
                              std::string& error) {
  const json::Value* member = root.find(key);
  if (is_null_or_absent(member)) return true;
  const json::Value* member_type = member->is_object() ? member->find("type") : nullptr;
  if (member_type == nullptr || !member_type->is_string() || member_type->text != type) {
    error = std::string("tokenizer.json: ") + key + " must be null or {\"type\": \"" + type + "\"}, found " +
            (member_type != nullptr && member_type->is_string() ? "type " + quote(member_type->text)
                                                                : describe(*member)) +
            " (not supported)";
    return false;
  }
  return true;
}

// The character that ends just before `end`: its start and code point. A byte
// that is not the end of a valid UTF-8 character counts as one character that
// is neither whitespace nor a word character (code set to 0xFFFFFFFF).
std::size_t char_start_before(std::string_view text, std::size_t end, std::uint32_t& code) {
  std::size_t start = end - 1;
  while (start > 0 && end - start < 4 && (static_cast<unsigned char>(text[start]) & 0xC0) == 0x80) --start;
  std::uint32_t decoded = 0;
  if (utf8::decode(text, start, decoded) == end - start) {
    code = decoded;
    return start;
  }
  code = 0xFFFFFFFF;
  return end - 1;
}

// The character at `pos` (< text.size()); invalid bytes as above.
std::size_t char_at(std::string_view text, std::size_t pos, std::uint32_t& code) {
  const std::size_t length = utf8::decode(text, pos, code);
  if (length == 0) {
    code = 0xFFFFFFFF;
    return 1;
  }
  return length;
}

void append_byte_escape(std::string& out, unsigned char byte) {
  static const char* const kHex = "0123456789ABCDEF";
  out += "<0x";
  out += kHex[byte >> 4];
  out += kHex[byte & 15];
  out += '>';
}

int hex_value(char ch) {
  if (ch >= '0' && ch <= '9') return ch - '0';
  if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
  if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
  return -1;
}

constexpr std::string_view kSpaceMark = "\xC2\xB7";        // ·
constexpr std::string_view kNewlineMark = "\xE2\x86\xB5";  // ↵
constexpr std::string_view kTabMark = "\xE2\x87\xA5";      // ⇥

std::string display_bytes(std::string_view bytes) {
  std::string out;
  std::size_t pos = 0;
  while (pos < bytes.size()) {
    const unsigned char byte = static_cast<unsigned char>(bytes[pos]);
    if (byte < 0x80) {
      if (byte == ' ') {
        out += kSpaceMark;
      } else if (byte == '\n') {
        out += kNewlineMark;
      } else if (byte == '\t') {
        out += kTabMark;
      } else if (byte < 0x20 || byte == 0x7F) {
        append_byte_escape(out, byte);
      } else {
        out += static_cast<char>(byte);
      }
      ++pos;
      continue;
    }
    std::uint32_t code = 0;
    const std::size_t length = utf8::decode(bytes, pos, code);
    if (length == 0) {
      append_byte_escape(out, byte);
      ++pos;
      continue;
    }
    const std::string_view character = bytes.substr(pos, length);
    // C1 controls are invisible, and literal marks would be read back as bytes.
    if (code <= 0x9F || character == kSpaceMark || character == kNewlineMark || character == kTabMark) {
      for (const char ch : character) append_byte_escape(out, static_cast<unsigned char>(ch));
    } else {
      out += character;
    }
    pos += length;
  }
  return out;
}

// Inverse of display_bytes() for the marks and escapes; other text is copied.
std::string parse_display(std::string_view text) {
  std::string bytes;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::string_view rest = text.substr(pos);
    if (rest.substr(0, kSpaceMark.size()) == kSpaceMark) {
      bytes += ' ';
      pos += kSpaceMark.size();
    } else if (rest.substr(0, kNewlineMark.size()) == kNewlineMark) {
      bytes += '\n';
      pos += kNewlineMark.size();
    } else if (rest.substr(0, kTabMark.size()) == kTabMark) {
      bytes += '\t';
      pos += kTabMark.size();
    } else if (rest.size() >= 6 && rest.substr(0, 3) == "<0x" && hex_value(rest[3]) >= 0 &&
               hex_value(rest[4]) >= 0 && rest[5] == '>') {
      bytes += static_cast<char>(hex_value(rest[3]) * 16 + hex_value(rest[4]));
      pos += 6;
    } else {
      bytes += text[pos];
      ++pos;
    }
  }
  return bytes;
}

}  // namespace

// Reused buffers for encoding, so a long text does not allocate per piece.
struct Tokenizer::Scratch {
  struct Symbol {
    std::int32_t id;
    std::int32_t prev;
    std::int32_t next;
    bool removed;
  };
  struct Candidate {
    std::uint32_t rank;
    std::uint32_t pos;
    std::int32_t new_id;
  };
  // Lowest rank first, then leftmost: the order Hugging Face's Word::merge_all pops.
  struct LaterFirst {
    bool operator()(const Candidate& a, const Candidate& b) const {
      return a.rank != b.rank ? a.rank > b.rank : a.pos > b.pos;
    }
  };
  std::vector<Symbol> symbols;
  std::vector<Candidate> heap;
  std::string prefixed;
  // encode_at_most(): stop once ids.size() passes this; `over` says it did.
  std::size_t max_tokens = static_cast<std::size_t>(-1);
  bool over = false;
};

bool Tokenizer::from_json(std::string_view json_text, Tokenizer& out, std::string& error) {
  json::Value root;
  std::string parse_error;
  if (!json::parse(json_text, root, parse_error)) {
    error = "tokenizer.json: " + parse_error;
    return false;
  }
  Tokenizer loaded;
  if (!load(root, loaded, error)) return false;
  out = std::move(loaded);
  return true;
}

bool Tokenizer::load(const json::Value& root, Tokenizer& t, std::string& error) {
  const auto fail = [&](const std::string& message) {
    error = "tokenizer.json: " + message;
    return false;
  };
  if (!root.is_object()) return fail("the top level must be an object, found " + describe(root));

  // Settings that would change the ids but are not implemented.
  for (const char* key : {"truncation", "padding", "normalizer"}) {
    const json::Value* member = root.find(key);
    if (!is_null_or_absent(member)) {
      return fail(std::string(key) + " must be null, found " + describe(*member) + " (not supported)");
    }
  }

  const json::Value* pre = root.find("pre_tokenizer");
  if (is_null_or_absent(pre)) return fail("pre_tokenizer is missing or null; only ByteLevel is supported");
  const json::Value* pre_type = pre->is_object() ? pre->find("type") : nullptr;
  if (pre_type == nullptr || !pre_type->is_string() || pre_type->text != "ByteLevel") {
    return fail(
        "pre_tokenizer must be {\"type\": \"ByteLevel\", ...}, found " +
        (pre_type != nullptr && pre_type->is_string() ? "type " + quote(pre_type->text) : describe(*pre)) +
        " (not supported)");
  }
  const json::Value* prefix_space = pre->find("add_prefix_space");
  if (prefix_space == nullptr || !prefix_space->is_bool()) {
    return fail("pre_tokenizer.add_prefix_space must be true or false, found " +
                (prefix_space == nullptr ? std::string("nothing") : describe(*prefix_space)));
  }
  t.add_prefix_space_ = prefix_space->boolean;
  if (!read_optional_bool(*pre, "use_regex", "pre_tokenizer", t.use_regex_, error)) return false;
  bool trim_offsets = true;  // Only affects offsets, which this tokenizer does not report.
  if (!read_optional_bool(*pre, "trim_offsets", "pre_tokenizer", trim_offsets, error)) return false;
  if (!check_optional_component(root, "decoder", "ByteLevel", error)) return false;
  if (!check_optional_component(root, "post_processor", "ByteLevel", error)) return false;

  // Model settings.
  const json::Value* model = root.find("model");
  if (model == nullptr || !model->is_object()) {
    return fail("model must be an object, found " +
                (model == nullptr ? std::string("nothing") : describe(*model)));
  }
  const json::Value* model_type = model->find("type");
  if (model_type == nullptr || !model_type->is_string() || model_type->text != "BPE") {
    return fail("model.type must be \"BPE\", found " +
                (model_type == nullptr ? std::string("nothing") : describe(*model_type)) +
                " (not supported)");
  }
  const json::Value* dropout = model->find("dropout");
  if (!is_null_or_absent(dropout)) {
    return fail("model.dropout must be null, found " + describe(*dropout) +
                " (BPE dropout makes encoding random; not supported)");
  }
  bool byte_fallback = false;
  if (!read_optional_bool(*model, "byte_fallback", "model", byte_fallback, error)) return false;
  if (byte_fallback) return fail("model.byte_fallback must be false (not supported)");
  for (const char* key : {"continuing_subword_prefix", "end_of_word_suffix"}) {
    const json::Value* member = model->find(key);
    if (!is_null_or_absent(member) && !(member->is_string() && member->text.empty())) {
      return fail(std::string("model.") + key + " must be null or \"\", found " + describe(*member) +
                  " (not supported)");
    }
  }
  if (!read_optional_bool(*model, "fuse_unk", "model", t.fuse_unk_, error)) return false;
  if (!read_optional_bool(*model, "ignore_merges", "model", t.ignore_merges_, error)) return false;
  const json::Value* unk = model->find("unk_token");
  if (!is_null_or_absent(unk) && !unk->is_string()) {
    return fail("model.unk_token must be null or a string, found " + describe(*unk));
  }
  const json::Value* vocab = model->find("vocab");
  if (vocab == nullptr || !vocab->is_object()) {
    return fail("model.vocab must be an object, found " +
                (vocab == nullptr ? std::string("nothing") : describe(*vocab)));
  }
  const json::Value* merges = model->find("merges");
  if (merges == nullptr || !merges->is_array()) {
    return fail("model.merges must be an array, found " +
                (merges == nullptr ? std::string("nothing") : describe(*merges)));
  }

  // Added tokens, read first: their contents may appear in the vocabulary
  // without being byte-level strings.
  const json::Value* added = root.find("added_tokens");
  std::unordered_map<std::string_view, std::size_t> added_by_content;
  if (!is_null_or_absent(added)) {
    if (!added->is_array()) return fail("added_tokens must be an array, found " + describe(*added));
    std::unordered_map<std::int64_t, std::size_t> added_by_id;
    for (std::size_t i = 0; i < added->items.size(); ++i) {
      const json::Value& item = added->items[i];
      const std::string where = "added_tokens[" + std::to_string(i) + "]";
      if (!item.is_object()) return fail(where + " must be an object, found " + describe(item));
      const json::Value* id = item.find("id");
      std::int64_t id_value = -1;
      if (id == nullptr || !id->as_int64(id_value) || id_value < 0 || id_value > kMaxId) {
        return fail(where + ".id must be an integer from 0 to " + std::to_string(kMaxId) + ", found " +
                    (id == nullptr ? std::string("nothing") : describe(*id)));
      }
      const json::Value* content = item.find("content");
      if (content == nullptr || !content->is_string() || content->text.empty()) {
        return fail(where + ".content must be a non-empty string, found " +
                    (content == nullptr ? std::string("nothing") : describe(*content)));
      }
      AddedToken token;
      token.id = static_cast<std::int32_t>(id_value);
      token.content = content->text;
      if (!read_optional_bool(item, "single_word", where, token.single_word, error) ||
          !read_optional_bool(item, "lstrip", where, token.lstrip, error) ||
          !read_optional_bool(item, "rstrip", where, token.rstrip, error) ||
          !read_optional_bool(item, "normalized", where, token.normalized, error) ||
          !read_optional_bool(item, "special", where, token.special, error)) {
        return false;
      }
      if (const auto seen = added_by_content.find(content->text); seen != added_by_content.end()) {
        return fail(where + ": content " + quote(content->text) + " repeats added_tokens[" +
                    std::to_string(seen->second) + "]");
      }
      if (const auto seen = added_by_id.find(id_value); seen != added_by_id.end()) {
        return fail(where + ": id " + std::to_string(id_value) + " is also the id of added_tokens[" +
                    std::to_string(seen->second) + "]");
      }
      added_by_content.emplace(content->text, i);
      added_by_id.emplace(id_value, i);
      t.added_tokens_.push_back(std::move(token));
    }
  }

  // The model vocabulary.
  std::unordered_map<std::string_view, std::int32_t> id_by_key;
  std::unordered_map<std::int32_t, std::string_view> key_by_id;
  id_by_key.reserve(vocab->members.size());
  key_by_id.reserve(vocab->members.size());
  std::fill(std::begin(t.byte_ids_), std::end(t.byte_ids_), -1);
  std::string bytes;
  for (const auto& [key, value] : vocab->members) {
    if (key.empty()) return fail("model.vocab has an empty token");
    std::int64_t id = -1;
    if (!value.as_int64(id) || id < 0 || id > kMaxId) {
      return fail("model.vocab[" + quote(key) + "] must be an integer id from 0 to " +
                  std::to_string(kMaxId) + ", found " + describe(value));
    }
    const auto id32 = static_cast<std::int32_t>(id);
    if (const auto seen = key_by_id.find(id32); seen != key_by_id.end()) {
      return fail("model.vocab: tokens " + quote(seen->second) + " and " + quote(key) + " both have id " +
                  std::to_string(id));
    }
    key_by_id.emplace(id32, key);
    id_by_key.emplace(key, id32);
    Token token;
    token.id = id32;
    if (byte_level::decode(key, bytes)) {
      token.bytes = bytes;
      t.model_by_bytes_.emplace(bytes, id32);
      if (bytes.size() == 1) t.byte_ids_[static_cast<unsigned char>(bytes[0])] = id32;
    } else if (added_by_content.count(key) != 0) {
      token.bytes = key;  // Decoded as its raw text, like Hugging Face's ByteLevel decoder does.
    } else {
      return fail(
          "model.vocab: token " + quote(key) +
          " is not a byte-level string (it has a character outside GPT-2's 256-character byte alphabet)");
    }
    t.tokens_.push_back(std::move(token));
  }

  // Hugging Face ignores the ids written in added_tokens and assigns its own
  // (the vocabulary's id for a token it has, else the next id after the model
  // and the tokens added so far, in the order of the written ids). A file
  // where the two differ would encode differently here and there, so refuse it.
  {
    std::vector<std::size_t> order(t.added_tokens_.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return t.added_tokens_[a].id < t.added_tokens_[b].id; });
    const auto model_size = static_cast<std::int64_t>(vocab->members.size());
    std::int64_t max_added = -1;
    for (const std::size_t i : order) {
      const AddedToken& token = t.added_tokens_[i];
      const auto in_vocab = id_by_key.find(token.content);
      std::int64_t expected;
      if (in_vocab != id_by_key.end()) {
        expected = in_vocab->second;
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
        Token entry;
        entry.id = token.id;
        entry.bytes = token.content;
        t.tokens_.push_back(std::move(entry));
      }
      max_added = std::max(max_added, expected);
    }
  }

  // Merges: rank = position in the list.
  t.merges_.reserve(merges->items.size());
  for (std::size_t i = 0; i < merges->items.size(); ++i) {
    const json::Value& item = merges->items[i];
    const std::string where = "model.merges[" + std::to_string(i) + "]";
    std::string_view left, right;
    if (item.is_string()) {
      const std::size_t space = item.text.find(' ');
      if (space == std::string::npos || item.text.find(' ', space + 1) != std::string::npos) {
        return fail(where + " " + quote(item.text) + " must be two tokens separated by one space");
      }
      left = std::string_view(item.text).substr(0, space);
      right = std::string_view(item.text).substr(space + 1);
    } else if (item.is_array() && item.items.size() == 2 && item.items[0].is_string() &&
               item.items[1].is_string()) {
      left = item.items[0].text;
      right = item.items[1].text;
    } else {
      return fail(where + " must be a \"left right\" string or a [\"left\", \"right\"] pair, found " +
                  describe(item));
    }
    const auto left_id = id_by_key.find(left);
    if (left_id == id_by_key.end()) return fail(where + ": " + quote(left) + " is not in model.vocab");
    const auto right_id = id_by_key.find(right);
    if (right_id == id_by_key.end()) return fail(where + ": " + quote(right) + " is not in model.vocab");
    std::string merged(left);
    merged += right;
    const auto merged_id = id_by_key.find(merged);
    if (merged_id == id_by_key.end()) {
      return fail(where + ": the merged token " + quote(merged) + " is not in model.vocab");
    }
    const auto inserted = t.merges_.emplace(pair_key(left_id->second, right_id->second),
                                            Merge{static_cast<std::uint32_t>(i), merged_id->second});
    if (!inserted.second) {
      return fail(where + " (" + quote(left) + " " + quote(right) + ") repeats model.merges[" +
                  std::to_string(inserted.first->second.rank) + "]");
    }
  }

  if (!is_null_or_absent(unk)) {
    const auto unk_id = id_by_key.find(unk->text);
    if (unk_id == id_by_key.end())
      return fail("model.unk_token " + quote(unk->text) + " is not in model.vocab");
    t.unk_id_ = unk_id->second;
  }

  // Final tables.
  std::sort(t.tokens_.begin(), t.tokens_.end(), [](const Token& a, const Token& b) { return a.id < b.id; });
  for (std::size_t i = 0; i < t.added_tokens_.size(); ++i) {
    const AddedToken& token = t.added_tokens_[i];
    Token* entry = &*std::lower_bound(t.tokens_.begin(), t.tokens_.end(), token.id,
                                      [](const Token& a, std::int32_t id) { return a.id < id; });
    entry->added_index = static_cast<std::int32_t>(i);
    // Hugging Face's ByteLevel decoder turns a token into bytes through the
    // byte alphabet when every character is in it, else uses its raw text.
    if (!byte_level::decode(token.content, entry->bytes)) entry->bytes = token.content;
    t.added_by_first_byte_[token.normalized ? 1 : 0][static_cast<unsigned char>(token.content[0])].push_back(
        static_cast<std::int32_t>(i));
    (token.normalized ? t.has_normalized_added_ : t.has_unnormalized_added_) = true;
  }
  for (auto& pass : t.added_by_first_byte_) {
    for (auto& bucket : pass) {
      std::sort(bucket.begin(), bucket.end(), [&](std::int32_t a, std::int32_t b) {
        return t.added_tokens_[a].content.size() > t.added_tokens_[b].content.size();
      });
    }
  }
  t.vocab_size_ = t.tokens_.empty() ? 0 : static_cast<std::size_t>(t.tokens_.back().id) + 1;
  t.every_byte_has_a_token_ =
      std::all_of(std::begin(t.byte_ids_), std::end(t.byte_ids_), [](std::int32_t id) { return id >= 0; });
  for (const Token& token : t.tokens_) t.max_token_bytes_ = std::max(t.max_token_bytes_, token.bytes.size());
  return true;
}

const Tokenizer::Token* Tokenizer::find(std::int32_t id) const {
  const auto it = std::lower_bound(tokens_.begin(), tokens_.end(), id,
                                   [](const Token& token, std::int32_t value) { return token.id < value; });
  return it != tokens_.end() && it->id == id ? &*it : nullptr;
}

bool Tokenizer::is_special(std::int32_t id) const {
  const Token* token = find(id);
  return token != nullptr && token->added_index >= 0 && added_tokens_[token->added_index].special;
}

std::vector<std::int32_t> Tokenizer::encode(std::string_view utf8_text) const {
  std::vector<std::int32_t> ids;
  encode(utf8_text, ids);
  return ids;
}

void Tokenizer::encode(std::string_view utf8_text, std::vector<std::int32_t>& ids) const {
  Scratch scratch;
  encode_with(utf8_text, scratch, ids);
}

bool Tokenizer::encode_at_most(std::string_view utf8_text, std::size_t max_tokens,
                               std::vector<std::int32_t>& ids) const {
  Scratch scratch;
  scratch.max_tokens = max_tokens;
  ids.clear();
  encode_with(utf8_text, scratch, ids);
  return !scratch.over && ids.size() <= max_tokens;
}

void Tokenizer::encode_with(std::string_view utf8_text, Scratch& scratch,
                            std::vector<std::int32_t>& ids) const {
  if (has_unnormalized_added_) {
    split_added(utf8_text, false, scratch, ids);
  } else if (has_normalized_added_) {
    split_added(utf8_text, true, scratch, ids);
  } else {
    encode_gap(utf8_text, scratch, ids);
  }
}

// Hugging Face's AddedVocabulary::find_matches over one pass's tokens, then
// the gaps go to the next pass (normalized tokens) or to the model.
void Tokenizer::split_added(std::string_view text, bool normalized_pass, Scratch& scratch,
                            std::vector<std::int32_t>& ids) const {
  const auto& buckets = added_by_first_byte_[normalized_pass ? 1 : 0];
  const auto gap = [&](std::string_view piece) {
    if (!normalized_pass && has_normalized_added_) {
      split_added(piece, true, scratch, ids);
    } else {
      encode_gap(piece, scratch, ids);
    }
  };
  std::size_t start_offset = 0;  // End of the text already handed out.
  std::size_t pos = 0;           // Where the search for the next match resumes.
  while (pos < text.size() && !scratch.over) {
    // Leftmost match, the longest at that position (Aho-Corasick LeftmostLongest).
    std::int32_t match = -1;
    std::size_t match_start = pos;
    for (; match_start < text.size(); ++match_start) {
      for (const std::int32_t index : buckets[static_cast<unsigned char>(text[match_start])]) {
        const std::string& content = added_tokens_[index].content;
        if (text.compare(match_start, content.size(), content) == 0) {
          match = index;
          break;
        }
      }
      if (match >= 0) break;
    }
    if (match < 0) break;
    const AddedToken& token = added_tokens_[match];
    std::size_t start = match_start;
    std::size_t stop = match_start + token.content.size();
    pos = stop;
    if (token.single_word) {
      std::uint32_t before = 0xFFFFFFFF, after = 0xFFFFFFFF;
      if (start > 0) char_start_before(text, start, before);
      if (stop < text.size()) char_at(text, stop, after);
      if (unicode::is_word_character(before) || unicode::is_word_character(after)) continue;
    }
    if (token.lstrip) {
      std::size_t new_start = start;
      while (new_start > 0) {
        std::uint32_t code = 0;
        const std::size_t char_start = char_start_before(text, new_start, code);
        if (!unicode::is_whitespace(code)) break;
        new_start = char_start;
      }
      start = std::max(new_start, start_offset);
    }
    if (token.rstrip) {
      while (stop < text.size()) {
        std::uint32_t code = 0;
        const std::size_t length = char_at(text, stop, code);
        if (!unicode::is_whitespace(code)) break;
        stop += length;
      }
    }
    if (start_offset < start) gap(text.substr(start_offset, start - start_offset));
    if (scratch.over) return;
    ids.push_back(token.id);
    if (ids.size() > scratch.max_tokens) scratch.over = true;
    // max(): a match inside whitespace that an rstrip already took must not move backwards.
    start_offset = std::max(start_offset, stop);
  }
  if (start_offset < text.size() && !scratch.over) gap(text.substr(start_offset));
}

void Tokenizer::encode_gap(std::string_view gap, Scratch& scratch, std::vector<std::int32_t>& ids) const {
  if (gap.empty()) return;
  std::string_view text = gap;
  if (add_prefix_space_ && gap[0] != ' ') {
    scratch.prefixed.assign(1, ' ');
    scratch.prefixed.append(gap);
    text = scratch.prefixed;
  }
  if (!use_regex_) {
    encode_piece(text, scratch, ids);
    return;
  }
  std::size_t pos = 0;
  while (pos < text.size() && !scratch.over) {
    const std::size_t length = bounded_pretoken_length(text, pos, scratch, ids.size());
    if (scratch.over) return;
    encode_piece(text.substr(pos, length), scratch, ids);
    pos += length;
  }
}

// pretoken_length(), but under encode_at_most() it does not scan a piece
// further than it needs to: a piece of `enough` bytes has more tokens than
// are still allowed, so when the piece starting at `pos` is that long the
// text is too long, whatever follows. The piece is found in a view cut
// `enough + 32` bytes on. It is the same piece as in the whole text when it
// ends 16 bytes or more before the cut: every decision pretoken_length()
// makes looks at most one character (4 bytes) past the piece. Otherwise the
// whole text's piece is at most 4 bytes shorter (a character the cut split),
// so still longer than `enough`.
std::size_t Tokenizer::bounded_pretoken_length(std::string_view text, std::size_t pos, Scratch& scratch,
                                               std::size_t ids_so_far) const {
  constexpr std::size_t kNoLimit = static_cast<std::size_t>(-1);
  if (scratch.max_tokens == kNoLimit || !every_byte_has_a_token_ || max_token_bytes_ == 0)
    return pretoken_length(text, pos);
  const std::size_t allowed = scratch.max_tokens - ids_so_far;  // ids_so_far <= max_tokens while not over
  if (allowed + 1 > (kNoLimit - 64) / max_token_bytes_) return pretoken_length(text, pos);
  const std::size_t enough = (allowed + 1) * max_token_bytes_;
  const std::size_t view = enough + 32;
  if (text.size() - pos <= view) return pretoken_length(text, pos);
  const std::size_t length = pretoken_length(text.substr(0, pos + view), pos);
  if (length + 16 > view) scratch.over = true;
  return length;
}

// Hugging Face's BPE::merge_word followed by Word::merge_all.
void Tokenizer::encode_piece(std::string_view piece, Scratch& scratch, std::vector<std::int32_t>& ids) const {
  if (piece.empty() || scratch.over) return;
  if (scratch.max_tokens != static_cast<std::size_t>(-1) && every_byte_has_a_token_ && max_token_bytes_ > 0) {
    // Each token of the piece covers at most max_token_bytes_ of its bytes.
    const std::size_t at_least = (piece.size() + max_token_bytes_ - 1) / max_token_bytes_;
    if (at_least > scratch.max_tokens || ids.size() > scratch.max_tokens - at_least) {
      scratch.over = true;
      return;
    }
  }
  encode_piece_ids(piece, scratch, ids);
  if (ids.size() > scratch.max_tokens) scratch.over = true;
}

void Tokenizer::encode_piece_ids(std::string_view piece, Scratch& scratch,
                                 std::vector<std::int32_t>& ids) const {
  if (ignore_merges_) {
    const auto whole = model_by_bytes_.find(std::string(piece));
    if (whole != model_by_bytes_.end()) {
      ids.push_back(whole->second);
      return;
    }
  }
  auto& symbols = scratch.symbols;
  symbols.clear();
  bool fusing_unk = false;
  for (const char ch : piece) {
    const std::int32_t id = byte_ids_[static_cast<unsigned char>(ch)];
    if (id >= 0) {
      symbols.push_back({id, 0, 0, false});
      fusing_unk = false;
    } else if (unk_id_ >= 0 && !fusing_unk) {
      symbols.push_back({unk_id_, 0, 0, false});
      fusing_unk = fuse_unk_;
    }
  }
  if (symbols.size() <= 1 || merges_.empty()) {
    for (const auto& symbol : symbols) ids.push_back(symbol.id);
    return;
  }
  const auto count = static_cast<std::int32_t>(symbols.size());
  for (std::int32_t i = 0; i < count; ++i) {
    symbols[i].prev = i - 1;
    symbols[i].next = i + 1 < count ? i + 1 : -1;
  }

  using Candidate = Scratch::Candidate;
  auto& heap = scratch.heap;
  heap.clear();
  const Scratch::LaterFirst later_first;
  const auto push = [&](std::int32_t pos, std::int32_t left, std::int32_t right) {
    const auto merge = merges_.find(pair_key(left, right));
    if (merge == merges_.end()) return;
    heap.push_back(Candidate{merge->second.rank, static_cast<std::uint32_t>(pos), merge->second.new_id});
    std::push_heap(heap.begin(), heap.end(), later_first);
  };
  for (std::int32_t i = 0; i + 1 < count; ++i) push(i, symbols[i].id, symbols[i + 1].id);

  while (!heap.empty()) {
    std::pop_heap(heap.begin(), heap.end(), later_first);
    const Candidate top = heap.back();
    heap.pop_back();
    auto& current = symbols[top.pos];
    if (current.removed || current.next < 0) continue;
    const std::int32_t right_pos = current.next;
    // Skip entries whose pair has changed since they were queued.
    const auto merge = merges_.find(pair_key(current.id, symbols[right_pos].id));
    if (merge == merges_.end() || merge->second.new_id != top.new_id) continue;

    current.id = top.new_id;
    current.next = symbols[right_pos].next;
    symbols[right_pos].removed = true;
    if (current.next >= 0) symbols[current.next].prev = static_cast<std::int32_t>(top.pos);
    if (current.prev >= 0) push(current.prev, symbols[current.prev].id, current.id);
    if (current.next >= 0) push(static_cast<std::int32_t>(top.pos), current.id, symbols[current.next].id);
  }
  for (const auto& symbol : symbols) {
    if (!symbol.removed) ids.push_back(symbol.id);
  }
}

bool Tokenizer::join_bytes(const std::int32_t* ids, std::size_t count, std::string& bytes,
                           std::string& error) const {
  bytes.clear();
  if (count > 0 && ids == nullptr) {
    error = "decode: ids is null but count is " + std::to_string(count);
    return false;
  }
  for (std::size_t i = 0; i < count; ++i) {
    const Token* token = find(ids[i]);
    if (token == nullptr) {
      bytes.clear();
      error = "decode: id " + std::to_string(ids[i]) + " at position " + std::to_string(i) +
              " is not in the vocabulary (vocab_size " + std::to_string(vocab_size_) + ")";
      return false;
    }
    bytes += token->bytes;
  }
  return true;
}

bool Tokenizer::decode_bytes(const std::int32_t* ids, std::size_t count, std::string& bytes,
                             std::string& error) const {
  return join_bytes(ids, count, bytes, error);
}

bool Tokenizer::decode(const std::int32_t* ids, std::size_t count, std::string& text,
                       std::string& error) const {
  std::string bytes;
  text.clear();
  if (!join_bytes(ids, count, bytes, error)) return false;
  byte_level::append_utf8_lossy(text, bytes);
  return true;
}

std::string Tokenizer::token_bytes(std::int32_t id) const {
  const Token* token = find(id);
  return token == nullptr ? std::string() : token->bytes;
}

std::string Tokenizer::token_display(std::int32_t id) const {
  const Token* token = find(id);
  if (token == nullptr) return std::string();
  if (token->added_index >= 0) return added_tokens_[token->added_index].content;
  return display_bytes(token->bytes);
}

std::int32_t Tokenizer::token_id(std::string_view text) const {
  if (text.empty()) return -1;
  const auto by_display = model_by_bytes_.find(parse_display(text));
  if (by_display != model_by_bytes_.end()) return by_display->second;
  for (const AddedToken& token : added_tokens_) {
    if (token.content == text) return token.id;
  }
  const auto raw = model_by_bytes_.find(std::string(text));
  return raw != model_by_bytes_.end() ? raw->second : -1;
}

}  // namespace embeddings
