// Times the Split pattern engine (cpp/include/embeddings/text/regex/regex.h)
// on the tokenizer families' own patterns over a corpus, and on patterns
// that make a backtracking engine take exponential time.
//
//   regex-bench CORPUS [ROUNDS] [--exponential]
//
// --exponential adds the cases a backtracking engine cannot finish (hours).
// Prints one line a pattern: its name, the corpus's bytes, the matches
// found, and the fastest of ROUNDS (default 5) passes in milliseconds of
// this thread's CPU time (on a busy machine closer to the work than the
// wall clock); a
// pattern the engine refuses prints "refused" and the message. The matches
// are found as the tokenizer finds them (each search starts where the last
// match ended). tools/bench/regex.mjs runs two builds of this side by side.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "embeddings/text/regex/regex.h"

namespace {

// Text beyond ASCII, where the character classes' tables are searched: a
// few sentences in several scripts, repeated to about a mebibyte.
std::string multilingual() {
  const std::string sentences =
      "Привет, как дела? Всё хорошо. 今天天气很好，我们去公园吧。東京は日本の首都です。"
      "مرحبا بك في المدينة. नमस्ते, आप कैसे हैं? Ça va très bien, merci ! Größe: 12½ m². "
      "Ελληνικά γράμματα — «quotes» 🙂👍🏽 한국어 문장입니다. ";
  std::string text;
  while (text.size() < (1u << 20)) text += sentences;
  return text;
}

struct Case {
  const char* name;
  const char* pattern;
  bool on_corpus;            // else on `text`
  std::string text;          // the text of a case not run on the corpus
  bool exponential = false;  // only with --exponential
};

std::vector<Case> cases() {
  return {
      {"gpt2", R"('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+)", true, {}},
      {"llama3",
       R"((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)",
       true,
       {}},
      {"qwen3",
       R"((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)",
       true,
       {}},
      {"gpt4o",
       R"([^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|)"
       R"([^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|)"
       R"(\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+)",
       true,
       {}},
      {"deepseek3",
       R"([!"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~][A-Za-z]+|[^\r\n\p{L}\p{P}\p{S}]?[\p{L}\p{M}]+| ?[\p{P}\p{S}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)",
       true,
       {}},
      {"(a+)+b on 22 a's and c", "(a+)+b", false, std::string(22, 'a') + "c"},
      {"(a?){20}a{20} on 20 a's", "(a?){20}a{20}", false, std::string(20, 'a')},
      {"(a+)+b on 100,000 a's and c", "(a+)+b", false, std::string(100000, 'a') + "c", true},
      {"(a?){25}a{25} on 22 a's", "(a?){25}a{25}", false, std::string(22, 'a'), true},
  };
}

std::size_t count_matches(const embeddings::regex::Regex& regex, const std::string& text,
                          embeddings::regex::Regex::Scratch& scratch) {
  std::size_t count = 0, from = 0, begin = 0, end = 0;
  while (from <= text.size() && regex.search(text, from, begin, end, scratch)) {
    ++count;
    from = end > begin ? end : end + 1;
  }
  return count;
}

double cpu_ms() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) * 1e3 + static_cast<double>(now.tv_nsec) / 1e6;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: regex-bench CORPUS [ROUNDS]\n");
    return 2;
  }
  std::ifstream file(argv[1], std::ios::binary);
  const std::string corpus((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  if (!file && corpus.empty()) {
    std::fprintf(stderr, "regex-bench: cannot read %s\n", argv[1]);
    return 2;
  }
  const int rounds = argc > 2 ? std::max(1, std::atoi(argv[2])) : 5;
  const bool exponential = argc > 3 && std::string(argv[3]) == "--exponential";
  const std::string other_scripts = multilingual();
  std::vector<std::pair<const Case*, const std::string*>> runs;
  const std::vector<Case> all = cases();
  for (const Case& c : all) {
    if (c.exponential && !exponential) continue;
    runs.emplace_back(&c, c.on_corpus ? &corpus : &c.text);
    if (c.on_corpus) runs.emplace_back(&c, &other_scripts);
  }
  for (const auto& [case_pointer, text_pointer] : runs) {
    const Case& c = *case_pointer;
    embeddings::regex::Regex regex;
    std::string error;
    if (!embeddings::regex::Regex::compile(c.pattern, regex, error)) {
      std::printf("%s\trefused\t%s\n", c.name, error.c_str());
      continue;
    }
    const std::string& text = *text_pointer;
    embeddings::regex::Regex::Scratch scratch;
    double best = 1e300;
    std::size_t matches = 0;
    for (int round = 0; round < rounds; ++round) {
      const double start = cpu_ms();
      matches = count_matches(regex, text, scratch);
      best = std::min(best, cpu_ms() - start);
    }
    std::printf("%s%s\t%zu\t%zu\t%.3f\n", c.name, text_pointer == &other_scripts ? " (other scripts)" : "",
                text.size(), matches, best);
    std::fflush(stdout);
  }
  return 0;
}
