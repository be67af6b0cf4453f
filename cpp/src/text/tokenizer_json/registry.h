// How a registry file (registry_full.cpp, registry_chapter.cpp) lists its
// component kinds: one X-macro line per kind, ("type", stage namespace,
// reader), each stage's lines in one list; EMBEDDINGS_REGISTRY(complete)
// then declares the readers and defines registry(). A build links exactly
// one registry file, and so exactly the components it lists.
#pragma once

#include "tokenizer_json/reading.h"

// The readers' declarations, each in its stage's namespace.
#define EMBEDDINGS_DECLARE_READER(type, stage, reader) \
  namespace stage {                                    \
  EMBEDDINGS_READER_TYPE_##stage reader;               \
  }
#define EMBEDDINGS_READER_TYPE_normalizers ::embeddings::tokenizer_json::ReadNormalizer
#define EMBEDDINGS_READER_TYPE_pre_tokenizers ::embeddings::tokenizer_json::ReadPreTokenizer
#define EMBEDDINGS_READER_TYPE_models ::embeddings::tokenizer_json::ReadModel
#define EMBEDDINGS_READER_TYPE_decoders ::embeddings::tokenizer_json::ReadDecoder
#define EMBEDDINGS_READER_TYPE_post_processors ::embeddings::tokenizer_json::ReadPostProcessor
#define EMBEDDINGS_KIND(type, stage, reader) {type, &::embeddings::stage::reader},

// At the top level of a registry file, after its lists. (An empty list is
// given one entry that no "type" has, so that every array has a size.)
#define EMBEDDINGS_REGISTRY(complete_build)                                                               \
  namespace embeddings {                                                                                  \
  EMBEDDINGS_NORMALIZERS(EMBEDDINGS_DECLARE_READER)                                                       \
  EMBEDDINGS_PRE_TOKENIZERS(EMBEDDINGS_DECLARE_READER)                                                    \
  EMBEDDINGS_MODELS(EMBEDDINGS_DECLARE_READER)                                                            \
  EMBEDDINGS_DECODERS(EMBEDDINGS_DECLARE_READER)                                                          \
  EMBEDDINGS_POST_PROCESSORS(EMBEDDINGS_DECLARE_READER)                                                   \
  namespace tokenizer_json {                                                                              \
  namespace {                                                                                             \
  constexpr Kind<ReadNormalizer> kNormalizers[] = {EMBEDDINGS_NORMALIZERS(EMBEDDINGS_KIND){"", nullptr}}; \
  constexpr Kind<ReadPreTokenizer> kPreTokenizers[] = {                                                   \
      EMBEDDINGS_PRE_TOKENIZERS(EMBEDDINGS_KIND){"", nullptr}};                                           \
  constexpr Kind<ReadModel> kModels[] = {EMBEDDINGS_MODELS(EMBEDDINGS_KIND){"", nullptr}};                \
  constexpr Kind<ReadDecoder> kDecoders[] = {EMBEDDINGS_DECODERS(EMBEDDINGS_KIND){"", nullptr}};          \
  constexpr Kind<ReadPostProcessor> kPostProcessors[] = {                                                 \
      EMBEDDINGS_POST_PROCESSORS(EMBEDDINGS_KIND){"", nullptr}};                                          \
  template <typename T, std::size_t N>                                                                    \
  constexpr std::size_t listed(const T (&)[N]) {                                                          \
    return N - 1;                                                                                         \
  }                                                                                                       \
  constexpr Registry kRegistry = {                                                                        \
      kNormalizers,    listed(kNormalizers),    kPreTokenizers, listed(kPreTokenizers),                   \
      kModels,         listed(kModels),         kDecoders,      listed(kDecoders),                        \
      kPostProcessors, listed(kPostProcessors), complete_build};                                          \
  }                                                                                                       \
  const Registry& registry() { return kRegistry; }                                                        \
  }                                                                                                       \
  }
