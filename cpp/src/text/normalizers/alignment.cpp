// Offsets through the normalizers (alignment.h): NormalizedString's
// transform(), the default for a normalizer that maps each character on its
// own, and the list of normalizers run so.
#include "normalizers/alignment.h"

#include "embeddings/common/utf8.h"

namespace embeddings {
namespace {

// The length of the character at `at` (a byte that is not UTF-8: one).
std::size_t character_length(std::string_view text, std::size_t at) {
  std::uint32_t code = 0;
  const std::size_t used = utf8::decode(text, at, code);
  return used == 0 ? 1 : used;
}

}  // namespace

// Each character on its own: its result takes its span, as Hugging Face's
// map(), filter() and for_each()-built transforms give it (Lowercase, Nmt,
// StripAccents, ByteLevel, BertNormalizer's parts).
bool Normalizer::normalize_aligned(std::string& text, std::vector<Span>& spans, StageScratch& scratch,
                                   TextBudget& budget) const {
  std::string out, character;
  std::vector<Span> out_spans;
  out.reserve(text.size());
  out_spans.reserve(text.size());
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t length = character_length(text, at);
    character.assign(text, at, length);
    if (may_change(character) && !normalize(character, scratch, budget)) return false;
    out += character;
    out_spans.insert(out_spans.end(), character.size(), spans[at]);
    at += length;
  }
  text.swap(out);
  spans.swap(out_spans);
  return true;
}

bool run_normalizers_aligned(const Normalizers& normalizers, std::string& text, std::vector<Span>& spans,
                             StageScratch& scratch, TextBudget& budget) {
  for (const auto& normalizer : normalizers) {
    if (!normalizer->may_change(text)) continue;
    if (!normalizer->normalize_aligned(text, spans, scratch, budget)) return false;
  }
  return true;
}

namespace normalizers {

void transform(std::string_view before, const std::vector<Span>& spans, std::string_view after,
               const std::vector<std::int32_t>& changes, std::size_t initial, std::vector<Span>& out) {
  out.clear();
  out.reserve(after.size());
  std::size_t at = 0;  // The byte of `before` the next character that takes a place takes.
  const auto skip = [&](std::size_t characters) {
    for (; characters > 0 && at < before.size(); --characters) at += character_length(before, at);
  };
  skip(initial);
  // (NormalizedString's (0, 0) for a character inserted before everything: where the text starts.)
  const Span none = spans.empty() ? Span{} : Span{spans[0].begin, spans[0].begin};
  std::size_t k = 0;
  for (std::size_t pos = 0; pos < after.size(); ++k) {
    const std::size_t length = character_length(after, pos);
    pos += length;
    const std::int32_t change = k < changes.size() ? changes[k] : 0;
    Span span = none;
    if (change > 0) {
      if (at > 0) span = spans[at - 1];
    } else {
      if (!spans.empty()) span = spans[at < spans.size() ? at : spans.size() - 1];
      skip(1 + static_cast<std::size_t>(-change));
    }
    out.insert(out.end(), length, span);
  }
}

}  // namespace normalizers
}  // namespace embeddings
