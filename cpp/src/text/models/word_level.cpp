// tokenizer.json's "model" of type WordLevel: a piece is the token it
// spells, or unk_token. Hugging Face's WordLevel::tokenize.
#include <memory>
#include <string>
#include <utility>

#include "tokenizer_json/reading.h"

namespace embeddings::models {
namespace {

class WordLevel : public Model {
 public:
  WordLevel(std::int32_t unk_id, std::string unk) : unk_id_(unk_id), unk_(std::move(unk)) {}

  bool encode_piece(std::string_view piece, const Vocabulary& vocabulary, ModelScratch& scratch,
                    std::vector<std::int32_t>& ids) const override {
    const std::int32_t id = vocabulary.find(piece);
    if (id >= 0 || unk_id_ >= 0) {
      ids.push_back(id >= 0 ? id : unk_id_);
      if (scratch.spans != nullptr) scratch.spans->push_back({0, static_cast<std::uint32_t>(piece.size())});
      return true;
    }
    scratch.error = "model.unk_token " + quote(unk_) + " is not in model.vocab, and the word " +
                    quote(piece) + " needs it";
    return false;
  }

 private:
  const std::int32_t
      unk_id_;  // -1 when unk_token is not in the vocabulary (the Rust library fails then too).
  const std::string unk_;
};

class WordLevelBuilder : public tokenizer_json::ModelBuilder {
 public:
  explicit WordLevelBuilder(std::string unk) : unk_(std::move(unk)) {}
  bool build(const Vocabulary&, tokenizer_json::VocabularyKeys& keys, tokenizer_json::Reading&,
             std::shared_ptr<const Model>& out) override {
    out = std::make_shared<WordLevel>(keys.id_of_key(unk_), unk_);
    return true;
  }

 private:
  std::string unk_;
};

}  // namespace

// unk_token is required, as there.
bool read_word_level(const json::Value& model, tokenizer_json::Reading& reading,
                     std::unique_ptr<tokenizer_json::ModelBuilder>& out) {
  std::string unk;
  if (!reading.read_string(model, "unk_token", "model", unk, false)) return false;
  out = std::make_unique<WordLevelBuilder>(std::move(unk));
  return true;
}

}  // namespace embeddings::models
