// The tokenizer.json reader's parts, shared by tokenizer_json.cpp (the
// first walk, the small parts, the pipeline's components through the
// registry, the added tokens, the memory check) and tokenizer_json_tables.cpp
// (the vocabulary and merges, streamed into the tables). Internal to the library.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
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
#include "tokenizer_json/reading.h"

namespace embeddings {

class Tokenizer::Reader {
 public:
  Reader(std::string_view text, Tokenizer& t, std::string& error)
      : text_(text), t_(t), error_(error), reading_(error) {}

  // The load's steps, in order, each false on failure (error says why):
  // the first walk over the file, the small parts and the memory check, the
  // vocabulary, the merges, the model's tables. Tokenizer::Loading runs one
  // per call, so that a caller with other work to do (a page's main thread)
  // can run each in a task of its own.
  static constexpr int kSteps = 5;
  bool step(int index) {
    switch (index) {
      case 0: return locate();
      case 1:
        return read_small_parts() && read_settings() && read_pre_tokenizer() && read_normalizer() &&
               read_decoder() && read_post_processor() && read_model() && read_added_tokens() &&
               check_memory(memory_limit_);
      case 2: return read_vocabulary() && check_added_ids();
      case 3: return read_merges();
      case 4: return build_model() && normalize_added_tokens(memory_limit_) && finish();
      default: return fail("no step " + std::to_string(index) + " in loading a tokenizer");
    }
  }
  void set_memory_limit(std::uint64_t memory_limit) {
    memory_limit_ = memory_limit;
    reading_.memory_left = memory_limit;
  }

  // The id of the vocabulary entry whose key (as the file spells it) is `key`, or -1.
  std::int32_t id_of_key(std::string_view key) {
    if (!t_.byte_level_vocabulary_) return t_.vocabulary_.find(key);
    if (byte_level::decode(key, bytes_)) return t_.vocabulary_.find(bytes_);
    const auto raw = raw_ids_.find(std::string(key));
    return raw == raw_ids_.end() ? -1 : raw->second;
  }

 private:
  // Where a big part of the file is, and how much it holds (first walk).
  struct Part {
    bool found = false;
    bool array = false;         // The vocabulary: Unigram's list rather than an object.
    std::size_t at = 0;         // Byte offset of its value.
    std::size_t entries = 0;    // Members or items.
    std::size_t key_bytes = 0;  // Vocabulary: the keys' bytes in all (an object's).
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

  // Counts the entries of an object or array at the reader, checking their
  // syntax (and, for a Unigram list, the bytes of its tokens).
  static bool count(json::Reader& reader, Part& part, bool object);

  // Passes a member that the second walk reads as a tree, noting where it is
  // and counting its text (whitespace between members is not in any tree).
  bool skip_small(json::Reader& reader, const std::string& key, std::vector<Small>& parts);

  bool locate();

  // ---- Second walk: the small parts as trees --------------------------------
  bool read_small_parts();

  // Settings that would change the ids but are not implemented.
  bool read_settings();

  // ---- The pipeline's components, through the registry (reading.h) ----------
  bool read_pre_tokenizer();
  bool read_normalizer();
  bool read_decoder();
  bool read_post_processor();
  bool read_model();

  // ---- Added tokens: read first, since their contents may appear in the
  // vocabulary without being byte-level strings -----------------------------
  bool read_added_tokens();

  // ---- Memory ------------------------------------------------------------------
  bool check_memory(std::uint64_t limit);

  // ---- The vocabulary, streamed ------------------------------------------------
  // How the file spells a token: its key.
  std::string key_of(std::string_view bytes, bool findable) const;
  bool index_vocabulary();
  bool read_vocabulary();
  // A vocabulary that is a list (Unigram's), read by the model's builder
  // (tokenizer_full.cpp: the chapter's module reads no such file).
  bool read_listed_vocabulary();
  // One key of the vocabulary, with its id, into the table.
  bool add_entry(std::string_view key, std::int32_t id);

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
  bool build_model();

  // The contents of the added tokens with "normalized": true, as the
  // normalizers make them (what the normalized pass matches); and the ids
  // the post-processors add, which must be tokens (tokenizer_full.cpp: the
  // chapter's module has neither normalizers nor post-processors).
  bool normalize_added_tokens(std::uint64_t memory_limit);
  bool check_post_processors();

  // ---- The final tables ----------------------------------------------------------
  bool finish();

  std::string_view text_;
  Tokenizer& t_;
  std::string& error_;
  std::uint64_t memory_limit_ = std::numeric_limits<std::uint64_t>::max();
  tokenizer_json::Reading reading_;

  // First walk.
  Part vocab_, merges_, added_;
  std::vector<Small> small_, model_small_;
  bool model_found_ = false;
  std::size_t small_bytes_ = 0;  // Text read as trees: all but the three big parts.

  json::Value root_;  // The small parts (model: without vocab and merges).
  std::unique_ptr<tokenizer_json::ModelBuilder> builder_;
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
