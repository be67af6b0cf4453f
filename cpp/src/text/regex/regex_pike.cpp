// The linear-time machine: a Pike VM (Thompson's simulation of every
// alternative at once, with Pike's priority order) over the same program as
// the backtracking machine (regex.cpp). Its threads are kept in the order
// the backtracking machine would try them, and a thread that reaches an
// instruction a higher-priority one already holds at the same place is
// dropped (its future is the same, and it would come second), so the match
// is the leftmost-first one that backtracking finds, in time linear in the
// text times the program's size. A lookahead is decided where a thread
// meets it, by the same machine run on the lookahead's own program (one
// level of lists deeper), anchored there.
#include <algorithm>

#include "embeddings/text/regex/regex.h"
#include "regex_internal.h"

namespace embeddings::regex {

using detail::next_character;

class PikeMachine {
 public:
  using Thread = Regex::Scratch::Thread;
  using Threads = Regex::Scratch::Threads;

  PikeMachine(const Regex& regex, std::string_view text, Regex::Scratch& scratch)
      : regex_(regex), text_(text), scratch_(scratch) {}

  // The leftmost-first match beginning at `from` or after.
  bool search(std::size_t from, std::size_t& begin, std::size_t& end) {
    Threads& lists = level(0);
    begin_step(lists);
    lists.current.clear();
    std::size_t pos = from;
    bool matched = false;
    add(lists, lists.current, 0, pos, pos, 0);
    for (;;) {
      if (lists.current.empty()) {
        if (matched || !skip_to_start(pos)) return matched;
        begin_step(lists);
        add(lists, lists.current, 0, pos, pos, 0);
        continue;
      }
      std::uint32_t code = 0;
      const std::size_t used = next_character(text_, pos, code);
      begin_step(lists);
      lists.next.clear();
      for (const Thread& thread : lists.current) {
        if (regex_.program_[static_cast<std::size_t>(thread.pc)].op == Regex::Op::Match) {
          // Every thread after this one comes later in priority: dropped.
          begin = thread.start;
          end = pos;
          matched = true;
          break;
        }
        if (used != 0) advance(lists, thread, code, pos + used, 0);
      }
      if (used == 0) return matched;
      pos += used;
      if (!matched) add(lists, lists.next, 0, pos, pos, 0);
      lists.current.swap(lists.next);
    }
  }

 private:
  // The lists of a lookahead `depth` deep (search_linear() made them all).
  Threads& level(std::size_t depth) {
    Threads& lists = scratch_.levels[depth];
    if (lists.seen.size() != regex_.program_.size()) {
      lists.seen.assign(regex_.program_.size(), 0);
      lists.step = 0;
    }
    return lists;
  }

  // A new step: the instructions added before are forgotten.
  static void begin_step(Threads& lists) {
    if (++lists.step == 0) {
      std::fill(lists.seen.begin(), lists.seen.end(), 0);
      lists.step = 1;
    }
  }

  // Moves past a character the first position from `pos` on where a match
  // may begin; false at the end of the text.
  bool skip_to_start(std::size_t& pos) const {
    for (;;) {
      std::uint32_t code = 0;
      const std::size_t used = next_character(text_, pos, code);
      if (used == 0) return false;
      pos += used;
      if (regex_.may_start(0, text_, pos)) return true;
    }
  }

  // A thread at a Char or Star takes the character `code` (which ends at `after`).
  void advance(Threads& lists, const Thread& thread, std::uint32_t code, std::size_t after,
               std::size_t depth) {
    const Regex::Instruction& instruction = regex_.program_[static_cast<std::size_t>(thread.pc)];
    if (!regex_.sets_[static_cast<std::size_t>(instruction.x)].contains(code)) return;
    // A Star that took a character stays on it (going on is its first choice).
    const std::int32_t next = instruction.op == Regex::Op::Star ? thread.pc : thread.pc + 1;
    add(lists, lists.next, next, after, thread.start, depth);
  }

  // Adds to `list` the threads that `pc` at `pos` leads to without taking a
  // character, in priority order: the instructions that take one, and Match.
  void add(Threads& lists, std::vector<Thread>& list, std::int32_t pc, std::size_t pos, std::size_t start,
           std::size_t depth) {
    std::vector<std::int32_t>& todo = lists.todo;
    const std::size_t base = todo.size();
    todo.push_back(pc);
    while (todo.size() > base) {
      const std::int32_t at = todo.back();
      todo.pop_back();
      std::uint32_t& seen = lists.seen[static_cast<std::size_t>(at)];
      if (seen == lists.step) continue;
      seen = lists.step;
      follow(lists, list, at, pos, start, depth);
    }
  }

  // One instruction of add(): what it leads to is pushed on `todo`, the
  // first choice last (so taken first).
  void follow(Threads& lists, std::vector<Thread>& list, std::int32_t at, std::size_t pos, std::size_t start,
              std::size_t depth) {
    const Regex::Instruction& instruction = regex_.program_[static_cast<std::size_t>(at)];
    switch (instruction.op) {
      case Regex::Op::Char:
      case Regex::Op::Match: list.push_back({at, start}); return;
      case Regex::Op::Star:
        list.push_back({at, start});
        lists.todo.push_back(at + 1);
        return;
      case Regex::Op::Jump: lists.todo.push_back(instruction.x); return;
      case Regex::Op::Split:
        if (regex_.may_start(instruction.y, text_, pos)) lists.todo.push_back(instruction.y);
        if (regex_.may_start(instruction.x, text_, pos)) lists.todo.push_back(instruction.x);
        return;
      case Regex::Op::NotAhead:
      case Regex::Op::Ahead:
        if (holds(at + 1, pos, depth + 1) == (instruction.op == Regex::Op::Ahead))
          lists.todo.push_back(instruction.x);
        return;
    }
  }

  // Whether the lookahead's program from `pc` matches at `pos` (any match:
  // a lookahead only asks whether there is one).
  bool holds(std::int32_t pc, std::size_t pos, std::size_t depth) {
    Threads& lists = level(depth);
    begin_step(lists);
    lists.current.clear();
    add(lists, lists.current, pc, pos, pos, depth);
    for (;;) {
      for (const Thread& thread : lists.current) {
        if (regex_.program_[static_cast<std::size_t>(thread.pc)].op == Regex::Op::Match) return true;
      }
      std::uint32_t code = 0;
      const std::size_t used = next_character(text_, pos, code);
      if (used == 0 || lists.current.empty()) return false;
      begin_step(lists);
      lists.next.clear();
      for (const Thread& thread : lists.current) advance(lists, thread, code, pos + used, depth);
      pos += used;
      lists.current.swap(lists.next);
    }
  }

  const Regex& regex_;
  std::string_view text_;
  Regex::Scratch& scratch_;
};

bool Regex::search_linear(std::string_view text, std::size_t from, std::size_t& begin, std::size_t& end,
                          Scratch& scratch) const {
  if (scratch.levels.size() <= lookahead_depth_) scratch.levels.resize(lookahead_depth_ + 1);
  return PikeMachine(*this, text, scratch).search(from, begin, end);
}

}  // namespace embeddings::regex
