// tokenizers' Whitespace and WhitespaceSplit (whitespace.rs). Whitespace:
// the matches of \w+|[^\w\s]+ (Rust's regex crate: runs of word characters
// and runs of other characters that are not whitespace) are the pieces, the
// whitespace between them is dropped. WhitespaceSplit: cut at whitespace
// (White_Space), which is dropped. No settings.
#include <memory>

#include "embeddings/common/utf8.h"
#include "embeddings/text/unicode/unicode.h"
#include "pre_tokenizers/characters.h"
#include "tokenizer_json/reading.h"

namespace embeddings::pre_tokenizers {
namespace {

class Whitespace : public PreTokenizer {
 public:
  void split(std::string_view text, bool, PreTokenizerBuffers&, StageScratch&, TextBudget&,
             PieceSink& sink) const override {
    enum class Class { Word, Space, Other };
    const auto class_at = [&](std::size_t pos, std::size_t& used) {
      std::uint32_t code = 0;
      used = utf8::decode(text, pos, code);
      if (used == 0) {
        used = 1;
        return Class::Other;
      }
      if (unicode::is_word_character(code)) return Class::Word;
      return unicode::is_whitespace(code) ? Class::Space : Class::Other;
    };
    for (std::size_t pos = 0; pos < text.size() && !sink.stopped();) {
      std::size_t used = 0;
      const Class first = class_at(pos, used);
      std::size_t end = pos + used;
      while (end < text.size()) {
        std::size_t next = 0;
        if (class_at(end, next) != first) break;
        end += next;
      }
      if (first != Class::Space) sink.piece(text.substr(pos, end - pos), pos == 0);
      pos = end;
    }
  }
};

class WhitespaceSplit : public PreTokenizer {
 public:
  void split(std::string_view text, bool, PreTokenizerBuffers& own, StageScratch&, TextBudget&,
             PieceSink& sink) const override {
    split_by_characters(text, Behavior::Removed, unicode::is_whitespace, own, sink);
  }
};

}  // namespace

bool read_whitespace(const json::Value&, const std::string&, tokenizer_json::Reading&, PreTokenizers& out) {
  out.push_back(std::make_shared<Whitespace>());
  return true;
}

bool read_whitespace_split(const json::Value&, const std::string&, tokenizer_json::Reading&,
                           PreTokenizers& out) {
  out.push_back(std::make_shared<WhitespaceSplit>());
  return true;
}

}  // namespace embeddings::pre_tokenizers
