// pre_tokenizers/split.cpp: each behavior, with and without invert, as
// tokenizers' own tests give them.
#include <gtest/gtest.h>

#include "text/component_testing.h"

namespace embeddings::split_test {

using component_testing::pieces;
using component_testing::Strings;

std::string split(const char* behavior, bool invert) {
  return std::string(R"({"type": "Split", "pattern": {"Regex": "\\s+"}, "behavior": ")") + behavior +
         R"(", "invert": )" + (invert ? "true" : "false") + "}";
}

TEST(Split, EachBehavior) {
  const char* text = "How are you doing?";
  EXPECT_EQ(pieces(split("Removed", false), text), Strings({"How", "are", "you", "doing?"}));
  EXPECT_EQ(pieces(split("Isolated", false), text), Strings({"How", " ", "are", " ", "you", " ", "doing?"}));
  EXPECT_EQ(pieces(split("MergedWithPrevious", false), text), Strings({"How ", "are ", "you ", "doing?"}));
  EXPECT_EQ(pieces(split("MergedWithNext", false), text), Strings({"How", " are", " you", " doing?"}));
  EXPECT_EQ(pieces(split("Contiguous", false), "How  are"), Strings({"How", "  ", "are"}));
  EXPECT_EQ(pieces(split("Removed", true), text), Strings({" ", " ", " "}));
  EXPECT_EQ(pieces(R"({"type": "Split", "pattern": {"String": "-"}, "behavior": "Contiguous"})", "a--b-"),
            Strings({"a", "--", "b", "-"}));
  EXPECT_EQ(
      component_testing::refusal(read_pre_tokenizers,
                                 R"({"type": "Split", "pattern": {"String": "-"}, "behavior": "Joined"})"),
      "pre_tokenizer.behavior must be Removed, Isolated, MergedWithPrevious, MergedWithNext or Contiguous, "
      "found the string \"Joined\"");
}

// Issue 34, every component held to the memory its file is given: a
// pattern's program may be a million instructions (36 MiB and more) from
// twenty bytes of the file, so a Sequence of a hundred would pass 4 GiB and
// abort an instance. Each program is counted before it is written, against
// what the loader has left, and past it refused by name.
TEST(Split, ProgramsAreHeldToTheMemoryTheLoaderIsGiven) {
  component_testing::Json json;
  std::string splits;
  for (int i = 0; i < 100; ++i) {
    splits +=
        std::string(i ? ", " : "") +
        R"({"type": "Split", "pattern": {"Regex": "(?:a{1000}){300}"}, "behavior": "Isolated", "invert": false})";
  }
  json.pre_tokenizer = R"({"type": "Sequence", "pretokenizers": [)" + splits + "]}";
  json.model = R"({"type": "WordLevel", "unk_token": "?", "vocab": {"?": 0, "a": 1}})";
  Tokenizer tokenizer;
  std::string error;
  EXPECT_FALSE(Tokenizer::from_json(json.text(), tokenizer, error, std::uint64_t{256} << 20));
  // (What each program takes as written is counted: optimized, less than its bound.)
  EXPECT_EQ(error,
            "pre_tokenizer.pretokenizers[10].pattern.Regex \"(?:a{1000}){300}\": its program of 901202 "
            "instructions would take 61.9 MiB of memory, more than the 50.0 MiB left");
}

}  // namespace embeddings::split_test
