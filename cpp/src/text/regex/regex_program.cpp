// Turning a parsed pattern (Node, from regex_compile.cpp) into the program
// regex.h's backtracking machine runs: Char, Split, Jump, lookaheads, Match.
#include <algorithm>

#include "embeddings/text/regex/regex.h"
#include "regex_internal.h"

namespace embeddings::regex {

using detail::kMaxProgram;
using detail::kUnbounded;
using detail::Node;

void ProgramWriter::write(const Node& root) {
  out_.matches_empty_ = nullable(root);
  out_.lookahead_depth_ = lookahead_depth(root);
  emit(root);
  out_.program_.push_back({Regex::Op::Match, 0, 0});
  if (optimize_) find_starts();
}

// Each instruction's Start, as a fixpoint: the program's loops jump back,
// so passes from the last instruction to the first are repeated until
// nothing grows (two or three for the field's patterns).
void ProgramWriter::find_starts() {
  const auto& program = out_.program_;
  auto& starts = out_.starts_;
  starts.assign(program.size(), Regex::Start{});
  const auto join = [](Regex::Start& into, const Regex::Start& from) {
    const Regex::Start before = into;
    into.ascii[0] |= from.ascii[0];
    into.ascii[1] |= from.ascii[1];
    into.other = into.other || from.other;
    into.empty = into.empty || from.empty;
    return before.ascii[0] != into.ascii[0] || before.ascii[1] != into.ascii[1] ||
           before.other != into.other || before.empty != into.empty;
  };
  const auto of_set = [&](std::int32_t set) {
    const Regex::CharSet& chars = out_.sets_[static_cast<std::size_t>(set)];
    Regex::Start start;
    start.ascii[0] = chars.ascii[0];
    start.ascii[1] = chars.ascii[1];
    start.other = chars.beyond_ascii;
    return start;
  };
  for (bool grew = true; grew;) {
    grew = false;
    for (std::size_t pc = program.size(); pc-- > 0;) {
      const Regex::Instruction& instruction = program[pc];
      const auto at = [&](std::int32_t target) { return starts[static_cast<std::size_t>(target)]; };
      Regex::Start start;
      switch (instruction.op) {
        case Regex::Op::Char: start = of_set(instruction.x); break;
        case Regex::Op::Split:
          start = at(instruction.x);
          join(start, at(instruction.y));
          break;
        case Regex::Op::Jump: start = at(instruction.x); break;
        case Regex::Op::Match: start.empty = true; break;
        // A lookahead consumes nothing: what follows it begins the match
        // (a superset of what can, which is all pruning needs).
        case Regex::Op::NotAhead:
        case Regex::Op::Ahead: start = at(instruction.x); break;
        case Regex::Op::Star:
          start = of_set(instruction.x);
          join(start, at(static_cast<std::int32_t>(pc) + 1));
          break;
      }
      if (join(starts[pc], start)) grew = true;
    }
  }
}

std::uint64_t ProgramWriter::size(const Node& node) {
  std::uint64_t total = 0;
  switch (node.kind) {
    case Node::Kind::Set: return 1;
    case Node::Kind::Concat:
    case Node::Kind::Alternate:
      for (const Node& child : node.children) total += size(child) + 2;
      break;
    case Node::Kind::Repeat: {
      const std::uint64_t copies =
          node.max == kUnbounded ? node.min + 1u : static_cast<std::uint64_t>(node.max);
      total = copies * (size(node.children[0]) + 2);
      break;
    }
    case Node::Kind::NotAhead:
    case Node::Kind::Ahead: total = size(node.children[0]) + 2; break;
  }
  return std::min(total, kMaxProgram + 1);
}

std::size_t ProgramWriter::lookahead_depth(const Node& node) {
  std::size_t deepest = 0;
  for (const Node& child : node.children) deepest = std::max(deepest, lookahead_depth(child));
  const bool lookahead = node.kind == Node::Kind::NotAhead || node.kind == Node::Kind::Ahead;
  return deepest + (lookahead ? 1 : 0);
}

bool ProgramWriter::nullable(const Node& node) {
  switch (node.kind) {
    case Node::Kind::Set: return false;
    case Node::Kind::Concat: return std::all_of(node.children.begin(), node.children.end(), nullable);
    case Node::Kind::Alternate: return std::any_of(node.children.begin(), node.children.end(), nullable);
    case Node::Kind::Repeat: return node.min == 0 || nullable(node.children[0]);
    case Node::Kind::NotAhead:
    case Node::Kind::Ahead: return true;
  }
  return true;
}

void ProgramWriter::emit(const Node& node) {
  auto& program = out_.program_;
  switch (node.kind) {
    case Node::Kind::Set: push(Regex::Op::Char, node.set); return;
    case Node::Kind::Concat:
      for (const Node& child : node.children) emit(child);
      return;
    case Node::Kind::Alternate: {
      std::vector<std::int32_t> jumps;
      for (std::size_t i = 0; i < node.children.size(); ++i) {
        const bool last = i + 1 == node.children.size();
        const std::int32_t split = last ? -1 : push(Regex::Op::Split);
        if (!last) program[split].x = here();
        emit(node.children[i]);
        if (!last) {
          jumps.push_back(push(Regex::Op::Jump));
          program[split].y = here();
        }
      }
      for (const std::int32_t jump : jumps) program[jump].x = here();
      return;
    }
    case Node::Kind::Repeat: {
      const Node& body = node.children[0];
      for (int i = 0; i < node.min; ++i) emit(body);
      if (node.max == kUnbounded && optimize_ && body.kind == Node::Kind::Set) {
        // One character set repeated, as most of a tokenizer's pattern is:
        // one instruction for the whole run rather than three per character.
        push(Regex::Op::Star, body.set);
        return;
      }
      if (node.max == kUnbounded) {
        // loop: Split(body, out); body; Jump loop; out:
        const std::int32_t loop = push(Regex::Op::Split);
        program[loop].x = here();
        emit(body);
        push(Regex::Op::Jump, loop);
        program[loop].y = here();
        return;
      }
      // x{0,k}: Split(body1, out); body1; Split(body2, out); body2; ... out:
      std::vector<std::int32_t> splits;
      for (int i = node.min; i < node.max; ++i) {
        const std::int32_t split = push(Regex::Op::Split);
        program[split].x = here();
        splits.push_back(split);
        emit(body);
      }
      for (const std::int32_t split : splits) program[split].y = here();
      return;
    }
    case Node::Kind::NotAhead:
    case Node::Kind::Ahead: {
      const std::int32_t look =
          push(node.kind == Node::Kind::NotAhead ? Regex::Op::NotAhead : Regex::Op::Ahead);
      emit(node.children[0]);
      push(Regex::Op::Match);
      program[look].x = here();
      return;
    }
  }
}

}  // namespace embeddings::regex
