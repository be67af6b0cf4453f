// tokenizer.json's "model" of type WordPiece (BERT's): a piece is cut
// greedily into the longest tokens from its start, every one but the first
// with continuing_subword_prefix; a piece of more than
// max_input_chars_per_word characters, or one that cannot be cut so, is
// unk_token. Hugging Face's WordPiece::tokenize, step for step.
#include <memory>
#include <string>
#include <utility>

#include "embeddings/common/utf8.h"
#include "embeddings/text/byte_level.h"
#include "tokenizer_json/reading.h"

namespace embeddings::models {
namespace {

using tokenizer_json::describe;

class WordPiece : public Model {
 public:
  WordPiece(std::string prefix, std::size_t max_characters, std::int32_t unk_id, std::string unk,
            bool by_characters)
      : prefix_(std::move(prefix)),
        max_characters_(max_characters),
        unk_id_(unk_id),
        unk_(std::move(unk)),
        by_characters_(by_characters) {}

  bool encode_piece(std::string_view piece, const Vocabulary& vocabulary, ModelScratch& scratch,
                    std::vector<std::int32_t>& ids) const override {
    // Where each character starts (each byte, for a byte-level vocabulary), and the end.
    std::vector<std::uint32_t>& starts = scratch.path;
    starts.clear();
    for (std::size_t pos = 0; pos < piece.size();) {
      starts.push_back(static_cast<std::uint32_t>(pos));
      std::uint32_t code = 0;
      const std::size_t used = by_characters_ ? utf8::decode(piece, pos, code) : 1;
      pos += used == 0 ? 1 : used;
    }
    const std::size_t characters = starts.size();
    starts.push_back(static_cast<std::uint32_t>(piece.size()));
    const std::size_t first_id = ids.size();
    const std::size_t first_span = scratch.spans != nullptr ? scratch.spans->size() : 0;
    bool bad = characters > max_characters_;
    std::string& unit = scratch.merge.unit;
    for (std::size_t start = 0; start < characters && !bad;) {
      std::size_t end = characters;  // In characters.
      std::int32_t id = -1;
      for (; end > start; --end) {
        unit.assign(start == 0 ? "" : prefix_);
        unit.append(piece, starts[start], starts[end] - starts[start]);
        id = vocabulary.find(unit);
        if (id >= 0) break;
      }
      if (id < 0) {
        bad = true;
        break;
      }
      ids.push_back(id);
      if (scratch.spans != nullptr) {
        scratch.spans->push_back(
            {starts[start], starts[end], cuts_character(piece, starts[start], starts[end])});
      }
      start = end;
    }
    if (!bad) return true;
    ids.resize(first_id);
    if (scratch.spans != nullptr) scratch.spans->resize(first_span);
    if (unk_id_ < 0) {
      scratch.error = "model.unk_token " + quote(unk_) + " is not in model.vocab, and a word needs it";
      return false;
    }
    ids.push_back(unk_id_);
    if (scratch.spans != nullptr) scratch.spans->push_back({0, static_cast<std::uint32_t>(piece.size())});
    return true;
  }

 private:
  const std::string prefix_;  // As bytes.
  const std::size_t max_characters_;
  const std::int32_t
      unk_id_;  // -1 when unk_token is not in the vocabulary (the Rust library fails then too).
  const std::string unk_;
  const bool by_characters_;
};

// unk_token, continuing_subword_prefix and max_input_chars_per_word are
// required, as there; no merges.
class WordPieceBuilder : public tokenizer_json::ModelBuilder {
 public:
  bool read(const json::Value& model, tokenizer_json::Reading& reading) {
    by_characters_ = !reading.byte_level_vocabulary;
    if (!reading.read_string(model, "unk_token", "model", unk_, false) ||
        !reading.read_string(model, "continuing_subword_prefix", "model", prefix_, false) ||
        !reading.read_count(model, "max_input_chars_per_word", "model", max_characters_)) {
      return false;
    }
    if (!by_characters_) {
      std::string bytes;
      if (!byte_level::decode(prefix_, bytes)) {
        return reading.fail("model.continuing_subword_prefix " + quote(prefix_) +
                            " is not a byte-level string (the vocabulary is in GPT-2's byte alphabet)");
      }
      prefix_ = bytes;
    }
    return true;
  }
  bool build(const Vocabulary& vocabulary, tokenizer_json::VocabularyKeys& keys, tokenizer_json::Reading&,
             std::shared_ptr<const Model>& out) override {
    out = std::make_shared<WordPiece>(prefix_, max_characters_, keys.id_of_key(unk_), unk_, by_characters_);
    (void)vocabulary;
    return true;
  }

 private:
  std::string unk_, prefix_;
  std::size_t max_characters_ = 100;
  bool by_characters_ = true;
};

}  // namespace

bool read_word_piece(const json::Value& model, tokenizer_json::Reading& reading,
                     std::unique_ptr<tokenizer_json::ModelBuilder>& out) {
  auto builder = std::make_unique<WordPieceBuilder>();
  if (!builder->read(model, reading)) return false;
  out = std::move(builder);
  return true;
}

}  // namespace embeddings::models
