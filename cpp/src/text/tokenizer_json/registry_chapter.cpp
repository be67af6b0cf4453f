// The component kinds the chapter's module (embeddings.wasm, at most
// 150,000 bytes) reads: GPT-2's, and nothing else, so that it links nothing
// else. Any other kind is refused as left out of this build, and the
// package then loads the file with embeddings-full.wasm
// (web/src/model/module-choice.js picks that module first when a file needs it).
#include "tokenizer_json/registry.h"

#define EMBEDDINGS_NORMALIZERS(X)
#define EMBEDDINGS_PRE_TOKENIZERS(X) X("ByteLevel", pre_tokenizers, read_byte_level)
#define EMBEDDINGS_MODELS(X) X("BPE", models, read_byte_level_bpe)
#define EMBEDDINGS_DECODERS(X) X("ByteLevel", decoders, read_byte_level)
#define EMBEDDINGS_POST_PROCESSORS(X) X("ByteLevel", post_processors, read_byte_level)

EMBEDDINGS_REGISTRY(false)
