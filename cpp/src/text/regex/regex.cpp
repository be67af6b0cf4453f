// Running the program regex_compile.cpp makes: a backtracking machine over
// UTF-8, leftmost-first as Oniguruma matches, handing a search over to the
// linear-time machine (regex_pike.cpp) when it goes back too often.
#include "embeddings/text/regex/regex.h"

#include "regex_internal.h"

namespace embeddings::regex {

using detail::next_character;

namespace {

// How many times one search may go back (resume a choice) before it is
// done again in linear time. The field's patterns go back a few times a
// match; a search that goes back thousands of times is on its way to
// exponential time, and the linear machine costs about as much as a few
// thousand steps on a short text.
constexpr std::size_t kBacktrackSteps = 4096;

}  // namespace

inline bool Regex::resume(std::string_view text, std::int32_t& pc, std::size_t& pos,
                          std::vector<Scratch::Backtrack>& stack, std::size_t base) {
  if (stack.size() == base) return false;
  Scratch::Backtrack& top = stack.back();
  pc = top.pc;
  if (top.floor == Scratch::kNoFloor) {
    pos = top.pos;
    stack.pop_back();
    return true;
  }
  // A Star's run, one character shorter.
  pos = detail::previous_character(text, top.pos, top.floor);
  if (pos > top.floor) {
    top.pos = pos;
  } else {
    stack.pop_back();
  }
  return true;
}

Regex::Outcome Regex::lookahead(std::string_view text, std::int32_t& pc, std::size_t pos,
                                std::vector<Scratch::Backtrack>& stack, std::size_t& steps) const {
  // Atomic, as in Oniguruma: the lookahead's own choices are forgotten
  // once it has decided.
  std::size_t ignored = 0;
  const Outcome found = run(text, pc + 1, pos, ignored, stack, steps);
  if (found == Outcome::OutOfSteps) return found;
  const Instruction& instruction = program_[static_cast<std::size_t>(pc)];
  if ((found == Outcome::Match) == (instruction.op == Op::NotAhead)) return Outcome::NoMatch;
  pc = instruction.x;
  return Outcome::Match;
}

Regex::Outcome Regex::run(std::string_view text, std::int32_t pc, std::size_t pos, std::size_t& end,
                          std::vector<Scratch::Backtrack>& stack, std::size_t& steps) const {
  const std::size_t base = stack.size();
  for (;;) {
    const Instruction& instruction = program_[static_cast<std::size_t>(pc)];
    bool failed = false;
    switch (instruction.op) {
      case Op::Char: {
        std::uint32_t code = 0;
        const std::size_t used = next_character(text, pos, code);
        failed = used == 0 || !sets_[static_cast<std::size_t>(instruction.x)].contains(code);
        pos += used;
        ++pc;
        break;
      }
      case Op::Split: {
        // An alternative that cannot begin with the next character is not tried.
        const bool first = may_start(instruction.x, text, pos);
        const bool second = may_start(instruction.y, text, pos);
        if (first && second) stack.push_back({instruction.y, pos, Scratch::kNoFloor});
        pc = first ? instruction.x : instruction.y;
        failed = !first && !second;
        break;
      }
      case Op::Star: {
        const std::size_t floor = pos;
        pos = sets_[static_cast<std::size_t>(instruction.x)].span(text, pos);
        if (pos > floor) stack.push_back({pc + 1, pos, floor});
        ++pc;
        break;
      }
      case Op::Jump: pc = instruction.x; break;
      case Op::Match:
        end = pos;
        stack.resize(base);
        return Outcome::Match;
      case Op::NotAhead:
      case Op::Ahead: {
        const Outcome outcome = lookahead(text, pc, pos, stack, steps);
        if (outcome == Outcome::OutOfSteps) return outcome;
        failed = outcome == Outcome::NoMatch;
        break;
      }
    }
    if (!failed) continue;
    if (steps == 0) {
      stack.resize(base);
      return Outcome::OutOfSteps;
    }
    --steps;
    if (!resume(text, pc, pos, stack, base)) return Outcome::NoMatch;
  }
}

bool Regex::search(std::string_view text, std::size_t from, std::size_t& begin, std::size_t& end,
                   Scratch& scratch) const {
  if (program_.empty()) return false;
  std::size_t steps = kBacktrackSteps;
  for (std::size_t pos = from; pos <= text.size();) {
    if (may_start(0, text, pos)) {
      const Outcome outcome = run(text, 0, pos, end, scratch.stack, steps);
      if (outcome == Outcome::Match) {
        begin = pos;
        return true;
      }
      // No match begins before `pos`: the linear machine starts there.
      if (outcome == Outcome::OutOfSteps) return search_linear(text, pos, begin, end, scratch);
    }
    std::uint32_t code = 0;
    const std::size_t used = next_character(text, pos, code);
    if (used == 0) break;
    pos += used;
  }
  return false;
}

}  // namespace embeddings::regex
