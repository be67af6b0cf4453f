// tokenizers' UnicodeScripts: a cut wherever the Unicode script changes,
// Hiragana, Katakana, Hangul and U+30FC counted as Han (as SentencePiece
// does). A space, and a character of no script in the Rust library's table
// (an unassigned one: there, Any), belongs to either side: it never starts
// a piece, so such characters before the first other one are dropped, as
// in Rust. No settings.
#include <memory>

#include "embeddings/common/utf8.h"
#include "embeddings/text/unicode/unicode.h"
#include "tokenizer_json/reading.h"

namespace embeddings::pre_tokenizers {
namespace {

unsigned script_named(const char* name) {
  unicode::Property property;
  return unicode::find_property(name, property) && property.kind == unicode::Property::Kind::Script
             ? property.value
             : 0;
}

class UnicodeScripts : public PreTokenizer {
 public:
  UnicodeScripts()
      : han_(script_named("Han")),
        hiragana_(script_named("Hiragana")),
        katakana_(script_named("Katakana")),
        hangul_(script_named("Hangul")) {}

  void split(std::string_view text, bool, PreTokenizerBuffers&, StageScratch&, TextBudget&,
             PieceSink& sink) const override {
    unsigned last = kAny;
    std::size_t start = kNoLimit;  // Where the piece being gathered starts.
    for (std::size_t pos = 0; pos < text.size() && !sink.stopped();) {
      std::uint32_t code = 0;
      const std::size_t used = utf8::decode(text, pos, code);
      const std::size_t length = used == 0 ? 1 : used;
      const unsigned script = used == 0 || code == ' ' ? kAny : fixed_script(code);
      if (script != kAny) {
        if (script != last) {
          if (start != kNoLimit) sink.piece(text.substr(start, pos - start), start == 0);
          start = pos;
          last = script;
        }
      }
      pos += length;
    }
    if (start != kNoLimit && !sink.stopped()) sink.piece(text.substr(start), start == 0);
  }

 private:
  static constexpr unsigned kAny = 0;  // unicode::script()'s Unknown.

  unsigned fixed_script(std::uint32_t code) const {
    if (code == 0x30FC) return han_;
    const unsigned script = unicode::script(code);
    return script == hiragana_ || script == katakana_ || script == hangul_ ? han_ : script;
  }

  const unsigned han_, hiragana_, katakana_, hangul_;
};

}  // namespace

bool read_unicode_scripts(const json::Value&, const std::string&, tokenizer_json::Reading&,
                          PreTokenizers& out) {
  out.push_back(std::make_shared<UnicodeScripts>());
  return true;
}

}  // namespace embeddings::pre_tokenizers
