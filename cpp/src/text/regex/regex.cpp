// Running the program regex_compile.cpp makes: a backtracking machine over
// UTF-8, leftmost-first as Oniguruma matches.
#include "embeddings/text/regex/regex.h"

#include "regex_internal.h"

namespace embeddings::regex {

using detail::next_character;

bool Regex::run(std::string_view text, std::int32_t pc, std::size_t pos, std::size_t& end,
                std::vector<Scratch::Backtrack>& stack) const {
  const std::size_t base = stack.size();
  for (;;) {
    const Instruction& instruction = program_[static_cast<std::size_t>(pc)];
    bool failed = false;
    switch (instruction.op) {
      case Op::Char: {
        std::uint32_t code = 0;
        const std::size_t used = next_character(text, pos, code);
        if (used == 0 || !sets_[static_cast<std::size_t>(instruction.x)].contains(code)) {
          failed = true;
        } else {
          pos += used;
          ++pc;
        }
        break;
      }
      case Op::Split: {
        // An alternative that cannot begin with the next character is not tried.
        const bool first = may_start(instruction.x, text, pos);
        const bool second = may_start(instruction.y, text, pos);
        if (first) {
          if (second) stack.push_back({instruction.y, pos, Scratch::kNoFloor});
          pc = instruction.x;
        } else if (second) {
          pc = instruction.y;
        } else {
          failed = true;
        }
        break;
      }
      case Op::Star: {
        const CharSet& set = sets_[static_cast<std::size_t>(instruction.x)];
        const std::size_t floor = pos;
        for (;;) {
          std::uint32_t code = 0;
          const std::size_t used = next_character(text, pos, code);
          if (used == 0 || !set.contains(code)) break;
          pos += used;
        }
        if (pos > floor) stack.push_back({pc + 1, pos, floor});
        ++pc;
        break;
      }
      case Op::Jump: pc = instruction.x; break;
      case Op::Match:
        end = pos;
        stack.resize(base);
        return true;
      case Op::NotAhead:
      case Op::Ahead: {
        // Atomic, as in Oniguruma: the lookahead's own choices are
        // forgotten once it has decided.
        std::size_t ignored = 0;
        const bool found = run(text, pc + 1, pos, ignored, stack);
        if (found == (instruction.op == Op::NotAhead)) {
          failed = true;
        } else {
          pc = instruction.x;
        }
        break;
      }
    }
    if (failed) {
      if (stack.size() == base) return false;
      Scratch::Backtrack& top = stack.back();
      pc = top.pc;
      if (top.floor == Scratch::kNoFloor) {
        pos = top.pos;
        stack.pop_back();
      } else {
        // A Star's run, one character shorter.
        pos = detail::previous_character(text, top.pos, top.floor);
        if (pos > top.floor) {
          top.pos = pos;
        } else {
          stack.pop_back();
        }
      }
    }
  }
}

bool Regex::search(std::string_view text, std::size_t from, std::size_t& begin, std::size_t& end,
                   Scratch& scratch) const {
  if (program_.empty()) return false;
  for (std::size_t pos = from; pos <= text.size();) {
    if (may_start(0, text, pos) && run(text, 0, pos, end, scratch.stack)) {
      begin = pos;
      return true;
    }
    std::uint32_t code = 0;
    const std::size_t used = next_character(text, pos, code);
    if (used == 0) break;
    pos += used;
  }
  return false;
}

}  // namespace embeddings::regex
