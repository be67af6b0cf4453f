#include "embeddings/text/added_tokens.h"

#include <algorithm>
#include <utility>

#include "embeddings/common/utf8.h"
#include "embeddings/text/pipeline.h"
#include "embeddings/text/unicode/unicode.h"

namespace embeddings {
namespace {

// The character that ends just before `end`: its start and code point. A byte
// that is not the end of a valid UTF-8 character counts as one character that
// is neither whitespace nor a word character (code set to 0xFFFFFFFF).
std::size_t char_start_before(std::string_view text, std::size_t end, std::uint32_t& code) {
  std::size_t start = end - 1;
  while (start > 0 && end - start < 4 && (static_cast<unsigned char>(text[start]) & 0xC0) == 0x80) --start;
  std::uint32_t decoded = 0;
  if (utf8::decode(text, start, decoded) == end - start) {
    code = decoded;
    return start;
  }
  code = 0xFFFFFFFF;
  return end - 1;
}

// The character at `pos` (< text.size()); invalid bytes as above.
std::size_t char_at(std::string_view text, std::size_t pos, std::uint32_t& code) {
  const std::size_t length = utf8::decode(text, pos, code);
  if (length == 0) {
    code = 0xFFFFFFFF;
    return 1;
  }
  return length;
}

}  // namespace

EMBEDDINGS_SMALL bool AddedVocabulary::build(std::vector<AddedToken> tokens, std::size_t& first,
                                             std::size_t& second) {
  tokens_ = std::move(tokens);
  for (int pass = 0; pass < 2; ++pass) {
    std::vector<std::string_view> contents;
    std::vector<std::int32_t> indices;
    for (std::size_t i = 0; i < tokens_.size(); ++i) {
      if (tokens_[i].normalized != (pass == 1)) continue;
      contents.push_back(pass == 1 ? decoded_form(i) : tokens_[i].content);
      indices.push_back(static_cast<std::int32_t>(i));
    }
    if (!tries_[pass].build(contents, indices, first, second)) {
      first = static_cast<std::size_t>(indices[first]);
      second = static_cast<std::size_t>(indices[second]);
      return false;
    }
  }
  return true;
}

std::size_t AddedVocabulary::memory_bytes(std::size_t count, std::size_t content_bytes) {
  return count * sizeof(AddedToken) + content_bytes + TokenTrie::memory_bytes(count, content_bytes);
}

// Hugging Face's AddedVocabulary::find_matches over one pass's tokens.
void AddedVocabulary::split(std::string_view text, Pass pass, AddedTokenSink& sink) const {
  const TokenTrie& trie = tries_[static_cast<int>(pass)];
  const auto gap = [&](std::string_view piece) { sink.gap(piece); };
  std::size_t start_offset = 0;  // End of the text already handed out.
  std::size_t pos = 0;           // Where the search for the next match resumes.
  std::size_t match_start = 0, match_length = 0;
  std::int32_t match = -1;
  while (pos < text.size() && !sink.stopped() && trie.find(text, pos, match_start, match_length, match)) {
    const AddedToken& token = tokens_[match];
    std::size_t start = match_start;
    std::size_t stop = match_start + match_length;
    pos = stop;
    if (token.single_word) {
      std::uint32_t before = 0xFFFFFFFF, after = 0xFFFFFFFF;
      if (start > 0) char_start_before(text, start, before);
      if (stop < text.size()) char_at(text, stop, after);
      if (unicode::is_word_character(before) || unicode::is_word_character(after)) continue;
    }
    if (token.lstrip) {
      std::size_t new_start = start;
      while (new_start > start_offset) {  // Whitespace left of start_offset is handed out already.
        std::uint32_t code = 0;
        const std::size_t char_start = char_start_before(text, new_start, code);
        if (!unicode::is_whitespace(code)) break;
        new_start = char_start;
      }
      start = std::max(new_start, start_offset);
    }
    if (token.rstrip) {
      while (stop < text.size()) {
        std::uint32_t code = 0;
        const std::size_t length = char_at(text, stop, code);
        if (!unicode::is_whitespace(code)) break;
        stop += length;
      }
    }
    if (start_offset < start) gap(text.substr(start_offset, start - start_offset));
    if (sink.stopped()) return;
    sink.token(token.id, std::string_view(text.data() + start, std::max(start, stop) - start));
    // max(): a match inside whitespace that an rstrip already took must not move backwards.
    start_offset = std::max(start_offset, stop);
  }
  if (start_offset < text.size() && !sink.stopped()) gap(text.substr(start_offset));
}

}  // namespace embeddings
