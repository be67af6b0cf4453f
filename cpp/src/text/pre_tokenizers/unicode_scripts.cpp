// tokenizers' UnicodeScripts: a cut wherever the script changes, Hiragana,
// Katakana and U+30FC counted as Han (as SentencePiece does; Hangul is a
// script of its own). A space, and a character of no script in the Rust
// library's table (there, Any), belongs to either side: it never starts a
// piece, so such characters before the first other one are dropped, as in
// Rust. No settings.
//
// The scripts are the Rust library's own: its table is Unicode 9.0.0's
// Script property (Scripts.txt), so a character assigned since (U+1FAE0 🫠,
// Unicode 14) is Any there, and here too (unicode_scripts_table.inc, from
// the same data by tools/gen-rust-scripts.mjs), though the regex engine's
// \p{...} scripts are Unicode 17's.
#include <algorithm>
#include <cstdint>
#include <iterator>
#include <memory>

#include "embeddings/common/utf8.h"
#include "tokenizer_json/reading.h"

namespace embeddings::pre_tokenizers {
namespace {

#include "pre_tokenizers/unicode_scripts_table.inc"

constexpr std::uint8_t kAny = 0;

std::uint8_t rust_script(std::uint32_t code) {
  const auto after = std::upper_bound(std::begin(kRunStarts), std::end(kRunStarts), code);
  return kRunScripts[after - std::begin(kRunStarts) - 1];
}

// The Rust library's fixed_script.
std::uint8_t fixed_script(std::uint32_t code) {
  if (code == 0x30FC) return kHan;
  if (code == ' ') return kAny;
  const std::uint8_t script = rust_script(code);
  return script == kHiragana || script == kKatakana ? kHan : script;
}

class UnicodeScripts : public PreTokenizer {
 public:
  void split(std::string_view text, bool, PreTokenizerBuffers&, StageScratch&, TextBudget&,
             PieceSink& sink) const override {
    std::uint8_t last = kAny;
    std::size_t start = kNoLimit;  // Where the piece being gathered starts.
    for (std::size_t pos = 0; pos < text.size() && !sink.stopped();) {
      std::uint32_t code = 0;
      const std::size_t used = utf8::decode(text, pos, code);
      const std::size_t length = used == 0 ? 1 : used;
      const std::uint8_t script = used == 0 ? kAny : fixed_script(code);
      if (script != kAny && script != last) {
        if (start != kNoLimit) sink.piece(text.substr(start, pos - start), start == 0);
        start = pos;
        last = script;
      }
      pos += length;
    }
    if (start != kNoLimit && !sink.stopped()) sink.piece(text.substr(start), start == 0);
  }
};

}  // namespace

bool read_unicode_scripts(const json::Value&, const std::string&, tokenizer_json::Reading&,
                          PreTokenizers& out) {
  out.push_back(std::make_shared<UnicodeScripts>());
  return true;
}

}  // namespace embeddings::pre_tokenizers
