// What the sessions' tests share: a file read whole, and a memory budget of
// a fixed number of bytes.
#pragma once

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>

namespace embeddings::testing {

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The room fixed_budget() reports: a test sets it, then builds a MemoryBudget(fixed_budget, fixed_budget).
inline std::uint64_t fixed_room = 0;
inline std::uint64_t fixed_budget() { return fixed_room; }

}  // namespace embeddings::testing
