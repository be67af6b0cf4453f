// The stages of a tokenizer as tokenizer.json describes them, in the order
// text goes through them: normalizer, pre-tokenizer, model (bpe.h), decoder
// (the added tokens, added_tokens.h, are cut out before all of them). Each
// stage is a kind plus that kind's settings. A new kind is one enumerator
// here, one case where tokenizer_json.cpp reads its "type", and one case
// where it is applied (normalizer.cpp, pre_tokenizer_stages.cpp,
// decoder.cpp); a kind the reader does not know is refused with an error
// naming the stage and the type.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "embeddings/text/regex/regex.h"

namespace embeddings {

struct Normalizer {
  enum class Kind {
    None,       // "normalizer": null
    NFC,        // Unicode canonical composition (normalize.h)
    NFD,        // Unicode canonical decomposition
    NFKC,       // Unicode compatibility decomposition, then canonical composition
    NFKD,       // Unicode compatibility decomposition
    Lowercase,  // each character's full lowercase mapping (Rust's char::to_lowercase)
    Strip,      // whitespace (White_Space) taken off the left and/or right end
    Prepend,    // `content` put in front of a text that is not empty
    Replace,    // every match of `pattern` replaced by `content`
    Sequence,   // each of `steps` in turn
  };
  Kind kind = Kind::None;
  bool strip_left = false;   // Strip
  bool strip_right = false;  // Strip
  std::string content;       // Prepend, Replace
  // Replace: the compiled pattern (shared: a Tokenizer is copied whole).
  std::shared_ptr<const regex::Regex> pattern;
  std::vector<Normalizer> steps;  // Sequence
};

struct PreTokenizer {
  enum class Kind {
    // GPT-2's: optionally a space put in front, then GPT-2's regex split
    // (pretokenizer.h); the vocabulary is spelled in GPT-2's byte alphabet
    // (byte_level.h).
    ByteLevel,
    // Pieces cut where a pattern (a regex, regex.h, or a literal string)
    // matches; `behavior` says what becomes of the matches, and `invert`
    // swaps matches and the text between them first.
    Split,
    // Each stage in turn, on every piece the one before it made.
    Sequence,
    // "pre_tokenizer": null: the whole text (between added tokens) is one piece.
    None,
    // SentencePiece's: spaces become `replacement` (U+2581 "▁"), which is
    // put in front as `prepend_scheme` says, and with `split` every
    // replacement starts a new piece.
    Metaspace,
    // Runs of word characters (Rust regex \w) and runs of other
    // non-whitespace characters; whitespace is dropped.
    Whitespace,
    // Cut at whitespace (White_Space), which is dropped.
    WhitespaceSplit,
    // Digits (General_Category N) apart from the rest: each one alone with
    // `individual_digits`, else in runs.
    Digits,
    // Punctuation (ASCII punctuation and General_Category P) cut out with `behavior`.
    Punctuation,
  };
  // Split's behaviors, as tokenizers' SplitDelimiterBehavior: Removed drops
  // the matches, Isolated keeps each as a piece, MergedWithPrevious and
  // MergedWithNext join each to the text before or after it, Contiguous
  // joins runs of matches into one piece.
  enum class Behavior { Removed, Isolated, MergedWithPrevious, MergedWithNext, Contiguous };
  // Metaspace: Always puts the replacement in front of every piece it gets,
  // First only in front of the text's first piece, Never nowhere.
  enum class PrependScheme { Always, First, Never };

  Kind kind = Kind::ByteLevel;
  bool add_prefix_space = false;  // ByteLevel
  bool use_regex = true;          // ByteLevel
  // Split: the compiled pattern (shared: a Tokenizer is copied whole).
  std::shared_ptr<const regex::Regex> pattern;
  Behavior behavior = Behavior::Isolated;  // Split, Punctuation
  bool invert = false;                     // Split
  std::string replacement;                 // Metaspace: one character, UTF-8
  PrependScheme prepend_scheme = PrependScheme::Always;
  bool split = true;                // Metaspace
  bool individual_digits = false;   // Digits
  std::vector<PreTokenizer> steps;  // Sequence
};

struct Decoder {
  enum class Kind {
    None,          // "decoder": null (docs/tokenizer.md says how it decodes)
    ByteLevel,     // the tokens' bytes through GPT-2's byte alphabet, joined
    Metaspace,     // `replacement` back to a space (not in front of the text unless prepend_scheme is Never)
    ByteFallback,  // runs of "<0xNN>" tokens back to the bytes they name
    Fuse,          // every token joined into one
    Strip,         // up to `start` and `stop` characters `content` taken off each token's ends
    Replace,       // every match of `pattern` in each token replaced by `content`
    WordPiece,     // `content` (the prefix "##") taken off continuing tokens, a space before the others
    Sequence,      // each of `steps` in turn
  };
  Kind kind = Kind::None;
  std::string content;  // Metaspace: the replacement; Strip: the character; Replace; WordPiece: the prefix
  std::size_t start = 0, stop = 0;              // Strip
  bool keep_first = false;                      // Metaspace: prepend_scheme Never
  bool cleanup = false;                         // WordPiece: tokenizers' cleanup of spaces before punctuation
  std::shared_ptr<const regex::Regex> pattern;  // Replace
  std::vector<Decoder> steps;                   // Sequence
};

}  // namespace embeddings
