// The tokenizer's general paths, which the full module and the native
// library link and the chapter's module does not (tokenizer_chapter.cpp
// stands in for them there): post-processors around the texts, ids decoded
// through their tokens' spelling and the decoders, the piece cache, and a
// vocabulary that is a list (Unigram's). The chapter's tokenizer needs none
// of them: it is GPT-2's, whose ids are its pieces' and whose text is its
// tokens' bytes.
#include <algorithm>
#include <string>
#include <vector>

#include "embeddings/common/utf8.h"
#include "embeddings/text/byte_level.h"
#include "tokenizer_internal.h"
#include "tokenizer_json/tokenizer_json.h"

namespace embeddings {
namespace {

// The bytes of the character `text` starts with (a byte that is not UTF-8 is one of its own).
std::size_t first_character_bytes(std::string_view text) {
  std::uint32_t code = 0;
  const std::size_t length = utf8::decode(text, 0, code);
  return length == 0 ? 1 : length;
}

}  // namespace

// The texts of an encode, one at a time, for the post-processors' general
// path. While offsets are kept, each text's ids go to the post-processors
// as marks (-1 - the id's place among the texts' ids), which are then its
// id and offsets again; the ids they add are special tokens, at (0, 0).
class Tokenizer::Sequences : public SequenceEncoder {
 public:
  Sequences(const Tokenizer& tokenizer, Scratch& scratch) : tokenizer_(tokenizer), scratch_(scratch) {}
  bool encode(std::string_view text, std::vector<std::int32_t>& ids) override {
    tokenizer_.encode_sequence(text, scratch_, ids);
    ++scratch_.sequence;
    scratch_.before += ids.size();
    if (scratch_.offsets != nullptr) {
      for (std::int32_t& id : ids) {
        texts_ids.push_back(id);
        id = -static_cast<std::int32_t>(texts_ids.size());
      }
    }
    return !scratch_.over && !scratch_.failed && !scratch_.budget.refused();
  }
  // The post-processors' ids with the marks made ids again, and the offsets to match.
  void unmark(std::vector<std::int32_t>& ids) const {
    std::vector<TokenOffsets>& offsets = *scratch_.offsets;
    std::vector<TokenOffsets> texts_offsets;
    texts_offsets.swap(offsets);
    for (std::int32_t& id : ids) {
      if (id >= 0) {
        offsets.push_back({0, 0, -1, false});
        continue;
      }
      const auto at = static_cast<std::size_t>(-1 - id);
      id = texts_ids[at];
      offsets.push_back(texts_offsets[at]);
    }
  }
  std::vector<std::int32_t> texts_ids;

 private:
  const Tokenizer& tokenizer_;
  Scratch& scratch_;
};

void Tokenizer::encode_processed(std::string_view text, const EncodeOptions& options, Scratch& scratch,
                                 std::vector<std::int32_t>& ids, std::string& problem) const {
  Sequences sequences(*this, scratch);
  if (process_encodings(post_processors_, sequences, text, options.pair, options.add_special_tokens, ids,
                        problem) &&
      scratch.offsets != nullptr) {
    sequences.unmark(ids);
  }
}

// Metaspace's prepend_scheme "first" reads a piece as the text's start
// when its first character came from the text's first one, as the Rust
// library reads its offsets: so after a normalizer that takes that
// character out (a left Strip, StripAccents, Nmt, Replace with "") no piece
// is, and after one that makes it several (NFKD, BertNormalizer's spaces
// around an ideograph, Prepend) each piece that starts in them is. The
// normalizers' alignments say which bytes those are (`first_bytes`): a
// tokenizer with such a Metaspace normalizes the text's first gap with
// them, with offsets or without, so that both decide it from one rule.
std::string_view Tokenizer::normalize_gap(std::string_view text, Scratch& scratch) const {
  scratch.first_bytes = first_character_bytes(text);
  for (const auto& normalizer : normalizers_) {
    if (!normalizer->may_change(text)) continue;
    if (reads_start_ && text.data() == scratch.text_begin) {
      Alignment alignment;
      return normalize_aligned(text, scratch, alignment);
    }
    scratch.normalized.assign(text);
    if (!run_normalizers(normalizers_, scratch.normalized, scratch.stage, scratch.budget)) return {};
    return scratch.normalized;
  }
  return text;
}

std::string_view Tokenizer::normalize_aligned(std::string_view gap, Scratch& scratch,
                                              Alignment& alignment) const {
  alignment = {nullptr, static_cast<std::uint32_t>(gap.data() - scratch.text_begin)};
  scratch.first_bytes = first_character_bytes(gap);
  for (const auto& normalizer : normalizers_) {
    if (!normalizer->may_change(gap)) continue;
    scratch.normalized.assign(gap);
    std::vector<Span>& spans = scratch.normalized_spans;
    spans.resize(gap.size());
    for (std::size_t i = 0; i < gap.size(); ++i) spans[i] = byte_span(gap, alignment, i);
    if (!run_normalizers_aligned(normalizers_, scratch.normalized, spans, scratch.stage, scratch.budget))
      return {};
    alignment = {spans.data(), 0};
    // What came from the text's first character: the bytes whose offsets start at 0.
    if (gap.data() == scratch.text_begin) {
      std::size_t first = 0;
      while (first < spans.size() && spans[first].begin == 0) ++first;
      scratch.first_bytes = first;
    }
    return scratch.normalized;
  }
  return gap;
}

void Tokenizer::pre_tokenize_levels(std::string_view gap, std::size_t first_bytes, Scratch& scratch,
                                    PieceSink& sink) const {
  run_pre_tokenizers(pre_tokenizers_, gap, first_bytes > 0, scratch.levels, scratch.stage, scratch.budget,
                     sink, first_bytes);
}

bool Tokenizer::pre_tokenize_aligned(std::string_view gap, std::size_t first_bytes,
                                     const Alignment& alignment, Scratch& scratch, PieceSink& sink) const {
  return run_pre_tokenizers_aligned(pre_tokenizers_, gap, first_bytes > 0, alignment, scratch.levels,
                                    scratch.stage, scratch.budget, sink, first_bytes);
}

bool Tokenizer::encode_cached(std::string_view piece, PieceCache& cache, ModelScratch& scratch,
                              std::vector<std::int32_t>& ids) const {
  if (cache.find(piece, ids)) return true;
  const std::size_t before = ids.size();
  if (!model_->encode_piece(piece, vocabulary_, scratch, ids)) return false;
  cache.store(piece, ids.data() + before, ids.size() - before);
  return true;
}

std::string Tokenizer::token_string(std::int32_t id) const {
  const std::int32_t added = vocabulary_.added_index(id);
  if (added >= 0) return added_.decoded_form(added);
  std::string_view bytes;
  vocabulary_.bytes(id, bytes);
  if (!byte_level_vocabulary_) return std::string(bytes);
  std::string spelled;
  byte_level::append_encoded(spelled, bytes);
  return spelled;
}

bool Tokenizer::decode_as_tokens(const std::int32_t* ids, std::size_t count, const DecodeOptions& options,
                                 std::string& text, std::string& error) const {
  std::vector<std::string> tokens;
  tokens.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    if (!options.skip_special_tokens || !is_special(ids[i])) tokens.push_back(token_string(ids[i]));
  }
  return decode_tokens(decoders_, has_decoder_, tokens, options.max_added_bytes, text, error);
}

bool Tokenizer::Reader::normalize_added_tokens(std::uint64_t memory_limit) {
  if (t_.normalizers_.empty()) return true;
  StageScratch scratch;
  TextBudget budget(static_cast<std::size_t>(std::min<std::uint64_t>(memory_limit / 4, kNoLimit)));
  for (std::size_t i = 0; i < added_tokens_.size(); ++i) {
    AddedToken& token = added_tokens_[i];
    if (!token.normalized) continue;
    std::string content = token.content;
    if (!run_normalizers(t_.normalizers_, content, scratch, budget))
      return fail("added_tokens[" + std::to_string(i) +
                  "]: normalizing its content needs more memory than there is");
    if (content.empty()) {
      return fail("added_tokens[" + std::to_string(i) + "] (" + quote(token.content) +
                  ") is empty once normalized (not supported)");
    }
    if (content != token.content) token.normalized_content = std::move(content);
  }
  return true;
}

bool Tokenizer::Reader::check_post_processors() {
  for (const auto& processor : t_.post_processors_) {
    for (const std::int32_t id : processor->special_ids()) {
      if (!t_.vocabulary_.has(id))
        return fail("post_processor: the special token id " + std::to_string(id) +
                    " is not in the vocabulary");
    }
    t_.most_added_ids_ += processor->added_ids();
    t_.post_processors_keep_ids_ = t_.post_processors_keep_ids_ && processor->keeps_ids();
  }
  return true;
}

bool Tokenizer::Reader::read_listed_vocabulary() {
  t_.vocabulary_.reserve(vocab_.entries + added_tokens_.size(), vocab_.key_bytes + added_bytes_);
  class Entries : public tokenizer_json::VocabularyEntries {
   public:
    explicit Entries(Reader& reader) : reader_(reader) {}
    bool add_key(std::string_view key, std::int32_t id) override { return reader_.add_entry(key, id); }

   private:
    Reader& reader_;
  } entries(*this);
  return builder_->read_vocabulary_list(text_, vocab_.at, vocab_.entries, entries, reading_) &&
         index_vocabulary();
}

}  // namespace embeddings
