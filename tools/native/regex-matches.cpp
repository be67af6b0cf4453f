// Prints where a Split pattern matches, for checking the regex engine
// (cpp/include/embeddings/text/regex/regex.h) against another one.
//
//   regex-matches < input
//
// Input: JSON strings, one a line: the pattern, then the texts. Output, one
// line a text: the byte offsets "begin end" of each match, found left to
// right with the next search starting where the last match ended (the
// pattern must not match the empty string), separated by spaces. A pattern
// that does not compile prints the error and exits with status 1.
//
// With "--pairs" as the first line, the lines that follow are pairs of a
// pattern and one text, each pair printed as above (many patterns in one run).
// With "--compile", each line that follows is a pattern, and each prints a
// line: "compiled", or why it is refused.
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>

#include "embeddings/formats/json.h"
#include "embeddings/text/regex/regex.h"

namespace {

bool read_string_line(std::string& value) {
  std::string line;
  if (!std::getline(std::cin, line)) return false;
  embeddings::json::Value parsed;
  std::string error;
  if (!embeddings::json::parse(line, parsed, error) || !parsed.is_string()) {
    std::fprintf(stderr, "regex-matches: each line must be a JSON string: %s\n", error.c_str());
    std::exit(2);
  }
  value = parsed.text;
  return true;
}

}  // namespace

// The matches of `regex` in `text`, as "begin end" pairs.
std::string matches(const embeddings::regex::Regex& regex, const std::string& text,
                    embeddings::regex::Regex::Scratch& scratch) {
  std::string out;
  std::size_t from = 0;
  std::size_t begin = 0;
  std::size_t end = 0;
  while (regex.search(text, from, begin, end, scratch)) {
    if (!out.empty()) out += ' ';
    out += std::to_string(begin) + ' ' + std::to_string(end);
    from = end;
  }
  return out;
}

bool compile(const std::string& pattern, embeddings::regex::Regex& regex) {
  std::string error;
  if (!embeddings::regex::Regex::compile(pattern, regex, error)) {
    std::printf("%s\n", error.c_str());
    return false;
  }
  if (regex.matches_empty()) {
    std::printf("the pattern can match the empty string\n");
    return false;
  }
  return true;
}

int main() {
  std::string pattern;
  if (!read_string_line(pattern)) return 2;
  embeddings::regex::Regex::Scratch scratch;
  std::string text;
  if (pattern == "--compile") {
    while (read_string_line(pattern)) {
      embeddings::regex::Regex regex;
      std::string error;
      std::printf("%s\n",
                  embeddings::regex::Regex::compile(pattern, regex, error) ? "compiled" : error.c_str());
    }
    return 0;
  }
  const bool pairs = pattern == "--pairs";
  if (pairs && !read_string_line(pattern)) return 0;
  embeddings::regex::Regex regex;
  if (!compile(pattern, regex)) return 1;
  while (read_string_line(text)) {
    const std::string out = matches(regex, text, scratch);
    std::fwrite(out.data(), 1, out.size(), stdout);
    std::fputc('\n', stdout);
    if (pairs) {
      if (!read_string_line(pattern)) break;
      if (!compile(pattern, regex)) return 1;
    }
  }
  return 0;
}
