// String rewrites the decoders share, as Rust's str::replace and
// tokenizers' wordpiece::cleanup() do them. Internal to the library.
#pragma once

#include <string>
#include <string_view>
#include <utility>

#include "embeddings/text/pipeline.h"

namespace embeddings::decoders {

// Rust's str::replace: every occurrence of `from`, left to right, as `to`;
// an empty `from` matches at each character boundary. Into `text` (`out` is
// a buffer); refused when what it adds passes the budget.
inline bool replace_all(std::string& text, std::string_view from, std::string_view to, std::string& out,
                        TextBudget& budget) {
  out.clear();
  if (from.empty()) {
    std::size_t boundaries = 1;
    for (const char c : text) boundaries += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    if (!budget.take(boundaries * to.size())) return false;
    out += to;
    for (std::size_t pos = 0; pos < text.size(); ++pos) {
      out += text[pos];
      if (pos + 1 == text.size() || (static_cast<unsigned char>(text[pos + 1]) & 0xC0) != 0x80) out += to;
    }
  } else {
    std::size_t found = text.find(from);
    if (found == std::string::npos) return true;
    std::size_t at = 0;
    for (; found != std::string::npos; at = found + from.size(), found = text.find(from, at)) {
      out.append(text, at, found - at).append(to);
      if (to.size() > from.size() && !budget.take(to.size() - from.size())) return false;
    }
    out.append(text, at, std::string::npos);
  }
  text.swap(out);
  return true;
}

// tokenizers' wordpiece::cleanup(): spaces before punctuation and in
// contractions taken out (it only shortens the text).
inline void cleanup(std::string& token, std::string& out) {
  static constexpr std::pair<std::string_view, std::string_view> kCleanup[] = {
      {" .", "."},   {" ?", "?"},           {" !", "!"},   {" ,", ","},     {" ' ", "'"},    {" n't", "n't"},
      {" 'm", "'m"}, {" do not", " don't"}, {" 's", "'s"}, {" 've", "'ve"}, {" 're", "'re"},
  };
  TextBudget unlimited;
  for (const auto& [from, to] : kCleanup) replace_all(token, from, to, out, unlimited);
}

}  // namespace embeddings::decoders
