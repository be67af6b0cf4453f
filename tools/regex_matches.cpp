// Prints where a Split pattern matches, for checking the regex engine
// (cpp/include/embeddings/text/regex/regex.h) against another one.
//
//   regex_matches < input
//
// Input: JSON strings, one a line: the pattern, then the texts. Output, one
// line a text: the byte offsets "begin end" of each match, found left to
// right with the next search starting where the last match ended (the
// pattern must not match the empty string), separated by spaces. A pattern
// that does not compile prints the error and exits with status 1.
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
    std::fprintf(stderr, "regex_matches: each line must be a JSON string: %s\n", error.c_str());
    std::exit(2);
  }
  value = parsed.text;
  return true;
}

}  // namespace

int main() {
  std::string pattern;
  if (!read_string_line(pattern)) return 2;
  embeddings::regex::Regex regex;
  std::string error;
  if (!embeddings::regex::Regex::compile(pattern, regex, error)) {
    std::printf("%s\n", error.c_str());
    return 1;
  }
  if (regex.matches_empty()) {
    std::printf("the pattern can match the empty string\n");
    return 1;
  }
  embeddings::regex::Regex::Scratch scratch;
  std::string text;
  std::string out;
  while (read_string_line(text)) {
    out.clear();
    std::size_t from = 0;
    std::size_t begin = 0;
    std::size_t end = 0;
    while (regex.search(text, from, begin, end, scratch)) {
      if (!out.empty()) out += ' ';
      out += std::to_string(begin) + ' ' + std::to_string(end);
      from = end;
    }
    std::fwrite(out.data(), 1, out.size(), stdout);
    std::fputc('\n', stdout);
  }
  return 0;
}
