// What the chapter's module links instead of tokenizer_full.cpp: its
// tokenizer is GPT-2's (the components of registry_chapter.cpp), which
// needs none of the general paths. Each is refused by name where it could
// be reached, and the loader never reaches them (it refuses what would).
#include "decoders/byte_level.h"
#include "tokenizer_internal.h"
#include "tokenizer_json/tokenizer_json.h"

namespace embeddings {

namespace {
constexpr const char* kLeftOut = "is left out of this build (it is in embeddings-full.wasm)";
}

void Tokenizer::encode_processed(std::string_view, const EncodeOptions&, Scratch&,
                                 std::vector<std::int32_t>& ids, std::string& problem) const {
  ids.clear();
  problem = std::string("post-processing ") + kLeftOut;
}

// (No normalizers here, and at most one pre-tokenizer, ByteLevel.)
std::string_view Tokenizer::normalize_gap(std::string_view text, Scratch&) const { return text; }

std::string_view Tokenizer::normalize_aligned(std::string_view gap, Scratch& scratch,
                                              Alignment& alignment) const {
  alignment = {nullptr, static_cast<std::uint32_t>(gap.data() - scratch.text_begin)};
  return gap;
}

void Tokenizer::pre_tokenize_levels(std::string_view, std::size_t, Scratch&, PieceSink& sink) const {
  sink.stop();
}

bool Tokenizer::pre_tokenize_aligned(std::string_view, std::size_t, const Alignment&, Scratch&,
                                     PieceSink& sink) const {
  sink.stop();
  return true;
}

// (No piece cache here: the chapter's 4,096 tokens merge quickly.)
bool Tokenizer::encode_cached(std::string_view piece, PieceCache&, ModelScratch& scratch,
                              std::vector<std::int32_t>& ids) const {
  return model_->encode_piece(piece, vocabulary_, scratch, ids);
}

bool Tokenizer::decode_as_tokens(const std::int32_t*, std::size_t, const DecodeOptions&, std::string& text,
                                 std::string& error) const {
  text.clear();
  error = std::string("decoding other than GPT-2's ") + kLeftOut;
  return false;
}

// Never run here: Tokenizer::decode joins GPT-2's tokens' bytes itself.
bool decoders::ByteLevelDecoder::decode(std::vector<std::string>&, StageScratch&, TextBudget&) const {
  return false;
}

// (No normalizers, and no post-processor but ByteLevel, which is no stage.)
bool Tokenizer::Reader::normalize_added_tokens(std::uint64_t) { return true; }
bool Tokenizer::Reader::check_post_processors() { return true; }

bool Tokenizer::Reader::read_listed_vocabulary() {
  return fail(std::string("model.vocab as a list ") + kLeftOut);
}

}  // namespace embeddings
