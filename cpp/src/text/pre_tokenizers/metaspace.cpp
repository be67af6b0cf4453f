// tokenizers' Metaspace (SentencePiece's), as a pre-tokenizer and as a
// decoder. Pre-tokenizer: spaces become `replacement` (one character,
// U+2581 "▁" in every real file), which is put in front as `prepend_scheme`
// says (always: in front of every piece it gets; first: only of the piece
// that starts the text; never), and with `split` (default true) every
// replacement starts a new piece. Decoder: the replacement back to a space,
// except in the first token unless the scheme is never. The older
// add_prefix_space false means "never" (and must not contradict the scheme).
#include <memory>
#include <utility>

#include "pre_tokenizers/characters.h"
#include "tokenizer_json/reading.h"

namespace embeddings::pre_tokenizers {
namespace {

using tokenizer_json::describe;

enum class PrependScheme { Always, First, Never };

class Metaspace : public PreTokenizer {
 public:
  Metaspace(std::string replacement, PrependScheme scheme, bool split)
      : replacement_(std::move(replacement)), scheme_(scheme), split_(split) {
    utf8::decode(replacement_, 0, replacement_code_);
  }

  void split(std::string_view piece, bool at_start, PreTokenizerBuffers& own, StageScratch&,
             TextBudget& budget, PieceSink& sink) const override {
    const std::string_view text = rewrite(piece, at_start, own, budget);
    if (budget.refused()) return;
    if (!split_) {
      sink.piece(text, true);
      return;
    }
    // Each replacement character starts a piece (split on it, MergedWithNext).
    split_by_characters(
        text, Behavior::MergedWithNext, [&](std::uint32_t code) { return code == replacement_code_; }, own,
        sink);
  }
  Growth growth() const override { return {replacement_.size(), replacement_.size()}; }
  bool reads_start() const override { return scheme_ == PrependScheme::First; }

 private:
  // Metaspace::pre_tokenize before its split: spaces to the replacement, and
  // the replacement in front as the scheme says (`first_piece`: the piece
  // starts the text). A view of `piece` itself when nothing changes.
  std::string_view rewrite(std::string_view piece, bool first_piece, PreTokenizerBuffers& own,
                           TextBudget& budget) const {
    const bool starts_with_replacement = piece.substr(0, replacement_.size()) == replacement_;
    // The replacement of a leading space counts as already there.
    const bool leading_space = !piece.empty() && piece[0] == ' ';
    bool prepend = false;
    switch (scheme_) {
      case PrependScheme::Always: prepend = !starts_with_replacement && !leading_space; break;
      case PrependScheme::First: prepend = first_piece && !starts_with_replacement && !leading_space; break;
      case PrependScheme::Never: break;
    }
    std::size_t spaces = 0;
    for (const char c : piece) spaces += c == ' ';
    if (!prepend && (spaces == 0 || replacement_ == " ")) return piece;
    // Counted before it is written.
    const std::size_t length =
        piece.size() + spaces * (replacement_.size() - 1) + (prepend ? replacement_.size() : 0);
    budget.give(own.text.size());
    own.text.clear();
    if (!budget.take(length)) return {};
    if (prepend) own.text += replacement_;
    for (const char c : piece) {
      if (c == ' ') {
        own.text += replacement_;
      } else {
        own.text += c;
      }
    }
    if (own.tracks) note_sources(piece, prepend, own);
    return own.text;
  }
  // Offsets: a replacement takes its space's place, and the one put in
  // front the first character's, as Hugging Face's replace() and prepend() have it.
  void note_sources(std::string_view piece, bool prepend, PreTokenizerBuffers& own) const {
    own.sources.assign(prepend ? replacement_.size() : 0, 0);
    for (std::size_t i = 0; i < piece.size(); ++i)
      own.sources.insert(own.sources.end(), piece[i] == ' ' ? replacement_.size() : 1,
                         static_cast<std::uint32_t>(i));
  }

  const std::string replacement_;
  std::uint32_t replacement_code_ = 0;
  const PrependScheme scheme_;
  const bool split_;
};

class MetaspaceDecoder : public Decoder {
 public:
  MetaspaceDecoder(std::string replacement, bool keep_first)
      : replacement_(std::move(replacement)), keep_first_(keep_first) {}

  bool decode(std::vector<std::string>& tokens, StageScratch& scratch, TextBudget&) const override {
    std::string& out = scratch.spare;
    for (std::size_t i = 0; i < tokens.size(); ++i) {
      out.clear();
      const std::string& token = tokens[i];
      for (std::size_t at = 0; at < token.size();) {
        if (token.compare(at, replacement_.size(), replacement_) == 0) {
          if (i != 0 || keep_first_) out += ' ';
          at += replacement_.size();
        } else {
          out += token[at++];
        }
      }
      tokens[i].swap(out);
    }
    return true;
  }

 private:
  const std::string replacement_;
  const bool keep_first_;  // prepend_scheme "never": the first token's replacements are spaces too.
};

// replacement (one character), prepend_scheme (default "always") and the older add_prefix_space.
bool read_settings(const json::Value& value, const std::string& where, tokenizer_json::Reading& reading,
                   std::string& replacement, PrependScheme& out) {
  if (!reading.read_string(value, "replacement", where, replacement, true)) return false;
  out = PrependScheme::Always;
  const json::Value* scheme = value.find("prepend_scheme");
  if (scheme != nullptr) {
    static constexpr std::pair<const char*, PrependScheme> kSchemes[] = {
        {"always", PrependScheme::Always}, {"first", PrependScheme::First}, {"never", PrependScheme::Never}};
    bool known = false;
    for (const auto& [name, scheme_value] : kSchemes) {
      if (scheme->is_string() && scheme->text == name) {
        out = scheme_value;
        known = true;
      }
    }
    if (!known) {
      return reading.fail(where + ".prepend_scheme must be \"always\", \"first\" or \"never\", found " +
                          describe(*scheme));
    }
  }
  bool add_prefix_space = true;
  if (!reading.read_bool(value, "add_prefix_space", where, add_prefix_space)) return false;
  if (add_prefix_space) return true;
  if (out != PrependScheme::Never)
    return reading.fail(where + ".add_prefix_space false does not match prepend_scheme");
  return true;
}

}  // namespace

// replacement, prepend_scheme and split (default true).
bool read_metaspace(const json::Value& value, const std::string& where, tokenizer_json::Reading& reading,
                    PreTokenizers& out) {
  std::string replacement;
  PrependScheme scheme = PrependScheme::Always;
  bool split = true;
  if (!read_settings(value, where, reading, replacement, scheme) ||
      !reading.read_bool(value, "split", where, split))
    return false;
  out.push_back(std::make_shared<Metaspace>(std::move(replacement), scheme, split));
  return true;
}

}  // namespace embeddings::pre_tokenizers

namespace embeddings::decoders {

bool read_metaspace(const json::Value& value, const std::string& where, tokenizer_json::Reading& reading,
                    Decoders& out) {
  std::string replacement;
  pre_tokenizers::PrependScheme scheme = pre_tokenizers::PrependScheme::Always;
  if (!pre_tokenizers::read_settings(value, where, reading, replacement, scheme)) return false;
  out.push_back(std::make_shared<pre_tokenizers::MetaspaceDecoder>(
      std::move(replacement), scheme == pre_tokenizers::PrependScheme::Never));
  return true;
}

}  // namespace embeddings::decoders
