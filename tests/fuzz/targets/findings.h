// What a fuzz target reports: the first property it found broken. The
// libFuzzer entry points abort on a finding (so libFuzzer saves the input);
// the replay test (tests/cpp/fuzz_replay_test.cc) turns it into a failure.
// Crashes, leaks and undefined behaviour are found by the sanitizers.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

namespace embeddings::fuzz {

struct Findings {
  std::string first;
  void fail(const std::string& what) {
    if (first.empty()) first = what;
  }
  bool ok() const { return first.empty(); }
};

// For the libFuzzer entry points.
inline void abort_on(const Findings& findings) {
  if (findings.ok()) return;
  std::fprintf(stderr, "fuzz finding: %s\n", findings.first.c_str());
  std::abort();
}

}  // namespace embeddings::fuzz
