#include "embeddings/training/bpe_trainer.h"

#include <algorithm>
#include <queue>

#include "embeddings/formats/json.h"
#include "embeddings/text/byte_level.h"
#include "embeddings/text/pretokenizer.h"

namespace embeddings {
namespace {

using Pair = std::uint64_t;  // left id << 32 | right id

Pair make_pair_key(std::int32_t left, std::int32_t right) {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(left)) << 32) |
         static_cast<std::uint32_t>(right);
}
std::int32_t left_of(Pair pair) { return static_cast<std::int32_t>(pair >> 32); }
std::int32_t right_of(Pair pair) { return static_cast<std::int32_t>(pair & 0xFFFFFFFFu); }

struct Word {
  std::vector<std::int32_t> symbols;
  std::int64_t count;
};

struct Candidate {
  std::int64_t count;
  Pair pair;
};

// Highest count first; on ties the smaller pair key, i.e. smaller left id, then smaller right id.
struct LowerPriority {
  bool operator()(const Candidate& a, const Candidate& b) const {
    return a.count != b.count ? a.count < b.count : a.pair > b.pair;
  }
};

// The pieces as words of byte ids, in a fixed order (sorted bytes), so that
// nothing depends on hash order. Single bytes are left out: nothing to merge.
std::vector<Word> words_of(const std::unordered_map<std::string, std::uint64_t>& piece_counts) {
  std::vector<const std::pair<const std::string, std::uint64_t>*> sorted;
  sorted.reserve(piece_counts.size());
  for (const auto& entry : piece_counts) sorted.push_back(&entry);
  std::sort(sorted.begin(), sorted.end(), [](const auto* a, const auto* b) { return a->first < b->first; });
  std::vector<Word> words;
  words.reserve(sorted.size());
  for (const auto* entry : sorted) {
    if (entry->first.size() < 2) continue;
    Word word;
    word.count = static_cast<std::int64_t>(entry->second);
    for (const char ch : entry->first) word.symbols.push_back(static_cast<unsigned char>(ch));
    words.push_back(std::move(word));
  }
  return words;
}

// Training's state between merges: the words, how often each adjacent pair
// occurs over all of them (weighted by the words' counts), which words hold
// each pair, and a queue of pairs by count. Counts are updated incrementally
// as merges rewrite the words that hold their pair.
class PairStatistics {
 public:
  explicit PairStatistics(std::vector<Word> words)
      : words_(std::move(words)), visited_(words_.size(), UINT32_MAX) {
    for (std::uint32_t w = 0; w < words_.size(); ++w) {
      const auto& symbols = words_[w].symbols;
      for (std::size_t i = 0; i + 1 < symbols.size(); ++i) {
        const Pair pair = make_pair_key(symbols[i], symbols[i + 1]);
        pair_counts_[pair] += words_[w].count;
        auto& list = words_with_pair_[pair];
        if (list.empty() || list.back() != w) list.push_back(w);
      }
    }
    for (const auto& [pair, count] : pair_counts_) queue_.push({count, pair});
  }

  // The most frequent pair (ties as LowerPriority orders them); false when none is left.
  bool most_frequent(Pair& pair) {
    while (!queue_.empty()) {
      const Candidate top = queue_.top();
      queue_.pop();
      const auto current = pair_counts_.find(top.pair);
      const std::int64_t count = current == pair_counts_.end() ? 0 : current->second;
      if (count == top.count) {
        pair = top.pair;
        return true;
      }
      // Counts only fall (pairs with the new token are queued fresh), so a
      // stale entry is requeued with its true count and the order stays right.
      if (count > 0) queue_.push({count, top.pair});
    }
    return false;
  }

  // Rewrites every word holding `pair` with `new_id` (merge number `step`).
  void merge(Pair pair, std::int32_t new_id, std::uint32_t step) {
    const std::int32_t left = left_of(pair), right = right_of(pair);
    new_pairs_.clear();
    const std::vector<std::uint32_t> affected = std::move(words_with_pair_[pair]);
    words_with_pair_.erase(pair);
    for (const std::uint32_t w : affected) {
      if (visited_[w] == step) continue;
      visited_[w] = step;
      Word& word = words_[w];
      const auto& symbols = word.symbols;
      rewritten_.clear();
      // Left to right, non-overlapping: "a a a" with (a, a) gives "aa a".
      for (std::size_t i = 0; i < symbols.size();) {
        if (i + 1 < symbols.size() && symbols[i] == left && symbols[i + 1] == right) {
          if (!rewritten_.empty()) {
            change(pair, rewritten_.back(), left, -word.count, w);
            change(pair, rewritten_.back(), new_id, word.count, w);
          }
          if (i + 2 < symbols.size()) {
            change(pair, right, symbols[i + 2], -word.count, w);
            change(pair, new_id, symbols[i + 2], word.count, w);
          }
          rewritten_.push_back(new_id);
          i += 2;
        } else {
          rewritten_.push_back(symbols[i]);
          ++i;
        }
      }
      word.symbols.assign(rewritten_.begin(), rewritten_.end());
    }
    pair_counts_.erase(pair);
    for (const Pair new_pair : new_pairs_) {
      const std::int64_t new_count = pair_counts_[new_pair];
      if (new_count > 0) queue_.push({new_count, new_pair});
    }
  }

 private:
  // A neighbouring pair of word `w` gained or lost `delta` occurrences.
  void change(Pair merged, std::int32_t a, std::int32_t b, std::int64_t delta, std::uint32_t w) {
    const Pair pair = make_pair_key(a, b);
    if (pair == merged) return;  // Removed as a whole by merge().
    pair_counts_[pair] += delta;
    if (delta > 0) {
      auto& list = words_with_pair_[pair];
      if (list.empty()) new_pairs_.push_back(pair);
      if (list.empty() || list.back() != w) list.push_back(w);
    }
  }

  std::vector<Word> words_;
  std::unordered_map<Pair, std::int64_t> pair_counts_;
  std::unordered_map<Pair, std::vector<std::uint32_t>> words_with_pair_;
  std::priority_queue<Candidate, std::vector<Candidate>, LowerPriority> queue_;
  std::vector<std::uint32_t> visited_;  // Merge step that last rewrote each word.
  std::vector<std::int32_t> rewritten_;
  std::vector<Pair> new_pairs_;
};

// Records the merge of `pair`: its token (an existing one when two merges
// spell the same bytes, as in Hugging Face's trainer) and the rule. Returns the token's id.
std::int32_t add_merge(Pair pair, BpeVocabulary& vocab,
                       std::unordered_map<std::string, std::int32_t>& id_by_bytes) {
  const std::int32_t left = left_of(pair), right = right_of(pair);
  std::string merged = vocab.tokens[left] + vocab.tokens[right];
  std::int32_t new_id;
  if (const auto existing = id_by_bytes.find(merged); existing != id_by_bytes.end()) {
    new_id = existing->second;
  } else {
    new_id = static_cast<std::int32_t>(vocab.tokens.size());
    id_by_bytes.emplace(merged, new_id);
    vocab.tokens.push_back(std::move(merged));
  }
  vocab.merges.emplace_back(left, right);
  return new_id;
}

}  // namespace

BpeTrainer::BpeTrainer(std::vector<std::string> special_tokens) : special_tokens_(std::move(special_tokens)) {
  special_tokens_.erase(std::remove_if(special_tokens_.begin(), special_tokens_.end(),
                                       [](const std::string& token) { return token.empty(); }),
                        special_tokens_.end());
  std::vector<std::string_view> contents;
  std::vector<std::int32_t> values;
  for (const std::string& token : special_tokens_) {
    if (std::find(contents.begin(), contents.end(), token) != contents.end()) continue;
    contents.push_back(token);
    values.push_back(static_cast<std::int32_t>(values.size()));
  }
  special_trie_.build(contents, values);
}

void BpeTrainer::add_text(std::string_view text) {
  const auto count_pieces = [&](std::string_view gap) {
    std::size_t pos = 0;
    while (pos < gap.size()) {
      const std::size_t length = pretoken_length(gap, pos);
      ++piece_counts_[std::string(gap.substr(pos, length))];
      ++piece_count_;
      pos += length;
    }
  };
  // Cut out special tokens the way Tokenizer::encode does: leftmost, longest.
  std::size_t start = 0, match = 0, length = 0;
  std::int32_t which = 0;
  while (special_trie_.find(text, start, match, length, which)) {
    count_pieces(text.substr(start, match - start));
    start = match + length;
  }
  count_pieces(text.substr(start));
}

bool BpeTrainer::train(std::size_t vocab_size, BpeVocabulary& out, std::string& error,
                       const std::function<void(std::size_t)>& progress) const {
  const std::size_t minimum = 256 + special_tokens_.size();
  if (vocab_size < minimum || vocab_size > static_cast<std::size_t>(INT32_MAX)) {
    error = "vocab size " + std::to_string(vocab_size) + " must be at least " + std::to_string(minimum) +
            " (256 byte tokens and " + std::to_string(special_tokens_.size()) + " special tokens)";
    return false;
  }
  const std::size_t target = vocab_size - special_tokens_.size();

  BpeVocabulary vocab;
  std::unordered_map<std::string, std::int32_t> id_by_bytes;
  for (int byte = 0; byte < 256; ++byte) {
    vocab.tokens.emplace_back(1, static_cast<char>(byte));
    id_by_bytes.emplace(vocab.tokens.back(), byte);
  }

  PairStatistics statistics(words_of(piece_counts_));
  while (vocab.tokens.size() < target) {
    Pair pair = 0;
    if (!statistics.most_frequent(pair)) {
      error = "the text has no more pairs to merge after " + std::to_string(vocab.merges.size()) +
              " merges (" + std::to_string(vocab.tokens.size() + special_tokens_.size()) +
              " tokens); vocab size " + std::to_string(vocab_size) + " needs more text";
      return false;
    }
    const auto step = static_cast<std::uint32_t>(vocab.merges.size());
    statistics.merge(pair, add_merge(pair, vocab, id_by_bytes), step);
    if (progress && vocab.merges.size() % 256 == 0) progress(vocab.tokens.size());
  }

  vocab.first_special_id = static_cast<std::int32_t>(vocab.tokens.size());
  for (const std::string& special : special_tokens_) vocab.tokens.push_back(special);
  vocab.special_tokens = special_tokens_;
  out = std::move(vocab);
  return true;
}

std::string tokenizer_json(const BpeVocabulary& vocab) {
  std::string out;
  const auto byte_level_text = [](std::string_view bytes) {
    std::string text;
    byte_level::append_encoded(text, bytes);
    return text;
  };
  out += "{\n  \"version\": \"1.0\",\n  \"truncation\": null,\n  \"padding\": null,\n  \"added_tokens\": [";
  for (std::size_t i = 0; i < vocab.special_tokens.size(); ++i) {
    out += i == 0 ? "\n" : ",\n";
    out += "    {\"id\": " + std::to_string(vocab.first_special_id + static_cast<std::int32_t>(i)) +
           ", \"content\": ";
    json::append_quoted(out, vocab.special_tokens[i]);
    out +=
        ", \"single_word\": false, \"lstrip\": false, \"rstrip\": false, \"normalized\": true, \"special\": "
        "true}";
  }
  out += vocab.special_tokens.empty() ? "],\n" : "\n  ],\n";
  out +=
      "  \"normalizer\": null,\n"
      "  \"pre_tokenizer\": {\"type\": \"ByteLevel\", \"add_prefix_space\": false, \"trim_offsets\": true, "
      "\"use_regex\": true},\n"
      "  \"post_processor\": {\"type\": \"ByteLevel\", \"add_prefix_space\": true, \"trim_offsets\": false, "
      "\"use_regex\": true},\n"
      "  \"decoder\": {\"type\": \"ByteLevel\", \"add_prefix_space\": true, \"trim_offsets\": true, "
      "\"use_regex\": true},\n"
      "  \"model\": {\n"
      "    \"type\": \"BPE\",\n    \"dropout\": null,\n    \"unk_token\": null,\n"
      "    \"continuing_subword_prefix\": \"\",\n    \"end_of_word_suffix\": \"\",\n"
      "    \"fuse_unk\": false,\n    \"byte_fallback\": false,\n    \"ignore_merges\": false,\n"
      "    \"vocab\": {";
  const auto special_begin = static_cast<std::size_t>(vocab.first_special_id);
  for (std::size_t id = 0; id < vocab.tokens.size(); ++id) {
    out += id == 0 ? "\n      " : ",\n      ";
    // Special tokens are stored as their text, like GPT-2's "<|endoftext|>".
    json::append_quoted(out, id >= special_begin ? vocab.tokens[id] : byte_level_text(vocab.tokens[id]));
    out += ": " + std::to_string(id);
  }
  out += "\n    },\n    \"merges\": [";
  for (std::size_t i = 0; i < vocab.merges.size(); ++i) {
    out += i == 0 ? "\n      " : ",\n      ";
    json::append_quoted(out, byte_level_text(vocab.tokens[vocab.merges[i].first]) + " " +
                                 byte_level_text(vocab.tokens[vocab.merges[i].second]));
  }
  out += "\n    ]\n  }\n}\n";
  return out;
}

}  // namespace embeddings
