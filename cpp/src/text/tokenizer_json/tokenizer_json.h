// The tokenizer.json reader's parts, shared by tokenizer_json.cpp (the
// first walk, the small parts, the added tokens, the memory check) and
// tokenizer_json_tables.cpp (the vocabulary and merges, streamed into the
// tables). Internal to the library.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "embeddings/common/message.h"
#include "embeddings/formats/json.h"
#include "embeddings/formats/json_reader.h"
#include "embeddings/text/byte_level.h"
#include "embeddings/text/tokenizer.h"

namespace embeddings {
namespace tokenizer_json {

// Ids are int32 everywhere in the project, and vocab_size() = max id + 1 must fit too.
constexpr std::int64_t kMaxId = std::numeric_limits<std::int32_t>::max() - 1;

// A token or other user text for an error message: quoted, cut and escaped
// as every loader's messages quote file text (embeddings/message.h).
using embeddings::quote;
// A value for an error message: "the number 5", "the string \"x\"", "an array".
std::string describe(const json::Value& value);
std::string describe(const json::Value* value);  // "nothing" for nullptr.
inline bool is_null_or_absent(const json::Value* value) { return value == nullptr || value->is_null(); }

}  // namespace tokenizer_json

class Tokenizer::Reader {
 public:
  Reader(std::string_view text, Tokenizer& t, std::string& error) : text_(text), t_(t), error_(error) {}

  bool read(std::uint64_t memory_limit) {
    return locate() && read_small_parts() && read_settings() && read_normalizer() && read_pre_tokenizer() &&
           read_decoder() && read_post_processor() && read_model_settings() && read_added_tokens() &&
           check_memory(memory_limit) && read_vocabulary() && check_added_ids() && read_merges() &&
           read_unk() && finish();
  }

 private:
  // Where a big part of the file is, and how much it holds (first walk).
  struct Part {
    bool found = false;
    std::size_t at = 0;         // Byte offset of its value.
    std::size_t entries = 0;    // Members or items.
    std::size_t key_bytes = 0;  // Vocabulary: the keys' bytes in all.
  };
  // A member read as a tree in the second walk: where its value is.
  struct Small {
    std::string key;
    std::size_t at;
  };

  bool fail(const std::string& message) {
    error_ = message;
    return false;
  }
  bool fail_json(const json::Reader& reader) { return fail(reader.error()); }

  // Reads an optional boolean member: absent or null keeps `value`.
  bool read_optional_bool(const json::Value& object, const char* key, const std::string& where, bool& value);

  // ---- First walk: syntax, and where the parts are ---------------------------
  // Walks an object's members, refusing duplicate keys as parse() does;
  // `member` reads each value.
  template <class Member>
  bool walk_object(json::Reader& reader, Member&& member) {
    std::unordered_set<std::string> keys;
    std::string key;
    if (!reader.begin_object()) return false;
    while (reader.next_member(key)) {
      if (!keys.insert(key).second) return reader.fail("duplicate key " + quote(key));
      if (!member(key)) return false;
    }
    return !reader.failed();
  }

  // Counts the entries of an object or array at the reader, checking their syntax.
  static bool count(json::Reader& reader, Part& part, bool object);

  // Passes a member that the second walk reads as a tree, noting where it is
  // and counting its text (whitespace between members is not in any tree).
  bool skip_small(json::Reader& reader, const std::string& key, std::vector<Small>& parts);

  bool locate();

  // ---- Second walk: the small parts as trees --------------------------------
  bool read_small_parts();

  // Settings that would change the ids but are not implemented.
  bool read_settings();

  // ---- The pipeline's components (tokenizer_json_components.cpp) ------------
  bool read_string_member(const json::Value& object, const char* key, const std::string& where,
                          std::string& value, bool one_character);
  bool read_count_member(const json::Value& object, const char* key, const std::string& where,
                         std::size_t& value);
  // A Split's, a Replace's "pattern": {"Regex": ...} or {"String": ...}, compiled.
  bool read_pattern(const json::Value& component, const std::string& where,
                    std::shared_ptr<const regex::Regex>& out);
  bool read_behavior(const json::Value& component, const std::string& where, PreTokenizer::Behavior& out);

  // A Sequence's stages: `value[key]`, an array, each item read by `read(item, where, stage)`.
  template <class Stage, class Read>
  bool read_stages(const json::Value& value, const char* key, const std::string& where,
                   std::vector<Stage>& out, Read&& read) {
    const json::Value* steps = value.find(key);
    if (steps == nullptr || !steps->is_array())
      return fail(where + "." + key + " must be an array, found " + tokenizer_json::describe(steps));
    for (std::size_t i = 0; i < steps->items.size(); ++i) {
      Stage step;
      if (!read(steps->items[i], where + "." + key + "[" + std::to_string(i) + "]", step)) return false;
      out.push_back(std::move(step));
    }
    return true;
  }

  bool read_normalizer();
  bool read_normalizer_stage(const json::Value& value, const std::string& where, Normalizer& out);

  bool read_pre_tokenizer();
  bool read_pre_tokenizer_stage(const json::Value& pre, const std::string& where, PreTokenizer& out);
  bool read_metaspace(const json::Value& pre, const std::string& where, PreTokenizer& out);
  bool read_prepend_scheme(const json::Value& component, const std::string& where,
                           PreTokenizer::PrependScheme& out);

  bool read_decoder();
  bool read_decoder_stage(const json::Value& value, const std::string& where, Decoder& out);

  // encode() adds no special tokens, so a post-processor that only adds them
  // or trims offsets changes nothing.
  bool read_post_processor();
  bool read_post_processor_stage(const json::Value& post, const std::string& where);

  bool read_model_settings();
  bool read_word_piece_settings(const json::Value& model);
  // continuing_subword_prefix or end_of_word_suffix (`key`) into `bytes`.
  bool read_affix(const json::Value& value, const char* key, std::string& bytes);

  // ---- Added tokens: read first, since their contents may appear in the
  // vocabulary without being byte-level strings -----------------------------
  bool read_added_tokens();

  // ---- Memory ------------------------------------------------------------------
  bool check_memory(std::uint64_t limit);

  // ---- The vocabulary, streamed ------------------------------------------------
  // The id of the vocabulary entry whose key (as the file spells it) is `key`, or -1.
  std::int32_t id_of_key(std::string_view key) {
    if (!t_.byte_level_vocabulary_) return t_.vocabulary_.find(key);
    if (byte_level::decode(key, bytes_)) return t_.vocabulary_.find(bytes_);
    const auto raw = raw_ids_.find(std::string(key));
    return raw == raw_ids_.end() ? -1 : raw->second;
  }

  // How the file spells a token: its key.
  std::string key_of(std::string_view bytes, bool findable) const;

  bool index_vocabulary();

  bool read_vocabulary();

  // Hugging Face ignores the ids written in added_tokens and assigns its own
  // (the vocabulary's id for a token it has, else the next id after the model
  // and the tokens added so far, in the order of the written ids). A file
  // where the two differ would encode differently here and there, so refuse it.
  bool check_added_ids();

  // ---- The merges, streamed: rank = position in the list -----------------------
  static std::string merge_name(std::size_t i) { return "model.merges[" + std::to_string(i) + "]"; }

  // A merge's two parts, as views into item_ or pair_left_ / pair_right_.
  bool read_merge(json::Reader& reader, std::size_t i, std::string_view& left, std::string_view& right);

  bool read_merges();

  bool read_unk();

  // ---- The final tables ----------------------------------------------------------
  bool finish();

  std::string_view text_;
  Tokenizer& t_;
  std::string& error_;

  // First walk.
  Part vocab_, merges_, added_;
  std::vector<Small> small_, model_small_;
  bool model_found_ = false;
  std::size_t small_bytes_ = 0;  // Text read as trees: all but the three big parts.

  json::Value root_;  // The small parts (model: without vocab and merges).
  const json::Value* unk_ = nullptr;
  bpe::BpeSettings settings_;
  std::string prefix_;  // model.continuing_subword_prefix as the file spells it
  std::vector<AddedToken> added_tokens_;
  std::unordered_map<std::string, std::size_t> added_by_content_;  // Content -> index in added_tokens.
  std::size_t added_bytes_ = 0;
  std::unordered_map<std::string, std::int32_t> raw_ids_;  // Vocabulary keys that are not byte-level.
  std::string bytes_;                                      // Scratch: a key's bytes.
  json::Value item_;                                       // Scratch: a merge.
  std::string pair_left_, pair_right_;                     // Scratch: a merge's pair.
  std::vector<char> merged_bytes_;                         // Scratch: a merge's parts, decoded.
  byte_level::Decoder key_decoder_;                        // Scratch: a vocabulary key's bytes.
};

}  // namespace embeddings
