// The regular expressions of tokenizer.json's Split pre-tokenizers, matched
// as Hugging Face's Rust `tokenizers` matches them (Oniguruma, the default
// build): leftmost match, alternatives tried in order and the first that
// leads to a match wins (not the longest), greedy quantifiers that give back
// one character at a time.
//
// Exactly the subset the field's patterns use (docs/tokenizer.md lists it
// and says why this is an engine of its own): literals; \r \n \t \f \v, \xHH,
// \x{H...}, \uHHHH and escaped punctuation; "." (any character but \n); \s and
// \S (White_Space, as Oniguruma reads them); \p{...} and \P{...} for the
// general categories L Lu Ll Lt Lm Lo M Mn Mc Me N Nd Nl No; classes [...]
// and [^...] of those with ranges; groups (...) and (?:...) (nothing is
// captured), (?i:...) over ASCII letters (with Unicode's simple case folding,
// so "s" also matches U+017F and "k" U+212A, as in Oniguruma); the lookaheads
// (?!...) and (?=...); ? * + {n} {n,} {n,m}, greedy only. Anything else
// (anchors, \b, \d, \w, backreferences, lazy or possessive quantifiers,
// nested classes) is refused by compile() with a message naming it, so a
// pattern never silently matches differently. A repeated part that can
// match the empty string is refused too.
//
// Text is UTF-8; a byte that does not begin a valid sequence is matched as one
// character that is in no property and no range (so [^...] matches it), as
// the GPT-2 pre-tokenizer (pretokenizer.h) treats it.
//
// Matching is a backtracking machine over a compiled program with its own
// stack (no recursion per character, so a megabyte-long word is no deeper
// than a short one). A Regex is immutable after compile(): search() is const
// and takes the caller's scratch, so one Regex serves several threads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace embeddings::regex {

class Regex {
 public:
  // A caller's reusable backtracking stack.
  struct Scratch {
    struct Backtrack {
      std::int32_t pc;
      std::size_t pos;
      // A Star's entry (floor < pos): on failure it gives back one
      // character of its run at a time, down to the floor; kNoFloor: a
      // Split's, which goes on at (pc, pos) once.
      std::size_t floor;
    };
    static constexpr std::size_t kNoFloor = static_cast<std::size_t>(-1);
    std::vector<Backtrack> stack;
  };

  // Compiles `pattern`; false with `error` naming what is not supported (or
  // malformed) and where, `out` untouched.
  // `optimize` false writes the plain program (no Star, no pruning by first
  // characters): the reference the tests hold the fast one to.
  static bool compile(std::string_view pattern, Regex& out, std::string& error, bool optimize = true);

  // The leftmost match starting at byte `from` or after, at a character
  // boundary; false when there is none. [begin, end) are byte offsets.
  bool search(std::string_view text, std::size_t from, std::size_t& begin, std::size_t& end,
              Scratch& scratch) const;

  // Whether the pattern can match the empty string.
  bool matches_empty() const { return matches_empty_; }

  struct CharSet {
    std::vector<std::pair<std::uint32_t, std::uint32_t>> ranges;  // inclusive
    std::uint32_t categories = 0;                                 // bit 1 << unicode::Category
    bool white_space = false;
    bool negated = false;
    // contains() for the ASCII characters, worked out once by finish(): most
    // text is ASCII, and this is most of the matching time.
    std::uint64_t ascii[2] = {0, 0};
    bool beyond_ascii = false;  // Whether it may hold a character from U+0080 on, or an invalid byte.
    bool contains(std::uint32_t code) const {
      if (code < 128) return (ascii[code >> 6] >> (code & 63)) & 1;
      return contains_slowly(code);
    }
    bool contains_slowly(std::uint32_t code) const;
    void finish();
  };
  enum class Op : std::uint8_t {
    Char,      // one character in sets_[x]
    Split,     // go on at x; on failure, at y
    Jump,      // go on at x
    Match,     // the (sub)program matched
    NotAhead,  // the program from here + 1 to its Match must not match here; then x
    Ahead,     // ... must match here (consuming nothing); then x
    Star,      // as many characters in sets_[x] as there are (greedy, giving back one at a time)
  };
  // The characters a match from an instruction can begin with, for pruning
  // alternatives that cannot: an ASCII bitmap, whether any other character
  // may, and whether it can reach Match consuming nothing (then any may).
  struct Start {
    std::uint64_t ascii[2] = {0, 0};
    bool other = false;
    bool empty = false;
  };
  struct Instruction {
    Op op;
    std::int32_t x;
    std::int32_t y;
  };

 private:
  bool run(std::string_view text, std::int32_t pc, std::size_t pos, std::size_t& end,
           std::vector<Scratch::Backtrack>& stack) const;
  // Whether a match from `pc` may begin at `pos` (always, without starts_).
  bool may_start(std::int32_t pc, std::string_view text, std::size_t pos) const {
    if (starts_.empty()) return true;
    const Start& start = starts_[static_cast<std::size_t>(pc)];
    if (start.empty) return true;
    if (pos >= text.size()) return false;
    const auto byte = static_cast<unsigned char>(text[pos]);
    return byte < 0x80 ? (start.ascii[byte >> 6] >> (byte & 63)) & 1 : start.other;
  }

  std::vector<Instruction> program_;
  std::vector<Start> starts_;  // Per instruction; empty when not optimized.
  std::vector<CharSet> sets_;
  bool matches_empty_ = false;

  friend class Compiler;
  friend class ProgramWriter;
};

}  // namespace embeddings::regex
