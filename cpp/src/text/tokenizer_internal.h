// What tokenizer.cpp shares with tokenizer_full.cpp, the general paths
// that only the full module links (tokenizer_critical.cpp stands in for
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
  const char* text_begin = nullptr;  // The raw text (Metaspace's prepend_scheme "first").
  // Stop once the ids pass this (ids of earlier sequences count: `before`); `over` says they did.
  std::size_t max_tokens = kNoLimit;
  std::size_t before = 0;
  bool stops_early = false;  // Whether the post-processors keep every id, so passing it early is final.
  bool over = false;
  bool failed = false;  // A model's refusal, in model.error.
  PieceCache* cache = nullptr;
};

}  // namespace embeddings
