// tokenizers' Strip decoder: up to `start` leading and `stop` trailing
// characters equal to `content` (one character) taken off each token. Asked
// to take more characters than a token has, it takes them all (where the
// Rust library panics).
#include <algorithm>
#include <memory>
#include <utility>

#include "embeddings/common/utf8.h"
#include "tokenizer_json/reading.h"

namespace embeddings::decoders {
namespace {

class Strip : public Decoder {
 public:
  Strip(std::string content, std::size_t start, std::size_t stop)
      : content_(std::move(content)), start_(start), stop_(stop) {}

  bool decode(std::vector<std::string>& tokens, StageScratch&, TextBudget&) const override {
    std::vector<std::size_t> starts;  // Each character's first byte, then the end.
    for (std::string& token : tokens) {
      starts.clear();
      for (std::size_t pos = 0; pos < token.size();) {
        starts.push_back(pos);
        std::uint32_t code = 0;
        const std::size_t used = utf8::decode(token, pos, code);
        pos += used == 0 ? 1 : used;
      }
      const std::size_t count = starts.size();
      starts.push_back(token.size());
      const auto is_content = [&](std::size_t i) {
        return token.compare(starts[i], starts[i + 1] - starts[i], content_) == 0;
      };
      std::size_t first = 0;
      while (first < std::min(start_, count) && is_content(first)) ++first;
      std::size_t last = count;
      for (std::size_t i = 0; i < stop_ && last > first && is_content(last - 1); ++i) --last;
      token = token.substr(starts[first], starts[last] - starts[first]);
    }
    return true;
  }

 private:
  const std::string content_;
  const std::size_t start_, stop_;
};

}  // namespace

bool read_strip(const json::Value& value, const std::string& where, tokenizer_json::Reading& reading,
                Decoders& out) {
  std::string content;
  std::size_t start = 0, stop = 0;
  if (!reading.read_string(value, "content", where, content, true) ||
      !reading.read_count(value, "start", where, start) || !reading.read_count(value, "stop", where, stop)) {
    return false;
  }
  out.push_back(std::make_shared<Strip>(std::move(content), start, stop));
  return true;
}

}  // namespace embeddings::decoders
