// tokenizer.json's "model" of type Unigram (SentencePiece's: T5, ALBERT,
// XLNet, XLM-R, mBART): each piece is cut where the sum of its tokens'
// scores is highest (Viterbi over every token that starts at each
// character, Hugging Face's Unigram::encode_optimized), a character no
// token starts with scoring the lowest score less 10 as unk_id; runs of
// unk_id are fused into one piece, which byte_fallback turns into its
// bytes' "<0xNN>" tokens when it can, as Unigram::tokenize does. Ties keep
// the first path found, as there (a later one must score strictly higher).
//
// The tokens are a path-compressed trie (token_trie.h): about the vocabulary's
// bytes again, however long its tokens. The lattice walks it from each
// character, reading the text as far as a token goes on matching it; the
// bytes read are counted and held to an allowance linear in the text
// (models/trie_walks.h).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "embeddings/common/utf8.h"
#include "embeddings/formats/json_reader.h"
#include "embeddings/text/token_trie.h"
#include "models/trie_walks.h"
#include "tokenizer_json/reading.h"

namespace embeddings::models {
namespace {

using tokenizer_json::describe;
using tokenizer_json::is_null_or_absent;

// Hugging Face's K_UNK_PENALTY.
constexpr double kUnknownPenalty = 10.0;
constexpr std::uint32_t kUnreached = std::numeric_limits<std::uint32_t>::max();

class Unigram : public Model {
 public:
  Unigram(std::vector<double> scores, std::int32_t unk_id, bool byte_fallback, const Vocabulary& vocabulary)
      : scores_(std::move(scores)), unk_id_(unk_id), byte_fallback_(byte_fallback) {
    double lowest = std::numeric_limits<double>::infinity();
    for (const double score : scores_) lowest = std::min(lowest, score);
    unknown_score_ = lowest - kUnknownPenalty;
    std::vector<std::string_view> contents;
    std::vector<std::int32_t> ids;
    contents.reserve(scores_.size());
    ids.reserve(scores_.size());
    vocabulary.for_each_findable([&](std::int32_t id, std::string_view bytes) {
      if (static_cast<std::size_t>(id) >= scores_.size()) return;  // An added token, not the model's.
      contents.push_back(bytes);
      ids.push_back(id);
      longest_ = std::max(longest_, bytes.size());
    });
    trie_.build(contents, ids);
    static constexpr char kHex[] = "0123456789ABCDEF";
    bool all = true;
    for (int byte = 0; byte < 256; ++byte) {
      const char name[] = {'<', '0', 'x', kHex[byte >> 4], kHex[byte & 15], '>'};
      fallback_ids_[byte] = vocabulary.find(std::string_view(name, sizeof name));
      all = all && fallback_ids_[byte] >= 0;
    }
    every_byte_has_a_token_ = byte_fallback_ && all;
  }

  bool encode_piece(std::string_view piece, const Vocabulary& vocabulary, ModelScratch& scratch,
                    std::vector<std::int32_t>& ids) const override {
    if (piece.empty()) return true;
    if (!best_paths(piece, scratch)) return false;
    // The path's token ends, from the last back.
    std::vector<std::uint32_t>& path = scratch.path;
    path.clear();
    for (std::size_t end = piece.size(); end > 0; end = scratch.best_start[end])
      path.push_back(static_cast<std::uint32_t>(end));
    std::size_t run_start = 0, run_end = 0;  // A run of unk_id pieces, fused.
    bool in_run = false;
    for (std::size_t i = path.size(); i-- > 0;) {
      const std::size_t end = path[i], start = scratch.best_start[end];
      const std::int32_t id = scratch.best_id[end];
      if (id == unk_id_) {
        if (!in_run) run_start = start;
        in_run = true;
        run_end = end;
        continue;
      }
      if (in_run && !push_unknown(piece, run_start, run_end, vocabulary, scratch, ids)) return false;
      in_run = false;
      ids.push_back(id);
      if (scratch.spans != nullptr) {
        scratch.spans->push_back({static_cast<std::uint32_t>(start), static_cast<std::uint32_t>(end),
                                  cuts_character(piece, start, end)});
      }
    }
    return !in_run || push_unknown(piece, run_start, run_end, vocabulary, scratch, ids);
  }
  bool every_byte_has_a_token() const override { return every_byte_has_a_token_; }

 private:
  // Viterbi: scratch.best_score[e] the best score of a path to byte e,
  // scratch.best_id[e] its last token and scratch.best_start[e] where that starts.
  bool best_paths(std::string_view piece, ModelScratch& scratch) const {
    const std::size_t n = piece.size();
    scratch.best_score.assign(n + 1, 0.0);
    scratch.best_id.assign(n + 1, -1);
    scratch.best_start.assign(n + 1, kUnreached);
    TrieWalks walks(n, scratch);
    for (std::size_t start = 0; start < n;) {
      const double before = scratch.best_score[start];
      std::uint32_t code = 0;
      std::size_t length = utf8::decode(piece, start, code);
      if (length == 0) length = 1;  // A byte that is not UTF-8 is a character of its own.
      bool single = false;
      const std::size_t read = trie_.prefixes(piece, start, [&](std::size_t bytes, std::int32_t id) {
        offer(scratch, start, start + bytes, id, scores_[static_cast<std::size_t>(id)] + before);
        single = single || bytes == length;
      });
      if (!walks.take(read, "Unigram", longest_)) return false;
      if (!single) {
        const std::size_t end = start + length;
        const double score = unknown_score_ + before;
        if (scratch.best_start[end] == kUnreached || score > scratch.best_score[end]) {
          if (unk_id_ < 0) {
            scratch.error = "the model has no token for " + quote(piece.substr(start, length)) +
                            " and no unk_id (the Rust library fails here too)";
            return false;
          }
          offer(scratch, start, end, unk_id_, score);
        }
      }
      start += length;
    }
    return true;
  }
  static void offer(ModelScratch& scratch, std::size_t start, std::size_t end, std::int32_t id,
                    double score) {
    if (scratch.best_start[end] != kUnreached && !(score > scratch.best_score[end])) return;
    scratch.best_score[end] = score;
    scratch.best_start[end] = static_cast<std::uint32_t>(start);
    scratch.best_id[end] = id;
  }
  // A fused run of unknown characters, bytes [begin, end) of the piece: the
  // token it spells, else its bytes' "<0xNN>" tokens (byte_fallback, when
  // all exist), else unk_id. Each has the whole run's span, as there (a
  // byte token of a character of several bytes is partial).
  bool push_unknown(std::string_view piece, std::size_t begin, std::size_t end, const Vocabulary& vocabulary,
                    ModelScratch& scratch, std::vector<std::int32_t>& ids) const {
    const std::string_view run = piece.substr(begin, end - begin);
    const auto push = [&](std::int32_t id, bool partial) {
      ids.push_back(id);
      if (scratch.spans != nullptr)
        scratch.spans->push_back(
            {static_cast<std::uint32_t>(begin), static_cast<std::uint32_t>(end), partial});
    };
    const std::int32_t id = vocabulary.find(run);
    if (id >= 0 && static_cast<std::size_t>(id) < scores_.size()) {
      push(id, false);
      return true;
    }
    if (byte_fallback_ && std::all_of(run.begin(), run.end(), [&](char c) {
          return fallback_ids_[static_cast<unsigned char>(c)] >= 0;
        })) {
      for (const char c : run) push(fallback_ids_[static_cast<unsigned char>(c)], (c & 0x80) != 0);
      return true;
    }
    if (unk_id_ < 0) {
      scratch.error = "the model has no token for " + quote(run) + " and no unk_id";
      return false;
    }
    push(unk_id_, false);
    return true;
  }

  TokenTrie trie_;              // The model's tokens' bytes -> id.
  std::size_t longest_ = 0;     // Its longest token's bytes.
  std::vector<double> scores_;  // By id.
  double unknown_score_ = 0;
  const std::int32_t unk_id_;
  const bool byte_fallback_;
  std::int32_t fallback_ids_[256] = {};
  bool every_byte_has_a_token_ = false;
};

class UnigramBuilder : public tokenizer_json::ModelBuilder {
 public:
  bool read(const json::Value& model, tokenizer_json::Reading& reading) {
    const json::Value* unk = model.find("unk_id");
    if (!is_null_or_absent(unk) && !reading.read_id(unk, "model.unk_id", unk_id_)) return false;
    return reading.read_bool(model, "byte_fallback", "model", byte_fallback_);
  }
  bool scored_vocabulary() const override { return true; }
  // The scores, the trie, and the list of tokens it is built from.
  std::uint64_t memory_bytes(std::size_t entries, std::size_t key_bytes, std::size_t) const override {
    return entries * (sizeof(double) + sizeof(std::string_view) + sizeof(std::int32_t)) +
           TokenTrie::memory_bytes(entries, key_bytes);
  }
  // [token, score] pairs, read without building a tree (anything else is
  // read again as one, for the message). A token's id is its place in the list.
  bool read_vocabulary_list(std::string_view file, std::size_t vocabulary_at, std::size_t entries,
                            tokenizer_json::VocabularyEntries& keys,
                            tokenizer_json::Reading& reading) override {
    scores_.reserve(entries);
    json::Reader reader(file, vocabulary_at);
    std::string_view key, lexeme;
    std::string storage, number;
    json::Type type;
    reader.begin_array();
    for (std::size_t i = 0; reader.next_item(); ++i) {
      const std::string where = "model.vocab[" + std::to_string(i) + "]";
      const std::size_t at = reader.position();
      if (i > static_cast<std::size_t>(tokenizer_json::kMaxId))
        return reading.fail(where + ": more than " + std::to_string(tokenizer_json::kMaxId) + " tokens");
      const bool pair = reader.peek(type) && type == json::Type::Array && reader.begin_array() &&
                        reader.next_item() && reader.peek(type) && type == json::Type::String &&
                        reader.read_string(key, storage) && reader.next_item() && reader.peek(type) &&
                        type == json::Type::Number && reader.read_number(lexeme) && !reader.next_item() &&
                        !reader.failed();
      if (!pair) {
        json::Reader again(file, at);
        json::Value item;
        if (!again.read_value(item)) return reading.fail(again.error());
        return reading.fail(where + " must be a [\"token\", score] pair, found " + describe(item));
      }
      number.assign(lexeme);
      const double score = std::strtod(number.c_str(), nullptr);
      if (!std::isfinite(score))
        return reading.fail(where + ": the score " + quote(lexeme) + " is not a finite number");
      if (key.empty()) return reading.fail(where + ": the token is empty");
      if (!keys.add_key(key, static_cast<std::int32_t>(i))) return false;
      scores_.push_back(score);
    }
    return !reader.failed() || reading.fail(reader.error());
  }
  bool build(const Vocabulary& vocabulary, tokenizer_json::VocabularyKeys&, tokenizer_json::Reading& reading,
             std::shared_ptr<const Model>& out) override {
    if (unk_id_ >= 0 && static_cast<std::size_t>(unk_id_) >= scores_.size()) {
      return reading.fail("model.unk_id " + std::to_string(unk_id_) + " is not an index of model.vocab (" +
                          std::to_string(scores_.size()) + " entries)");
    }
    out = std::make_shared<Unigram>(std::move(scores_), unk_id_, byte_fallback_, vocabulary);
    return true;
  }

 private:
  std::int32_t unk_id_ = -1;
  bool byte_fallback_ = false;
  std::vector<double> scores_;
};

}  // namespace

// vocab: [token, score] pairs (an id is a place in the list); unk_id
// (optional, as in the Rust library), byte_fallback.
bool read_unigram(const json::Value& model, tokenizer_json::Reading& reading,
                  std::unique_ptr<tokenizer_json::ModelBuilder>& out) {
  auto builder = std::make_unique<UnigramBuilder>();
  if (!builder->read(model, reading)) return false;
  out = std::move(builder);
  return true;
}

}  // namespace embeddings::models
