// The stages of a tokenizer as tokenizer.json describes them, in the order
// text goes through them: normalizer, pre-tokenizer, model (bpe.h), decoder
// (the added tokens, added_tokens.h, are cut out before all of them). Each
// stage is a kind plus that kind's settings. A new kind is one enumerator
// here, one case where tokenizer_json.cpp reads its "type", and one case
// where tokenizer.cpp applies it; a kind the reader does not know is
// refused with an error naming the stage and the type.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "embeddings/regex.h"

namespace embeddings {

struct Normalizer {
  enum class Kind {
    None,  // "normalizer": null
    NFC,   // Unicode canonical composition (normalize.h)
    NFD,   // Unicode canonical decomposition
  };
  Kind kind = Kind::None;
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
  };
  // Split's behaviors, as tokenizers' SplitDelimiterBehavior: Removed drops
  // the matches, Isolated keeps each as a piece, MergedWithPrevious and
  // MergedWithNext join each to the text before or after it, Contiguous
  // joins runs of matches into one piece.
  enum class Behavior { Removed, Isolated, MergedWithPrevious, MergedWithNext, Contiguous };

  Kind kind = Kind::ByteLevel;
  bool add_prefix_space = false;  // ByteLevel
  bool use_regex = true;          // ByteLevel
  // Split: the compiled pattern (shared: a Tokenizer is copied whole).
  std::shared_ptr<const regex::Regex> pattern;
  Behavior behavior = Behavior::Isolated;
  bool invert = false;
  std::vector<PreTokenizer> steps;  // Sequence
};

struct Decoder {
  enum class Kind {
    None,       // "decoder": null; decoded as ByteLevel (docs/tokenizer.md says why)
    ByteLevel,  // the tokens' bytes joined
  };
  Kind kind = Kind::None;
};

}  // namespace embeddings
