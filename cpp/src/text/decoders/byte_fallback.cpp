// tokenizers' ByteFallback decoder: a token "<0xNN>" (u8::from_str_radix of
// its two characters) is a byte; a run of them becomes its text, or one
// U+FFFD per byte when the run is not valid UTF-8. No settings.
#include <memory>
#include <utility>

#include "embeddings/common/utf8.h"
#include "tokenizer_json/reading.h"

namespace embeddings::decoders {
namespace {

bool hex(char c, unsigned& value) {
  if (c >= '0' && c <= '9') return value = static_cast<unsigned>(c - '0'), true;
  if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
    return value = static_cast<unsigned>((c | 0x20) - 'a' + 10), true;
  return false;
}

// The byte a token names, or -1.
int byte_of(const std::string& token) {
  unsigned high = 0, low = 0;
  if (token.size() != 6 || token.compare(0, 3, "<0x") != 0 || token[5] != '>' || !hex(token[4], low))
    return -1;
  // from_str_radix takes a leading "+" as a sign: "<0x+A>" is byte 10.
  if (token[3] != '+' && !hex(token[3], high)) return -1;
  return static_cast<int>(high * 16 + low);
}

class ByteFallback : public Decoder {
 public:
  bool decode(std::vector<std::string>& tokens, StageScratch& scratch, TextBudget&) const override {
    std::vector<std::string> out;
    out.reserve(tokens.size());
    std::string& run = scratch.spare;
    run.clear();
    const auto flush = [&] {
      if (run.empty()) return;
      if (utf8::is_valid(run)) {
        out.push_back(run);
      } else {
        for (std::size_t i = 0; i < run.size(); ++i) out.emplace_back("\xEF\xBF\xBD");
      }
      run.clear();
    };
    for (std::string& token : tokens) {
      const int byte = byte_of(token);
      if (byte >= 0) {
        run += static_cast<char>(byte);
        continue;
      }
      flush();
      out.push_back(std::move(token));
    }
    flush();
    tokens.swap(out);
    return true;
  }
};

}  // namespace

bool read_byte_fallback(const json::Value&, const std::string&, tokenizer_json::Reading&, Decoders& out) {
  out.push_back(std::make_shared<ByteFallback>());
  return true;
}

}  // namespace embeddings::decoders
