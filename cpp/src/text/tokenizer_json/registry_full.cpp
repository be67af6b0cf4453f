// Every component kind the full module (embeddings-full.wasm) and the
// native library read, by the "type" tokenizer.json gives it. A new kind is
// one file in its stage's folder (cpp/src/text/<stage>/) and one line here.
#include "tokenizer_json/registry.h"

#define EMBEDDINGS_NORMALIZERS(X)                    \
  X("NFC", normalizers, read_nfc)                    \
  X("NFD", normalizers, read_nfd)                    \
  X("NFKC", normalizers, read_nfkc)                  \
  X("NFKD", normalizers, read_nfkd)                  \
  X("Lowercase", normalizers, read_lowercase)        \
  X("Strip", normalizers, read_strip)                \
  X("Prepend", normalizers, read_prepend)            \
  X("Replace", normalizers, read_replace)            \
  X("Nmt", normalizers, read_nmt)                    \
  X("ByteLevel", normalizers, read_byte_level)       \
  X("StripAccents", normalizers, read_strip_accents) \
  X("Precompiled", normalizers, read_precompiled)    \
  X("BertNormalizer", normalizers, read_bert)        \
  X("Sequence", normalizers, read_sequence)

#define EMBEDDINGS_PRE_TOKENIZERS(X)                                 \
  X("ByteLevel", pre_tokenizers, read_byte_level)                    \
  X("Split", pre_tokenizers, read_split)                             \
  X("Metaspace", pre_tokenizers, read_metaspace)                     \
  X("Whitespace", pre_tokenizers, read_whitespace)                   \
  X("WhitespaceSplit", pre_tokenizers, read_whitespace_split)        \
  X("Digits", pre_tokenizers, read_digits)                           \
  X("Punctuation", pre_tokenizers, read_punctuation)                 \
  X("BertPreTokenizer", pre_tokenizers, read_bert)                   \
  X("CharDelimiterSplit", pre_tokenizers, read_char_delimiter_split) \
  X("FixedLength", pre_tokenizers, read_fixed_length)                \
  X("UnicodeScripts", pre_tokenizers, read_unicode_scripts)          \
  X("Sequence", pre_tokenizers, read_sequence)

#define EMBEDDINGS_MODELS(X)              \
  X("BPE", models, read_bpe)              \
  X("WordPiece", models, read_word_piece) \
  X("WordLevel", models, read_word_level) \
  X("Unigram", models, read_unigram)

#define EMBEDDINGS_DECODERS(X)                    \
  X("ByteLevel", decoders, read_byte_level)       \
  X("Metaspace", decoders, read_metaspace)        \
  X("ByteFallback", decoders, read_byte_fallback) \
  X("Fuse", decoders, read_fuse)                  \
  X("Strip", decoders, read_strip)                \
  X("Replace", decoders, read_replace)            \
  X("WordPiece", decoders, read_word_piece)       \
  X("BPEDecoder", decoders, read_bpe)             \
  X("CTC", decoders, read_ctc)                    \
  X("Sequence", decoders, read_sequence)

#define EMBEDDINGS_POST_PROCESSORS(X)                     \
  X("ByteLevel", post_processors, read_byte_level)        \
  X("TemplateProcessing", post_processors, read_template) \
  X("BertProcessing", post_processors, read_bert)         \
  X("RobertaProcessing", post_processors, read_roberta)   \
  X("Sequence", post_processors, read_sequence)

EMBEDDINGS_REGISTRY(true)
