// The regular expressions of tokenizer.json's Split pre-tokenizers, matched
// as Hugging Face's Rust `tokenizers` matches them (Oniguruma, the default
// build): leftmost match, alternatives tried in order and the first that
// leads to a match wins (not the longest), greedy quantifiers that give back
// one character at a time.
//
// The subset the field's patterns use, and Oniguruma's character classes
// whole (docs/tokenizer.md lists it and says why this is an engine of its
// own): literals; \r \n \t \f \v, \xHH, \x{H...}, \uHHHH and escaped
// punctuation; "." (any character but \n); \s and \S (White_Space, as
// Oniguruma reads them); \p{...}, \P{...} and \p{^...} for every general
// category and group (Lu, L, LC, P, Sm, Z, C, Cn...), every script Oniguruma
// knows (Han, Latin, Cyrillic...), Any, Assigned and ASCII, by their long
// names and aliases as Oniguruma matches names (any case; spaces, hyphens
// and underscores ignored: "Uppercase_Letter", "uppercase letter", "Hani");
// classes [...] and [^...] of those with ranges, nested classes and "&&"
// intersections; groups (...) and (?:...) (nothing is captured), (?i:...)
// over ASCII letters (with Unicode's simple case folding, so "s" also
// matches U+017F and "k" U+212A, as in Oniguruma; a property outside a
// class is not folded, as in Oniguruma); the lookaheads (?!...) and (?=...);
// ? * + {n} {n,} {n,m}, greedy only. What Oniguruma refuses is refused
// (a class escape as a range's end, [\p{L}-z]; unknown names), and so is
// what this engine does not implement (anchors, \b, \d, \w,
// backreferences, lazy or possessive quantifiers, POSIX brackets, binary
// properties and blocks, a property inside a class under (?i)), by
// compile() with a message naming it, so a pattern never silently matches
// differently. A repeated part that can match the empty string is refused
// too.
//
// Text is UTF-8; a byte that does not begin a valid sequence is matched as one
// character that is in no property and no range (so [^...] matches it), as
// the GPT-2 pre-tokenizer (pre_tokenizers/gpt2_split.h) treats it.
//
// Matching first runs a backtracking machine over the compiled program with
// its own stack (no recursion per character, so a megabyte-long word is no
// deeper than a short one): the fastest for the field's patterns. A search
// that makes it go back more than a few thousand times, as (a+)+b does on
// "aaaa...c", is done again by a linear-time machine (a Pike VM: every
// alternative at once, in priority order, so the same leftmost-first match),
// so no pattern takes time exponential in the text. A Regex is immutable
// after compile(): search() is const and takes the caller's scratch, so one
// Regex serves several threads.
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
  // A caller's reusable memory for matching: the backtracking stack, and
  // the thread lists of the linear-time machine, one level per lookahead
  // being evaluated.
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

    struct Thread {
      std::int32_t pc;
      std::size_t start;  // where its match began
    };
    struct Threads {
      std::vector<Thread> current, next;
      std::vector<std::uint32_t> seen;  // per instruction: the step that last added it
      std::uint32_t step = 0;
      std::vector<std::int32_t> todo;  // instructions still to follow in a closure
    };
    std::vector<Threads> levels;  // sized once per search: a level stays where it is
  };

  // Compiles `pattern`; false with `error` naming what is not supported (or
  // malformed) and where, `out` untouched.
  // `optimize` false writes the plain program (no Star, no pruning by first
  // characters): the reference the tests hold the fast one to. A program
  // whose instructions would take more than `max_bytes` (counted before it
  // is written) is refused, by its size.
  static bool compile(std::string_view pattern, Regex& out, std::string& error, bool optimize = true,
                      std::uint64_t max_bytes = UINT64_MAX);
  // The memory its program takes at most (its instructions, and what each
  // knows of its first characters; twice that while it is written), so a
  // file of many patterns is held to what its instance can hold.
  static constexpr std::uint64_t kBytesPerInstruction = 2 * (3 * sizeof(std::int32_t) + 24);
  std::uint64_t program_bytes() const { return program_.size() * kBytesPerInstruction; }

  // The leftmost match starting at byte `from` or after, at a character
  // boundary; false when there is none. [begin, end) are byte offsets.
  bool search(std::string_view text, std::size_t from, std::size_t& begin, std::size_t& end,
              Scratch& scratch) const;

  // The same match found by the linear-time machine alone (regex_pike.cpp),
  // which search() hands a search to when backtracking goes back too often:
  // linear in the text, and slower on the field's patterns. The tests hold
  // the two machines to each other.
  bool search_linear(std::string_view text, std::size_t from, std::size_t& begin, std::size_t& end,
                     Scratch& scratch) const;

  // Whether the pattern can match the empty string.
  bool matches_empty() const { return matches_empty_; }

  // A set of characters: inclusive code point ranges (sorted, disjoint, not
  // adjacent), and whether a byte that begins no valid UTF-8 is in it (in no
  // property and no range, so only in negated sets).
  struct CharSet {
    std::vector<std::pair<std::uint32_t, std::uint32_t>> ranges;
    bool invalid_bytes = false;
    // contains() for the ASCII characters, worked out once by finish(): most
    // text is ASCII, and this is most of the matching time.
    std::uint64_t ascii[2] = {0, 0};
    bool beyond_ascii = false;  // Whether it may hold a character from U+0080 on, or an invalid byte.
    bool contains(std::uint32_t code) const {
      if (code < 128) return (ascii[code >> 6] >> (code & 63)) & 1;
      return contains_slowly(code);
    }
    bool contains_slowly(std::uint32_t code) const;
    // The end of the run of its characters from `pos` on (defined in
    // regex_internal.h, inline: the hottest loop of most patterns).
    inline std::size_t span(std::string_view text, std::size_t pos) const;
    // Sorts and merges `ranges`, then works out the ASCII bitmap.
    void finish();
    // Set algebra on finished sets (the results are finished).
    void add(const CharSet& other);
    void complement();
    void intersect(const CharSet& other);
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
  enum class Outcome { Match, NoMatch, OutOfSteps };
  // The backtracking machine (regex.cpp): the match from `pc` at `pos`, or
  // OutOfSteps once it has resumed `steps` times (counted down).
  Outcome run(std::string_view text, std::int32_t pc, std::size_t pos, std::size_t& end,
              std::vector<Scratch::Backtrack>& stack, std::size_t& steps) const;
  // A lookahead at `pc`: Match (and `pc` where to go on) when it holds.
  Outcome lookahead(std::string_view text, std::int32_t& pc, std::size_t pos,
                    std::vector<Scratch::Backtrack>& stack, std::size_t& steps) const;
  // Goes back to the last choice: false when there is none.
  static bool resume(std::string_view text, std::int32_t& pc, std::size_t& pos,
                     std::vector<Scratch::Backtrack>& stack, std::size_t base);
  friend class PikeMachine;

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
  std::size_t lookahead_depth_ = 0;  // how deep lookaheads nest

  friend class Compiler;
  friend class ProgramWriter;
};

}  // namespace embeddings::regex
