// tokenizers' ByteLevel (byte_level.rs), GPT-2's, as a pre-tokenizer, a
// decoder and a post-processor: the one file of the chapter's own
// tokenizer.json. As a pre-tokenizer: optionally a space put in front of a
// piece that does not start with one (add_prefix_space), then GPT-2's split
// (use_regex, default true; gpt2_split.h); the vocabulary is then spelled in
// GPT-2's byte alphabet (byte_level.h), so no stage may follow it. As a
// decoder (decoders/byte_level.h): the tokens' characters back to their
// bytes, joined, made valid UTF-8. As a post-processor it only trims offsets
// (trim_offsets): it changes no id, and is no stage.
#include "embeddings/text/byte_level.h"

#include <memory>

#include "decoders/byte_level.h"
#include "embeddings/text/pre_tokenizers/gpt2_split.h"
#include "tokenizer_json/reading.h"

namespace embeddings::pre_tokenizers {
namespace {

using tokenizer_json::describe;

// Offsets: the space put in front takes the first character's place, as
// Hugging Face's prepend() has it; every other byte its own.
EMBEDDINGS_OFFSETS void note_prefix_sources(PreTokenizerBuffers& own) {
  own.sources.resize(own.text.size());
  for (std::size_t i = 0; i < own.sources.size(); ++i)
    own.sources[i] = static_cast<std::uint32_t>(i == 0 ? 0 : i - 1);
}

class ByteLevel : public PreTokenizer {
 public:
  ByteLevel(bool add_prefix_space, bool use_regex)
      : add_prefix_space_(add_prefix_space), use_regex_(use_regex) {}

  void split(std::string_view text, bool, PreTokenizerBuffers& own, StageScratch&, TextBudget& budget,
             PieceSink& sink) const override {
    if (add_prefix_space_ && text[0] != ' ') {
      budget.give(own.text.size());
      if (!budget.take(text.size() + 1)) return;
      own.text.assign(1, ' ');
      own.text.append(text);
      text = own.text;
      if (kGeneralOffsets && own.tracks) note_prefix_sources(own);
    }
    if (!use_regex_) {
      sink.piece(text, true);
      return;
    }
    for (std::size_t pos = 0; pos < text.size() && !sink.stopped();) {
      const std::size_t length = piece_length(text, pos, sink);
      if (sink.stopped()) return;
      sink.piece(text.substr(pos, length), pos == 0);
      pos += length;
    }
  }
  Growth growth() const override { return {1, add_prefix_space_ ? 1u : 0u}; }
  bool keeps_text() const override { return !add_prefix_space_; }
  bool byte_level() const override { return true; }

 private:
  // pretoken_length(), but with a sink that wants no piece of enough_bytes()
  // or more it does not scan a piece further than it needs to: the piece is
  // found in a view cut `enough + 32` bytes on. It is the same piece as in
  // the whole text when it ends 16 bytes or more before the cut: every
  // decision pretoken_length() makes looks at most one character (4 bytes)
  // past the piece. Otherwise the whole text's piece is at most 4 bytes
  // shorter (a character the cut split), so still too long: too_many().
  static std::size_t piece_length(std::string_view text, std::size_t pos, PieceSink& sink) {
    const std::size_t enough = sink.enough_bytes();
    if (enough >= kNoLimit - 64) return pretoken_length(text, pos);
    const std::size_t view = enough + 32;
    if (text.size() - pos <= view) return pretoken_length(text, pos);
    const std::size_t length = pretoken_length(text.substr(0, pos + view), pos);
    if (length + 16 > view) sink.too_many();
    return length;
  }

  const bool add_prefix_space_, use_regex_;
};

EMBEDDINGS_SMALL bool read_flags(const json::Value& value, const std::string& where,
                                 tokenizer_json::Reading& reading, bool& add_prefix_space, bool& use_regex,
                                 bool& trim_offsets) {
  return reading.read_bool(value, "add_prefix_space", where, add_prefix_space) &&
         reading.read_bool(value, "use_regex", where, use_regex) &&
         reading.read_bool(value, "trim_offsets", where, trim_offsets);
}

}  // namespace

// add_prefix_space is required, as there; use_regex and trim_offsets are not.
EMBEDDINGS_SMALL bool read_byte_level(const json::Value& value, const std::string& where,
                                      tokenizer_json::Reading& reading, PreTokenizers& out) {
  const json::Value* prefix_space = value.find("add_prefix_space");
  if (prefix_space == nullptr || !prefix_space->is_bool())
    return reading.fail(where + ".add_prefix_space must be true or false, found " + describe(prefix_space));
  bool add_prefix_space = false, use_regex = true, trim_offsets = true;
  if (!read_flags(value, where, reading, add_prefix_space, use_regex, trim_offsets)) return false;
  out.push_back(std::make_shared<ByteLevel>(add_prefix_space, use_regex));
  return true;
}

}  // namespace embeddings::pre_tokenizers

namespace embeddings::decoders {

EMBEDDINGS_SMALL bool read_byte_level(const json::Value& value, const std::string& where,
                                      tokenizer_json::Reading& reading, Decoders& out) {
  bool add_prefix_space = true, use_regex = true, trim_offsets = true;
  if (!pre_tokenizers::read_flags(value, where, reading, add_prefix_space, use_regex, trim_offsets))
    return false;
  out.push_back(std::make_shared<ByteLevelDecoder>());
  return true;
}

}  // namespace embeddings::decoders

namespace embeddings::post_processors {

// (It changes no id, so it adds no stage: a file whose only post-processor
// it is has none to run. Its trim_offsets is kept for the offsets.)
EMBEDDINGS_SMALL bool read_byte_level(const json::Value& value, const std::string& where,
                                      tokenizer_json::Reading& reading, PostProcessors&) {
  bool add_prefix_space = true, use_regex = true, trim_offsets = true;
  if (!pre_tokenizers::read_flags(value, where, reading, add_prefix_space, use_regex, trim_offsets))
    return false;
  if (trim_offsets) reading.offset_trims += static_cast<char>(add_prefix_space);
  return true;
}

}  // namespace embeddings::post_processors
