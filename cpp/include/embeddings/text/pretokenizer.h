// GPT-2's pre-tokenizer: splits text into the pieces ("pre-tokens") that BPE
// then encodes one at a time, exactly as the regular expression
//
//   's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
//
// does in Hugging Face's `tokenizers` (ByteLevel pre-tokenizer, use_regex).
// Hand-written, no regex library, linear in the length of the text.
//
// What the regex means, in words:
// - The contractions are matched first, case-sensitively and only with the
//   ASCII apostrophe U+0027: "don't" -> "don" "'t", but "DON'T" -> "DON" "'"
//   "T" and "don’t" (U+2019) -> "don" "’" "t".
// - A letter run, a number run or a run of other characters (not letter, not
//   number, not whitespace) takes one leading U+0020 space with it: " hello".
//   Only U+0020 does this; a tab or newline never joins a word.
// - A whitespace run followed by a non-whitespace character leaves its last
//   character to the next piece (that is `\s+(?!\S)` backtracking by one):
//   "a   b" -> "a" "  " " b", and "a\n\nb" -> "a" "\n" "\n" "b". A whitespace
//   run at the end of the text stays whole: "a  " -> "a" "  ".
// - Whitespace is the Unicode White_Space property (see unicode.h): U+0085
//   is whitespace, U+FEFF is not (unlike JavaScript's \s).
//
// Invalid UTF-8 (never produced by the JavaScript layer, but possible from
// other callers and from fuzzers) does not stop the split: each byte that does
// not start a valid UTF-8 sequence counts as one "other" character of one
// byte, so it joins a run of punctuation-like characters. The pieces always
// cover the input exactly, byte for byte, in order.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

namespace embeddings {

// Length in bytes of the pre-token that starts at `text[pos]`, which must be
// inside the text (pos < text.size()). Always at least 1.
std::size_t pretoken_length(std::string_view text, std::size_t pos);

// Appends the pre-tokens of `text` to `pieces`, as views into `text`.
void pretokenize(std::string_view text, std::vector<std::string_view>& pieces);

// Convenience form of the above.
std::vector<std::string_view> pretokenize(std::string_view text);

}  // namespace embeddings
