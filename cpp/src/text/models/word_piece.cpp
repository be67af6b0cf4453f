// tokenizer.json's "model" of type WordPiece (BERT's): a piece is cut
// greedily into the longest tokens from its start, every one but the first
// with continuing_subword_prefix; a piece of more than
// max_input_chars_per_word characters, or one that cannot be cut so, is
// unk_token. Hugging Face's WordPiece::tokenize, in what it gives.
//
// The tokens are two path-compressed tries (token_trie.h), those that start
// with the prefix (less it) and the others: about the vocabulary's bytes. A
// word costs one walk from each token's start, reading as far as a token
// goes on matching (at most the word's length times the longest token),
// counted and held to an allowance linear in the text (models/trie_walks.h);
// the Rust library's search, a lookup of every shorter end from each start,
// is cubic in the word (max_input_chars_per_word may be up to 2^30).
#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "embeddings/common/utf8.h"
#include "embeddings/text/byte_level.h"
#include "embeddings/text/token_trie.h"
#include "models/trie_walks.h"
#include "tokenizer_json/reading.h"

namespace embeddings::models {
namespace {

using tokenizer_json::describe;

class WordPiece : public Model {
 public:
  WordPiece(std::string prefix, std::size_t max_characters, std::int32_t unk_id, std::string unk,
            bool by_characters, const Vocabulary& vocabulary)
      : prefix_(std::move(prefix)),
        max_characters_(max_characters),
        unk_id_(unk_id),
        unk_(std::move(unk)),
        by_characters_(by_characters) {
    // Those that start with the prefix, less it (what follows a word's
    // first token, and a first token that starts with the prefix), and the
    // others: each token in one trie. With no prefix, all are the others.
    std::vector<std::string_view> words, continuations;
    std::vector<std::int32_t> word_ids, continuation_ids;
    vocabulary.for_each_findable([&](std::int32_t id, std::string_view bytes) {
      longest_ = std::max(longest_, bytes.size());
      if (!prefix_.empty() && bytes.size() > prefix_.size() && bytes.substr(0, prefix_.size()) == prefix_) {
        continuations.push_back(bytes.substr(prefix_.size()));
        continuation_ids.push_back(id);
      } else {
        words.push_back(bytes);
        word_ids.push_back(id);
      }
    });
    words_.build(words, word_ids);
    continuations_.build(continuations, continuation_ids);
  }

  // Longest match first, as the Rust library's loop over shorter and
  // shorter ends finds it, but by one walk of a trie from each start: the
  // longest token there that ends where a character does.
  bool encode_piece(std::string_view piece, const Vocabulary&, ModelScratch& scratch,
                    std::vector<std::int32_t>& ids) const override {
    // Whether a character starts at each byte (each byte, for a byte-level vocabulary), and the end.
    std::vector<std::uint8_t>& starts = scratch.starts;
    starts.assign(piece.size() + 1, by_characters_ ? 0 : 1);
    starts[piece.size()] = 1;
    std::size_t characters = 0;
    for (std::size_t pos = 0; pos < piece.size(); ++characters) {
      starts[pos] = 1;
      std::uint32_t code = 0;
      const std::size_t used = by_characters_ ? utf8::decode(piece, pos, code) : 1;
      pos += used == 0 ? 1 : used;
    }
    const std::size_t first_id = ids.size();
    const std::size_t first_span = scratch.spans != nullptr ? scratch.spans->size() : 0;
    bool bad = characters > max_characters_;
    TrieWalks walks(piece.size(), scratch);
    for (std::size_t start = 0; start < piece.size() && !bad;) {
      std::size_t end = 0;
      std::int32_t id = -1;
      // The longest token from `at` on (`skip` bytes of the prefix before it) that ends where a character
      // does.
      const auto longest = [&](const TokenTrie& tokens, std::size_t at, std::size_t skip) {
        const std::size_t read = tokens.prefixes(piece, at, [&](std::size_t length, std::int32_t found) {
          if (starts[at + length] == 0 || at + length <= end) return;
          end = at + length;
          id = found;
        });
        return walks.take(read + skip, "WordPiece", longest_);
      };
      if (start > 0 && !prefix_.empty()) {
        if (!longest(continuations_, start, 0)) return false;
      } else {
        if (!longest(words_, start, 0)) return false;
        // A first token that starts with the prefix: the text starts with it too.
        if (!prefix_.empty() && piece.substr(0, prefix_.size()) == prefix_ &&
            !longest(continuations_, prefix_.size(), prefix_.size()))
          return false;
      }
      if (id < 0) {
        bad = true;
        break;
      }
      ids.push_back(id);
      if (scratch.spans != nullptr) {
        scratch.spans->push_back({static_cast<std::uint32_t>(start), static_cast<std::uint32_t>(end),
                                  cuts_character(piece, start, end)});
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
  TokenTrie words_;          // The tokens that do not start with the prefix.
  TokenTrie continuations_;  // Those that do, less it.
  std::size_t longest_ = 0;  // The longest token's bytes.
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
    out = std::make_shared<WordPiece>(prefix_, max_characters_, keys.id_of_key(unk_), unk_, by_characters_,
                                      vocabulary);
    return true;
  }
  // The two tries (each token in one) and the lists they are built from.
  std::uint64_t memory_bytes(std::size_t entries, std::size_t key_bytes, std::size_t) const override {
    return entries * (sizeof(std::string_view) + sizeof(std::int32_t)) + 2 * TokenTrie::memory_bytes(0, 0) +
           TokenTrie::memory_bytes(entries, key_bytes);
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
