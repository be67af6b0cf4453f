// tokenizers' Replace, as a normalizer and as a decoder (one component
// there too): every match of `pattern` (a regex, or a string matched
// literally, as Split's patterns are) replaced by `content`, over the
// segments tokenizers' find_matches() gives (NormalizedString::replace; the
// decoder does it to each token). A pattern that matches the empty string
// puts `content` at every character boundary (where the Rust library panics).
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

  // `text` with every match replaced, into `out`; refused when what it adds passes the budget.
  bool apply(const std::string& text, std::string& out, regex::Regex::Scratch& scratch, TextBudget& budget) const {
    out.clear();
    if (text.empty()) return true;  // find_matches() of "" is one segment that is not a match.
    const std::uint64_t most = growth().of(text.size());
    const bool counted = most > text.size() && most - text.size() > budget.left();
    if (counted) {
      std::size_t length = 0;
      regex_segments(*pattern_, text, scratch, [&](std::size_t begin, std::size_t end, bool is_match) {
        length += is_match ? content_.size() : end - begin;
      });
      if (length > text.size() && !budget.take(length - text.size())) return false;
    }
    regex_segments(*pattern_, text, scratch, [&](std::size_t begin, std::size_t end, bool is_match) {
      if (is_match) {
        out += content_;
      } else {
        out.append(text, begin, end - begin);
      }
    });
    // (Uncounted, the budget covers the most it could have grown.)
    if (!counted && out.size() > text.size()) budget.take(out.size() - text.size());
    return true;
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
    if (!replacement_.apply(text, scratch.spare, scratch.regex, budget)) return false;
    text.swap(scratch.spare);
    return true;
  }
  Growth growth() const override { return replacement_.growth(); }

 private:
  const Replacement replacement_;
};

class ReplaceDecoder : public Decoder {
 public:
  explicit ReplaceDecoder(Replacement replacement) : replacement_(std::move(replacement)) {}
  bool decode(std::vector<std::string>& tokens, StageScratch& scratch, TextBudget& budget) const override {
    for (std::string& token : tokens) {
      if (!replacement_.apply(token, scratch.spare, scratch.regex, budget)) return false;
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
  return reading.read_pattern(value, where, pattern) && reading.read_string(value, "content", where, content, false);
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
