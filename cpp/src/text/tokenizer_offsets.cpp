// Offsets (EncodeOptions::offsets): each id's bytes in the text it came
// from, as Hugging Face's Encoding has them. The pipeline carries where each
// byte came from (pipeline.h's Alignment: the normalizers' spans, the
// pre-tokenizers' pieces); here a token's place in its piece, which the
// model says, becomes its place in the text, and the post-processors that
// trim offsets (ByteLevel's and RobertaProcessing's trim_offsets) trim it.
#include <algorithm>
#include <limits>

#include "embeddings/common/utf8.h"
#include "embeddings/text/unicode/unicode.h"
#include "tokenizer_internal.h"

namespace embeddings {
namespace {

// Where the character that ends at `end` (> 0) starts; a byte that is not
// the end of a valid UTF-8 character is one of its own.
EMBEDDINGS_OFFSETS std::size_t character_before(std::string_view text, std::size_t end, std::uint32_t& code) {
  std::size_t start = end - 1;
  while (start > 0 && end - start < 4 && (static_cast<unsigned char>(text[start]) & 0xC0) == 0x80) --start;
  if (utf8::decode(text, start, code) == end - start) return start;
  code = 0xFFFFFFFF;
  return end - 1;
}

// Where the character that starts at `at` ends.
EMBEDDINGS_OFFSETS std::size_t character_after(std::string_view text, std::size_t at, std::uint32_t& code) {
  const std::size_t used = utf8::decode(text, at, code);
  if (used == 0) code = 0xFFFFFFFF;
  return at + (used == 0 ? 1 : used);
}

// How many characters Hugging Face's process_offsets counts as spaces at
// the start (or the end) of a token's text: "Ġ" or White_Space. A
// byte-level token's characters there are its bytes in GPT-2's alphabet, of
// which only the space's ("Ġ") is one.
EMBEDDINGS_OFFSETS std::size_t spaces(std::string_view token, bool byte_level, bool from_end) {
  const auto is_space = [&](std::uint32_t code) {
    return byte_level ? code == ' ' : code == 0x120 || unicode::is_whitespace(code);
  };
  std::size_t count = 0;
  std::uint32_t code = 0;
  for (std::size_t at = from_end ? token.size() : 0; from_end ? at > 0 : at < token.size(); ++count) {
    at = from_end ? character_before(token, at, code) : character_after(token, at, code);
    if (!is_space(code)) break;
  }
  return count;
}

// process_offsets for one token: its offsets past its leading spaces and
// before its trailing ones, counted in characters of the text (`first`: it
// is the first of its sequence, or starts the text; a single leading space
// of such a token is the one add_prefix_space put there, and stays).
EMBEDDINGS_OFFSETS void trim(std::string_view text, TokenOffsets& offsets, std::size_t leading,
                             std::size_t trailing, bool first, bool add_prefix_space) {
  std::uint32_t code = 0;
  if (leading > 0 && !(first && add_prefix_space && leading == 1)) {
    std::size_t at = offsets.begin;
    for (; leading > 0 && at < offsets.end; --leading) at = character_after(text, at, code);
    offsets.begin = static_cast<std::uint32_t>(std::min<std::size_t>(at, offsets.end));
  }
  if (trailing == 0) return;
  std::size_t at = offsets.end, count = 0;
  for (; count < trailing && at > 0; ++count) at = character_before(text, at, code);
  if (count == trailing) offsets.end = static_cast<std::uint32_t>(std::max<std::size_t>(at, offsets.begin));
}

}  // namespace

EMBEDDINGS_OFFSETS void Tokenizer::keep_offsets(std::string_view text, const EncodeOptions& options,
                                                Scratch& scratch, std::string& problem) const {
  const std::size_t longest = std::max(text.size(), options.pair != nullptr ? options.pair->size() : 0);
  if (longest >= std::numeric_limits<std::uint32_t>::max()) {
    problem = "offsets are kept for texts under 4 GiB only";
  } else if (!offsets_by_bytes_) {
    scratch.offsets = options.offsets;
    scratch.model.spans = &scratch.token_spans;
  }
}

EMBEDDINGS_OFFSETS bool Tokenizer::gives_offsets_by_bytes() const {
  return byte_level_vocabulary_ && model_->encodes_every_byte_as_itself() && post_processors_.empty() &&
         offset_trims_.empty() && keeps_text() &&
         std::none_of(added_.tokens().begin(), added_.tokens().end(),
                      [](const AddedToken& token) { return token.lstrip || token.rstrip; });
}

// Each token's bytes are the text's, one after the other: its span is where
// they are, out to whole characters, as the general path finds it for UTF-8
// (tests/cpp/text/offsets_test.cc holds the two together; a byte that is not
// UTF-8 may join the character before it here). The text's ids are the
// first `first_ids`, the pair's the rest.
EMBEDDINGS_OFFSETS void Tokenizer::record_by_bytes(std::string_view text, const EncodeOptions& options,
                                                   const std::vector<std::int32_t>& ids,
                                                   std::size_t first_ids) const {
  // (Such a tokenizer's post-processors trim nothing: the offsets are where the bytes are.)
  std::vector<TokenOffsets> out(ids.size());
  std::string_view token, whole = text;
  for (std::size_t i = 0, at = 0; i < ids.size(); ++i) {
    if (i == first_ids) {
      whole = *options.pair;
      at = 0;
    }
    vocabulary_.bytes(ids[i], token);
    const std::size_t end = std::min(at + token.size(), whole.size());
    // Out to the characters a token cuts (UTF-8: JavaScript's text always is).
    std::size_t begin = at, after = end;
    while (begin > 0 && (static_cast<unsigned char>(whole[begin]) & 0xC0) == 0x80) --begin;
    while (after < whole.size() && (static_cast<unsigned char>(whole[after]) & 0xC0) == 0x80) ++after;
    out[i] = {static_cast<std::uint32_t>(begin), static_cast<std::uint32_t>(after), i < first_ids ? 0 : 1,
              begin != at || after != end};
    at = end;
  }
  options.offsets->swap(out);
}

EMBEDDINGS_OFFSETS void Tokenizer::record(TokenOffsets offsets, std::string_view token, bool byte_level,
                                          Scratch& scratch) const {
  offsets.sequence = scratch.sequence;
  if (!offset_trims_.empty()) {
    const std::size_t leading = spaces(token, byte_level, false), trailing = spaces(token, byte_level, true);
    for (const char add_prefix_space : offset_trims_) {
      const bool first = scratch.offsets->size() == scratch.sequence_start || offsets.begin == 0;
      trim(scratch.text, offsets, leading, trailing, first, add_prefix_space != 0);
    }
  }
  scratch.offsets->push_back(offsets);
}

EMBEDDINGS_OFFSETS void Tokenizer::record_added(std::int32_t, std::string_view matched,
                                                const Alignment& alignment, Scratch& scratch) const {
  const Span span = original_span(matched, alignment, 0, matched.size());
  record({span.begin, span.end, 0, false}, matched, false, scratch);
}

EMBEDDINGS_OFFSETS void Tokenizer::record_piece(std::string_view piece, const Alignment& alignment,
                                                const std::int32_t* ids, std::size_t count,
                                                Scratch& scratch) const {
  const std::vector<TokenSpan>& spans = scratch.token_spans;
  if (spans.size() != count) {
    scratch.untraced = true;
    return;
  }
  std::string_view token;
  for (std::size_t i = 0; i < count; ++i) {
    // (A span past the piece, which no model gives for a real file, is cut at its end.)
    const std::size_t end = std::min<std::size_t>(spans[i].end, piece.size());
    const std::size_t begin = std::min<std::size_t>(spans[i].begin, end);
    Span span = byte_span(piece, alignment, std::min(begin, piece.size() - 1));
    if (begin < end) span = original_span(piece, alignment, begin, end);
    if (begin >= end) span.end = span.begin;
    vocabulary_.bytes(ids[i], token);
    record({span.begin, span.end, 0, spans[i].partial}, token, byte_level_vocabulary_, scratch);
  }
}

}  // namespace embeddings
