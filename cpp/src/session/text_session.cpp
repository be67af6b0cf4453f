#include "embeddings/session/text_session.h"

#include <algorithm>
#include <utility>

#include "embeddings/common/message.h"
#include "embeddings/formats/json.h"

namespace embeddings {

namespace {

// Whether a TextSession keeps a piece cache: the chapter's module keeps
// none (tokenizer.cpp says why), and leaves its code out.
#if EMBEDDINGS_CHAPTER_MODULE
constexpr bool kKeepsPieceCache = false;
#else
constexpr bool kKeepsPieceCache = true;
#endif

}  // namespace

// ---- TextSession ---------------------------------------------------------------

// JavaScript reads each id's offsets as four 32-bit words (the last one's low byte the flag).
static_assert(sizeof(TokenOffsets) == 16, "TokenOffsets is read as four 32-bit words");

void TextSession::set_output(const void* data, std::size_t count) {
  output_[0] = reinterpret_cast<std::uintptr_t>(data);
  output_[1] = count;
  output_[2] = over_limit_ ? 1 : 0;
  output_[3] = offsets_.empty() ? 0 : reinterpret_cast<std::uintptr_t>(offsets_.data());
}

bool TextSession::fail(std::string message) {
  error_ = std::move(message);
  return false;
}

char* TextSession::input_buffer(std::size_t bytes) {
  arm_reserve();
  // A load in steps reads the buffer about to be replaced.
  loading_.reset();
  if (input_.allocate(bytes)) return input_.data();
  fail("out of memory for " + mebibytes(bytes) + " of text");
  return nullptr;
}

bool TextSession::load() {
  int step = 0;
  while (step == 0) step = load_step();
  return step > 0;
}

int TextSession::load_step() {
  arm_reserve();
  // The loader estimates its tables from the file's counts and refuses what
  // the budget cannot hold.
  if (!loading_) loading_ = std::make_unique<Tokenizer::Loading>(input(), budget_.room());
  const Tokenizer::Loading::Step step = loading_->step();
  if (step == Tokenizer::Loading::Step::More) return 0;
  if (step == Tokenizer::Loading::Step::Failed) {
    error_ = loading_->error();
  } else {
    tokenizer_ = loading_->take();
    loaded_ = true;
    error_.clear();
  }
  loading_.reset();
  input_.reset();
  return step == Tokenizer::Loading::Step::Done ? 1 : -1;
}

bool TextSession::encode_checked(std::string_view text, const std::size_t* max_tokens,
                                 const Request& request) {
  arm_reserve();
  over_limit_ = false;
  // An encode frees the input buffer, which a load in steps is reading.
  if (loading_) return fail("a tokenizer is being loaded (load_step): encode once its load is done");
  if (!loaded_) return fail("no tokenizer is loaded");
  // Encoding needs the ids (at most one per byte) and scratch for the
  // longest piece; this bounds both generously, so a text that could not
  // fit is refused instead of aborting halfway.
  const bool aligned = request.offsets || tokenizer_.aligns_start();
  const std::uint64_t worst = static_cast<std::uint64_t>(text.size()) *
                              (kEncodeBytesPerInputByte + (aligned ? kOffsetsBytesPerInputByte : 0));
  if (!budget_.has_room(worst)) {
    input_.reset();
    return fail("out of memory: encoding " + mebibytes(text.size()) + " of text could need " +
                mebibytes(worst));
  }
  Tokenizer::EncodeOptions options;
  // Stages that lengthen text (a Replace, a Prepend, NFKD...) are held to
  // what the budget can still hold when the most their growth allows cannot
  // fit; they refuse before they allocate, by name.
  const std::uint64_t most = tokenizer_.most_text_bytes(text.size());
  if (most >= text.size() && !budget_.has_room((most - text.size()) * kEncodeBytesPerInputByte + worst)) {
    const std::uint64_t room = budget_.room();
    options.max_added_bytes =
        room > worst ? static_cast<std::size_t>((room - worst) / kEncodeBytesPerInputByte) : 0;
  }
  // The piece cache is made by the first encode, not by load(): loading's
  // memory is the tables'. Without room for it, encoding goes on without a
  // cache (the same ids).
  if (kKeepsPieceCache && piece_cache_.slot_count() == 0 &&
      budget_.has_room(PieceCache::memory_bytes(kPieceCacheSlots)))
    piece_cache_ = PieceCache(kPieceCacheSlots);
  options.cache = &piece_cache_;
  options.add_special_tokens = request.add_special_tokens;
  if (max_tokens != nullptr) options.max_tokens = *max_tokens;
  const bool pair = request.first_bytes <= text.size();
  const std::string_view second = pair ? text.substr(request.first_bytes) : std::string_view();
  if (pair) options.pair = &second;
  offsets_.clear();
  if (request.offsets) options.offsets = &offsets_;
  std::string error;
  const Tokenizer::Encoded result =
      tokenizer_.encode(text.substr(0, std::min(request.first_bytes, text.size())), options, ids_, error);
  input_.reset();
  if (result == Tokenizer::Encoded::Refused) {
    release();
    return fail(error);
  }
  over_limit_ = result == Tokenizer::Encoded::TooManyTokens;
  set_output(ids_.data(), ids_.size());
  return true;
}

bool TextSession::encode() { return encode_checked(input(), nullptr, {}); }

bool TextSession::encode_at_most(std::size_t max_tokens) { return encode_checked(input(), &max_tokens, {}); }

bool TextSession::encode_special(std::size_t first_bytes, bool add_special_tokens, bool offsets,
                                 std::size_t max_tokens) {
  return encode_checked(input(), &max_tokens, {first_bytes, add_special_tokens, offsets});
}

char* TextSession::text_buffer(std::size_t bytes) {
  arm_reserve();
  if (text_.size() >= bytes && !text_.empty()) return text_.data();
  if (budget_.has_room(bytes) && text_.allocate(bytes)) return text_.data();
  fail("out of memory for " + mebibytes(bytes) + " of text");
  return nullptr;
}

bool TextSession::encode_text(std::size_t length) {
  if (length > text_.size())
    return fail("encode_text: " + std::to_string(length) + " bytes, more than the buffer holds");
  return encode_checked({text_.data(), length}, nullptr, {});
}

bool TextSession::encode_text_at_most(std::size_t length, std::size_t max_tokens) {
  if (length > text_.size())
    return fail("encode_text: " + std::to_string(length) + " bytes, more than the buffer holds");
  return encode_checked({text_.data(), length}, &max_tokens, {});
}

void TextSession::release() {
  std::vector<std::int32_t>().swap(ids_);
  std::vector<TokenOffsets>().swap(offsets_);
  std::string().swap(decoded_);
  over_limit_ = false;
  set_output(nullptr, 0);
}

std::int32_t* TextSession::ids_input(std::size_t count) {
  arm_reserve();
  if (ids_in_.allocate(count)) return ids_in_.data();
  fail("out of memory for " + std::to_string(count) + " token ids");
  return nullptr;
}

bool TextSession::decode() { return decode_with(false); }

bool TextSession::decode_skipping_special() { return decode_with(true); }

bool TextSession::decode_with(bool skip_special_tokens) {
  arm_reserve();
  if (!loaded_) return fail("no tokenizer is loaded");
  // What decoding takes is counted from the ids' own tokens first (their
  // bytes, the text they make, their spelling for the decoders), so any
  // decode whose text fits is done; refuse rather than abort when it cannot.
  const std::size_t count = ids_in_.size();
  std::uint64_t base = 0, most = 0;
  if (!tokenizer_.decode_memory(ids_in_.data(), count, skip_special_tokens, base, most, error_)) {
    ids_in_.reset();
    return false;
  }
  if (!budget_.has_room(base)) {
    ids_in_.reset();
    return fail("out of memory: the text of " + std::to_string(count) + " tokens needs " + mebibytes(base));
  }
  Tokenizer::DecodeOptions options;
  options.skip_special_tokens = skip_special_tokens;
  // Decoders that lengthen tokens (a Replace) are held to what the budget can still hold
  // (each byte they add is counted twice in `most`).
  if (!budget_.has_room(most)) {
    const std::uint64_t room = budget_.room();
    options.max_added_bytes = room > base ? static_cast<std::size_t>((room - base) / 2) : 0;
  }
  std::string text;
  const bool ok = tokenizer_.decode(ids_in_.data(), count, options, text, error_);
  ids_in_.reset();
  if (!ok) return false;
  decoded_ = std::move(text);
  over_limit_ = false;
  set_output(decoded_.data(), decoded_.size());
  return true;
}

std::string TextSession::vocabulary_json() const {
  std::string out = "[";
  for (std::size_t id = 0; id < tokenizer_.vocab_size(); ++id) {
    if (id != 0) out += ',';
    json::append_quoted(out, tokenizer_.token_text(static_cast<std::int32_t>(id)));
  }
  return out + "]";
}

}  // namespace embeddings
