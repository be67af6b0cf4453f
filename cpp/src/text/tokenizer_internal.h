// What tokenizer.cpp shares with tokenizer_full.cpp, the general paths
// that only the full module links (tokenizer_chapter.cpp stands in for
// them in the chapter's). Internal to the library.
#pragma once

#include <string>
#include <vector>

#include "embeddings/text/tokenizer.h"

namespace embeddings {

// One encode's buffers, reused from piece to piece.
struct Tokenizer::Scratch {
  ModelScratch model;
  StageScratch stage;
  PreTokenizeScratch levels;
  PreTokenizerBuffers own;  // A single pre-tokenizer's.
  std::string normalized;   // The normalizers' output, when they change the text.
  TextBudget budget;
  const char* text_begin = nullptr;  // The raw text being encoded (of the text or the pair).
  // The bytes at the start of the raw gap's normalized text that came from
  // the text's first character, by the normalizers' alignments (0: they took
  // it out), for Metaspace's prepend_scheme "first".
  std::size_t first_bytes = 1;
  // Stop once the ids pass this (ids of earlier sequences count: `before`); `over` says they did.
  std::size_t max_tokens = kNoLimit;
  std::size_t before = 0;
  bool stops_early = false;  // Whether the post-processors keep every id, so passing it early is final.
  bool over = false;
  bool failed = false;  // A model's refusal, in model.error.
  PieceCache* cache = nullptr;
  // Offsets (EncodeOptions::offsets): where they go; the text being encoded
  // (which they index), which one it is and where its offsets start.
  std::vector<TokenOffsets>* offsets = nullptr;
  std::string_view text;
  std::int32_t sequence = 0;
  std::size_t sequence_start = 0;
  // The normalized text of the raw gap being encoded: where it starts, its
  // alignment, and its spans when the normalizers changed it.
  const char* gap_begin = nullptr;
  Alignment gap;
  std::vector<Span> normalized_spans;
  std::vector<TokenSpan> token_spans;  // The model's, for a piece.
  bool untraced = false;               // A piece's bytes could not be traced back (never, by test).
};

}  // namespace embeddings
