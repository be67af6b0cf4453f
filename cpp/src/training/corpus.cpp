#include "embeddings/training/corpus.h"

namespace embeddings {
namespace {

bool is_blank(std::string_view text) {
  for (const char ch : text) {
    if (ch != ' ' && ch != '\n' && ch != '\r' && ch != '\t') return false;
  }
  return true;
}

// `text` without one line break ("\n" or "\r\n") at its end.
std::string_view without_final_line_break(std::string_view text) {
  if (!text.empty() && text.back() == '\n') text.remove_suffix(1);
  if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
  return text;
}

}  // namespace

std::vector<std::string_view> split_documents(std::string_view text, std::string_view separator) {
  std::vector<std::string_view> documents;
  std::size_t document_start = 0;
  std::size_t line_start = 0;
  while (line_start < text.size()) {
    std::size_t line_end = text.find('\n', line_start);
    const std::size_t next_line = line_end == std::string_view::npos ? text.size() : line_end + 1;
    if (line_end == std::string_view::npos) line_end = text.size();
    std::string_view line = text.substr(line_start, line_end - line_start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line == separator) {
      const std::string_view document =
          without_final_line_break(text.substr(document_start, line_start - document_start));
      if (!is_blank(document)) documents.push_back(document);
      document_start = next_line;
    }
    line_start = next_line;
  }
  const std::string_view last = without_final_line_break(text.substr(document_start));
  if (!is_blank(last)) documents.push_back(last);
  return documents;
}

}  // namespace embeddings
