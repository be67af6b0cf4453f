// What a component's reader is given: its JSON object, where it is in the
// file (for messages) and this Reading, which reads the common kinds of
// members with messages that name the field, and reads the stages of a
// Sequence through the registry this build links. Internal to the library.
//
// A component's reader has the signature of its stage's Read* below: it
// reads `value` (an object whose "type" the registry matched) and appends
// its stage(s) to `out`, or fails with a message naming the field.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "embeddings/common/message.h"
#include "embeddings/formats/json.h"
#include "embeddings/text/models.h"
#include "embeddings/text/pipeline.h"

namespace embeddings {
namespace tokenizer_json {

class Reading;
class ModelBuilder;

using ReadNormalizer = bool(const json::Value& value, const std::string& where, Reading& reading,
                            Normalizers& out);
using ReadPreTokenizer = bool(const json::Value& value, const std::string& where, Reading& reading,
                              PreTokenizers& out);
using ReadDecoder = bool(const json::Value& value, const std::string& where, Reading& reading, Decoders& out);
using ReadPostProcessor = bool(const json::Value& value, const std::string& where, Reading& reading,
                               PostProcessors& out);
// A model's reader reads its settings ("model" without the vocabulary and
// merges) into a builder, which the loader then fills from the big parts.
using ReadModel = bool(const json::Value& model, Reading& reading, std::unique_ptr<ModelBuilder>& out);

template <typename Read>
struct Kind {
  const char* type;
  Read* read;
};

// The components a build reads (registry_full.cpp, registry_chapter.cpp).
struct Registry {
  const Kind<ReadNormalizer>* normalizers;
  std::size_t normalizer_count;
  const Kind<ReadPreTokenizer>* pre_tokenizers;
  std::size_t pre_tokenizer_count;
  const Kind<ReadModel>* models;
  std::size_t model_count;
  const Kind<ReadDecoder>* decoders;
  std::size_t decoder_count;
  const Kind<ReadPostProcessor>* post_processors;
  std::size_t post_processor_count;
  // Whether this build is the full one: a kind it lacks is then not
  // supported anywhere, rather than left out of this build.
  bool complete;
};
// The registry of the build: the one registry file it links defines it.
const Registry& registry();

// Ids are int32 everywhere in the project, and vocab_size() = max id + 1 must fit too.
inline constexpr std::int64_t kMaxId = 2147483646;

// A value for an error message: "the number 5", "the string \"x\"", "an array".
std::string describe(const json::Value& value);
std::string describe(const json::Value* value);  // "nothing" for nullptr.
inline bool is_null_or_absent(const json::Value* value) { return value == nullptr || value->is_null(); }
bool has_type(const json::Value& component, std::string_view type);

class Reading {
 public:
  explicit Reading(std::string& error) : error_(error) {}

  bool fail(const std::string& message) {
    error_ = message;
    return false;
  }

  // Optional members: absent or null keeps `value`.
  bool read_bool(const json::Value& object, const char* key, const std::string& where, bool& value);
  // Required members.
  bool read_string(const json::Value& object, const char* key, const std::string& where, std::string& value,
                   bool one_character);
  bool read_count(const json::Value& object, const char* key, const std::string& where, std::size_t& value);
  // An id (0 to 2^31 - 2) at `value`, named `where`.
  bool read_id(const json::Value* value, const std::string& where, std::int32_t& id);
  // A Split's, a Replace's "pattern": {"Regex": ...} or {"String": ...}, compiled.
  bool read_pattern(const json::Value& component, const std::string& where,
                    std::shared_ptr<const regex::Regex>& out);

  // One component at `value` through the registry (a Sequence's stages).
  bool read_normalizer(const json::Value& value, const std::string& where, Normalizers& out);
  bool read_pre_tokenizer(const json::Value& value, const std::string& where, PreTokenizers& out);
  bool read_decoder(const json::Value& value, const std::string& where, Decoders& out);
  bool read_post_processor(const json::Value& value, const std::string& where, PostProcessors& out);
  bool read_model(const json::Value& model, std::unique_ptr<ModelBuilder>& out);
  // A Sequence: each item of `value[key]`, an array, by `read_one`.
  template <typename List>
  bool read_sequence(const json::Value& value, const char* key, const std::string& where, List& out,
                     bool (Reading::*read_one)(const json::Value&, const std::string&, List&));

  // What the model reader knows by the time the model is read: whether the
  // vocabulary is spelled in GPT-2's byte alphabet (a ByteLevel
  // pre-tokenizer maps text into it) or as text.
  bool byte_level_vocabulary = false;
  // The post-processors that trim offsets (trim_offsets: ByteLevel's,
  // RobertaProcessing's), in order, one character each: 1 when it has
  // add_prefix_space, else 0.
  std::string offset_trims;
  // The memory the components may still take (a pattern's program can be
  // a million instructions from a few bytes of the file: each is counted
  // before it is written, against what the loader was given).
  std::uint64_t memory_left = UINT64_MAX;

 private:
  std::string& error_;
};

// The vocabulary as the loader streams it into a model's tables, and how a
// key of the file finds its id.
class VocabularyKeys {
 public:
  virtual ~VocabularyKeys() = default;
  // The id of the entry whose key (as the file spells it) is `key`, or -1.
  virtual std::int32_t id_of_key(std::string_view key) = 0;
};
class VocabularyEntries {
 public:
  virtual ~VocabularyEntries() = default;
  // Adds the entry `key` with `id` (false, the message set, when it cannot be a token).
  virtual bool add_key(std::string_view key, std::int32_t id) = 0;
};

// What a model kind reads beyond its settings: the loader streams the
// vocabulary (and BPE's merges) into it, then build() makes the model.
class ModelBuilder {
 public:
  virtual ~ModelBuilder() = default;
  // Unigram's vocabulary is a list of [token, score]; the others map tokens to ids.
  virtual bool scored_vocabulary() const { return false; }
  // Such a list, `entries` long, at byte `at` of the file (whose syntax the
  // first walk checked): each entry into `keys`.
  virtual bool read_vocabulary_list(std::string_view /*file*/, std::size_t /*at*/, std::size_t /*entries*/,
                                    VocabularyEntries& /*entries*/, Reading& /*reading*/) {
    return false;
  }
  // BPE reads model.merges; the others have none.
  virtual bool has_merges() const { return false; }
  // Memory its own tables take beyond the vocabulary, at most, for the
  // estimate made before anything is allocated: from the vocabulary's
  // entries and their keys' bytes (at most the tokens' bytes), and the merges.
  virtual std::uint64_t memory_bytes(std::size_t /*entries*/, std::size_t /*key_bytes*/,
                                     std::size_t /*merges*/) const {
    return 0;
  }
  // BPE: the merge table the loader fills, and the prefix a merge's right part loses.
  virtual bpe::MergeTable* merges() { return nullptr; }
  virtual std::string_view merge_prefix() const { return {}; }
  // The model, once the vocabulary and merges are in. `keys` finds ids by
  // the file's spelling (unk_token and the like).
  virtual bool build(const Vocabulary& vocabulary, VocabularyKeys& keys, Reading& reading,
                     std::shared_ptr<const Model>& out) = 0;
};

template <typename List>
bool Reading::read_sequence(const json::Value& value, const char* key, const std::string& where, List& out,
                            bool (Reading::*read_one)(const json::Value&, const std::string&, List&)) {
  const json::Value* steps = value.find(key);
  if (steps == nullptr || !steps->is_array())
    return fail(where + "." + key + " must be an array, found " + describe(steps));
  for (std::size_t i = 0; i < steps->items.size(); ++i) {
    if (!(this->*read_one)(steps->items[i], where + "." + key + "[" + std::to_string(i) + "]", out))
      return false;
  }
  return true;
}

}  // namespace tokenizer_json
}  // namespace embeddings
