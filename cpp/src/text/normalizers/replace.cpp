// tokenizers' Replace, as a normalizer and as a decoder (one component
// there too): every match of `pattern` (a regex, or a string matched
// literally, as Split's patterns are) replaced by `content`, over the
// segments tokenizers' find_matches() gives (NormalizedString::replace; the
// decoder does it to each token). A pattern that matches the empty string
// puts `content` at every character boundary (where the Rust library panics).
#include <algorithm>
#include <memory>
#include <utility>

#include "segments.h"
#include "tokenizer_json/reading.h"

namespace embeddings::normalizers {
namespace {

class Replacement {
 public:
  Replacement(std::shared_ptr<const regex::Regex> pattern, std::string content)
      : pattern_(std::move(pattern)), content_(std::move(content)) {}

  // Whether `count` texts, each with every match replaced, may be written:
  // when the most they could add passes what the budget has left, their
  // exact lengths are counted first (nothing is allocated) and refused past
  // it; `counted` says so. Otherwise the caller takes what they add after.
  bool admits(const std::string* texts, std::size_t count, regex::Regex::Scratch& scratch, TextBudget& budget,
              bool& counted) const {
    std::uint64_t in = 0, most = 0;
    for (std::size_t i = 0; i < count; ++i) {
      in += texts[i].size();
      most = std::min(most + growth().of(texts[i].size()), Growth::kUnbounded);
    }
    counted = most > in && most - in > budget.left();
    if (!counted) return true;
    std::uint64_t length = 0;
    for (std::size_t i = 0; i < count; ++i) {
      if (texts[i].empty()) continue;
      regex_segments(*pattern_, texts[i], scratch, [&](std::size_t begin, std::size_t end, bool is_match) {
        length += is_match ? content_.size() : end - begin;
      });
    }
    return length <= in ||
           budget.take(static_cast<std::size_t>(std::min<std::uint64_t>(length - in, kNoLimit)));
  }

  // `text` with every match replaced, into `out`. With `spans` (offsets), the
  // spans of `out` into `out_spans`: the text between matches keeps its
  // own, and `content` takes the span of the match's last byte, as
  // NormalizedString::replace() has it.
  void apply(const std::string& text, std::string& out, regex::Regex::Scratch& scratch,
             const std::vector<Span>* spans = nullptr, std::vector<Span>* out_spans = nullptr) const {
    out.clear();
    if (out_spans != nullptr) out_spans->clear();
    if (text.empty()) return;  // find_matches() of "" is one segment that is not a match.
    regex_segments(*pattern_, text, scratch, [&](std::size_t begin, std::size_t end, bool is_match) {
      if (is_match) {
        out += content_;
      } else {
        out.append(text, begin, end - begin);
      }
      if (out_spans == nullptr) return;
      if (!is_match) {
        out_spans->insert(out_spans->end(), spans->begin() + static_cast<std::ptrdiff_t>(begin),
                          spans->begin() + static_cast<std::ptrdiff_t>(end));
      } else {
        const Span at = end > 0 ? (*spans)[end - 1] : Span{(*spans)[0].begin, (*spans)[0].begin};
        out_spans->insert(out_spans->end(), content_.size(), at);
      }
    });
  }

  // A match of at least one byte becomes `content`; a pattern that matches
  // the empty string adds `content` at each of the n + 1 boundaries too.
  Growth growth() const {
    const std::uint64_t each = content_.size() > 1 ? content_.size() : 1;
    if (!pattern_->matches_empty()) return {each, 0};
    return {each + content_.size(), content_.size()};
  }

 private:
  const std::shared_ptr<const regex::Regex> pattern_;
  const std::string content_;
};

class ReplaceNormalizer : public Normalizer {
 public:
  explicit ReplaceNormalizer(Replacement replacement) : replacement_(std::move(replacement)) {}
  bool normalize(std::string& text, StageScratch& scratch, TextBudget& budget) const override {
    return replace(text, scratch, budget, nullptr);
  }
  bool normalize_aligned(std::string& text, std::vector<Span>& spans, StageScratch& scratch,
                         TextBudget& budget) const override {
    return replace(text, scratch, budget, &spans);
  }
  Growth growth() const override { return replacement_.growth(); }

 private:
  bool replace(std::string& text, StageScratch& scratch, TextBudget& budget, std::vector<Span>* spans) const {
    bool counted = false;
    if (!replacement_.admits(&text, 1, scratch.regex, budget, counted)) return false;
    std::vector<Span> out_spans;
    replacement_.apply(text, scratch.spare, scratch.regex, spans, spans != nullptr ? &out_spans : nullptr);
    // (Uncounted, the budget covers the most it could have grown.)
    if (!counted && scratch.spare.size() > text.size()) budget.take(scratch.spare.size() - text.size());
    text.swap(scratch.spare);
    if (spans != nullptr) spans->swap(out_spans);
    return true;
  }

  const Replacement replacement_;
};

class ReplaceDecoder : public Decoder {
 public:
  explicit ReplaceDecoder(Replacement replacement) : replacement_(std::move(replacement)) {}
  // Every token counted before any is written, so that a refusal allocates nothing.
  bool decode(std::vector<std::string>& tokens, StageScratch& scratch, TextBudget& budget) const override {
    bool counted = false;
    if (!replacement_.admits(tokens.data(), tokens.size(), scratch.regex, budget, counted)) return false;
    for (std::string& token : tokens) {
      replacement_.apply(token, scratch.spare, scratch.regex);
      if (!counted && scratch.spare.size() > token.size()) budget.take(scratch.spare.size() - token.size());
      token.swap(scratch.spare);
    }
    return true;
  }
  Growth growth() const override { return replacement_.growth(); }

 private:
  const Replacement replacement_;
};

bool read(const json::Value& value, const std::string& where, tokenizer_json::Reading& reading,
          std::shared_ptr<const regex::Regex>& pattern, std::string& content) {
  return reading.read_pattern(value, where, pattern) &&
         reading.read_string(value, "content", where, content, false);
}

}  // namespace

bool read_replace(const json::Value& value, const std::string& where, tokenizer_json::Reading& reading,
                  Normalizers& out) {
  std::shared_ptr<const regex::Regex> pattern;
  std::string content;
  if (!read(value, where, reading, pattern, content)) return false;
  out.push_back(std::make_shared<ReplaceNormalizer>(Replacement(std::move(pattern), std::move(content))));
  return true;
}

}  // namespace embeddings::normalizers

namespace embeddings::decoders {

bool read_replace(const json::Value& value, const std::string& where, tokenizer_json::Reading& reading,
                  Decoders& out) {
  std::shared_ptr<const regex::Regex> pattern;
  std::string content;
  if (!normalizers::read(value, where, reading, pattern, content)) return false;
  out.push_back(std::make_shared<normalizers::ReplaceDecoder>(
      normalizers::Replacement(std::move(pattern), std::move(content))));
  return true;
}

}  // namespace embeddings::decoders
