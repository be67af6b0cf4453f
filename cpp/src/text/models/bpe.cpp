// tokenizer.json's "model" of type BPE: the pure merge (bpe.h) over a piece
// started as its tokens, as Hugging Face's BPE::merge_word and
// Word::merge_all do it. A byte-level vocabulary starts a piece as its
// bytes' single-byte tokens (GPT-2's, and the only way the chapter's module
// reads: read_byte_level_bpe); a vocabulary spelled as text, byte_fallback
// and the subword affixes start it as its characters (the full module's
// read_bpe).
#include "embeddings/text/models/bpe.h"

#include <algorithm>
#include <memory>
#include <utility>

#include "embeddings/common/utf8.h"
#include "embeddings/text/byte_level.h"
#include "tokenizer_json/reading.h"

namespace embeddings::bpe {

std::size_t MergeTable::capacity_for(std::size_t count) {
  std::size_t capacity = 16;
  while (capacity / 4 * 3 < count) capacity *= 2;
  return capacity;
}

void MergeTable::rehash(std::size_t capacity) {
  std::vector<Slot> old = std::move(slots_);
  slots_.assign(capacity, Slot{kEmpty, Merge{}});
  mask_ = capacity - 1;
  shift_ = 64;
  for (std::size_t c = capacity; c > 1; c >>= 1) --shift_;
  for (const Slot& s : old) {
    if (s.key == kEmpty) continue;
    std::size_t slot = home(s.key);
    while (slots_[slot].key != kEmpty) slot = (slot + 1) & mask_;
    slots_[slot] = s;
  }
}

void MergeTable::reserve(std::size_t count) {
  if (capacity_for(count) > slots_.size()) rehash(capacity_for(count));
}

bool MergeTable::insert(std::int32_t left, std::int32_t right, Merge merge, std::uint32_t& existing) {
  reserve(size_ + 1);
  const std::uint64_t k = key(left, right);
  std::size_t slot = home(k);
  for (; slots_[slot].key != kEmpty; slot = (slot + 1) & mask_) {
    if (slots_[slot].key == k) {
      existing = slots_[slot].merge.rank;
      return false;
    }
  }
  slots_[slot] = Slot{k, merge};
  ++size_;
  return true;
}

void merge(const MergeTable& merges, const std::int32_t* ids, std::size_t count, MergeWorkspace& workspace,
           std::vector<std::int32_t>& out) {
  if (count <= 1 || merges.empty()) {
    out.insert(out.end(), ids, ids + count);
    return;
  }
  using Symbol = MergeWorkspace::Symbol;
  using Candidate = MergeWorkspace::Candidate;
  auto& symbols = workspace.symbols;
  symbols.resize(count);
  const auto n = static_cast<std::int32_t>(count);
  for (std::int32_t i = 0; i < n; ++i) symbols[i] = Symbol{ids[i], i - 1, i + 1 < n ? i + 1 : -1, false};

  // Lowest rank first, then leftmost: the order Hugging Face's Word::merge_all pops.
  const auto later_first = [](const Candidate& a, const Candidate& b) {
    return a.rank != b.rank ? a.rank > b.rank : a.pos > b.pos;
  };
  auto& heap = workspace.heap;
  heap.clear();
  const auto push = [&](std::int32_t pos, std::int32_t left, std::int32_t right) {
    const Merge* merge = merges.find(left, right);
    if (merge == nullptr) return;
    heap.push_back(Candidate{merge->rank, static_cast<std::uint32_t>(pos), merge->new_id});
    std::push_heap(heap.begin(), heap.end(), later_first);
  };
  for (std::int32_t i = 0; i + 1 < n; ++i) push(i, symbols[i].id, symbols[i + 1].id);

  while (!heap.empty()) {
    std::pop_heap(heap.begin(), heap.end(), later_first);
    const Candidate top = heap.back();
    heap.pop_back();
    Symbol& current = symbols[top.pos];
    if (current.removed || current.next < 0) continue;
    const std::int32_t right_pos = current.next;
    // Skip entries whose pair has changed since they were queued.
    const Merge* merge = merges.find(current.id, symbols[right_pos].id);
    if (merge == nullptr || merge->new_id != top.new_id) continue;

    current.id = top.new_id;
    current.next = symbols[right_pos].next;
    symbols[right_pos].removed = true;
    if (current.next >= 0) symbols[current.next].prev = static_cast<std::int32_t>(top.pos);
    if (current.prev >= 0) push(current.prev, symbols[current.prev].id, current.id);
    if (current.next >= 0) push(static_cast<std::int32_t>(top.pos), current.id, symbols[current.next].id);
  }
  for (const Symbol& symbol : symbols) {
    if (!symbol.removed) out.push_back(symbol.id);
  }
}

}  // namespace embeddings::bpe

namespace embeddings::models {
namespace {

using tokenizer_json::describe;
using tokenizer_json::is_null_or_absent;

struct BpeSettings {
  std::int32_t unk_id = -1;    // Token for bytes that have none, or -1 to drop them.
  bool fuse_unk = false;       // A run of such bytes becomes one unk_token.
  bool ignore_merges = false;  // A piece that is a token is that token, whatever the merges say.
  // The vocabulary is spelled as text, not in GPT-2's byte alphabet: a
  // piece starts as its characters (UTF-8 sequences), not its bytes.
  bool by_characters = false;
  bool byte_fallback = false;  // A character without a token becomes its bytes' "<0xNN>" tokens.
  // Around every character but the first, and after the last (as bytes).
  std::string continuing_subword_prefix, end_of_word_suffix;
  bool starts_by_units() const {
    return by_characters || byte_fallback || !continuing_subword_prefix.empty() ||
           !end_of_word_suffix.empty();
  }
};

// GPT-2's BPE: a piece starts as its bytes' single-byte tokens; a byte
// without one becomes unk_token (fused as fuse_unk says) or is dropped.
class BytesBpe : public Model {
 public:
  EMBEDDINGS_SMALL BytesBpe(BpeSettings settings, bpe::MergeTable merges, const Vocabulary& vocabulary)
      : settings_(std::move(settings)), merges_(std::move(merges)) {
    for (int byte = 0; byte < 256; ++byte) {
      const char ch = static_cast<char>(byte);
      byte_ids_[byte] = vocabulary.find(std::string_view(&ch, 1));
    }
    every_byte_has_a_token_ =
        std::all_of(std::begin(byte_ids_), std::end(byte_ids_), [](std::int32_t id) { return id >= 0; });
  }

  bool encode_piece(std::string_view piece, const Vocabulary& vocabulary, ModelScratch& scratch,
                    std::vector<std::int32_t>& ids) const override {
    if (settings_.ignore_merges) {
      const std::int32_t whole = vocabulary.find(piece);
      if (whole >= 0) {
        ids.push_back(whole);
        if (kGeneralOffsets && scratch.spans != nullptr)
          scratch.spans->push_back({0, static_cast<std::uint32_t>(piece.size())});
        return true;
      }
    }
    auto& start = scratch.merge.piece_ids;
    start.clear();
    if (kGeneralOffsets) scratch.merge.piece_units.clear();
    this->start(piece, vocabulary, scratch.merge, kGeneralOffsets && scratch.spans != nullptr);
    const std::size_t first = ids.size();
    bpe::merge(merges_, start.data(), start.size(), scratch.merge, ids);
    if (kGeneralOffsets && scratch.spans != nullptr)
      spans(piece, ids.size() - first, scratch.merge, *scratch.spans);
    return true;
  }

 protected:
  bool every_byte_has_a_token() const override { return every_byte_has_a_token_; }
  bool encodes_every_byte_as_itself() const override { return every_byte_has_a_token_; }

  // The tokens a piece starts as, into workspace.piece_ids; with `units`
  // (offsets), their lengths into workspace.piece_units, where a subclass
  // that starts pieces otherwise puts them (this one leaves them to spans()).
  virtual void start(std::string_view piece, const Vocabulary&, bpe::MergeWorkspace& workspace, bool) const {
    bool fusing_unk = false;
    for (const char ch : piece) {
      const std::int32_t id = byte_ids_[static_cast<unsigned char>(ch)];
      if (id >= 0) {
        workspace.piece_ids.push_back(id);
        fusing_unk = false;
      } else if (settings_.unk_id >= 0 && !fusing_unk) {
        workspace.piece_ids.push_back(settings_.unk_id);
        fusing_unk = settings_.fuse_unk;
      }
    }
  }
  // start()'s lengths for a piece of bytes, off its path: each byte's, a
  // fused unk_token's the sum of its bytes', a byte dropped none.
  EMBEDDINGS_OFFSETS void byte_units(std::string_view piece, bpe::MergeWorkspace& workspace) const {
    bool fusing_unk = false;
    for (const char ch : piece) {
      const std::int32_t id = byte_ids_[static_cast<unsigned char>(ch)];
      if (id >= 0 || (settings_.unk_id >= 0 && !fusing_unk)) {
        workspace.piece_units.push_back(spelled_length(ch));
        fusing_unk = id < 0 && settings_.fuse_unk;
      } else if (fusing_unk) {
        workspace.piece_units.back() += spelled_length(ch);
      }
    }
  }

  // A byte's length in GPT-2's alphabet, as the Rust library's pieces spell
  // it: "!" to "~" are themselves, every other byte a character of two bytes.
  static std::uint32_t spelled_length(char byte) { return byte >= '!' && byte <= '~' ? 1 : 2; }

  // Each merged token's span in the piece: Hugging Face's Word gives a token
  // the sum of its start tokens' lengths, one after the other, in the piece
  // as the vocabulary spells it (for a byte-level one, GPT-2's alphabet,
  // whose positions are brought back to the piece's bytes). A character
  // with no token and no unk_token is dropped there without a length, so
  // the tokens after it are placed that much earlier, as there.
  EMBEDDINGS_OFFSETS void spans(std::string_view piece, std::size_t tokens, bpe::MergeWorkspace& workspace,
                                std::vector<TokenSpan>& out) const {
    if (workspace.piece_units.size() != workspace.piece_ids.size()) byte_units(piece, workspace);
    const std::vector<std::uint32_t>& units = workspace.piece_units;
    const bool merged = tokens != units.size();
    std::size_t raw = 0, spelled = 0;  // A byte of the piece, and where it starts as spelled.
    // The byte of the piece that position `at` (as spelled) falls in.
    const auto byte_at = [&](std::size_t at) {
      if (settings_.by_characters) return std::min(at, piece.size());
      while (raw < piece.size() && spelled + spelled_length(piece[raw]) <= at)
        spelled += spelled_length(piece[raw++]);
      return raw;
    };
    std::size_t position = 0;
    for (std::size_t i = 0; i < units.size();) {
      const std::int32_t next = merged ? workspace.symbols[i].next : static_cast<std::int32_t>(i + 1);
      const std::size_t j = next < 0 ? units.size() : static_cast<std::size_t>(next);
      std::size_t length = 0;
      for (std::size_t k = i; k < j; ++k) length += units[k];
      const std::size_t begin = byte_at(position);
      const std::size_t end =
          length == 0 ? begin : std::min(byte_at(position + length - 1) + 1, piece.size());
      out.push_back({static_cast<std::uint32_t>(begin), static_cast<std::uint32_t>(end),
                     cuts_character(piece, begin, end)});
      position += length;
      i = j;
    }
  }

  BpeSettings settings_;
  bpe::MergeTable merges_;
  std::int32_t byte_ids_[256] = {};  // Single-byte tokens, or -1.
  bool every_byte_has_a_token_ = false;
};

// Hugging Face's BPE::merge_word: each character (each byte, for a
// byte-level vocabulary) with the prefix unless it is the first and the
// suffix if it is the last is a token; failing that, with byte_fallback, the
// "<0xNN>" tokens of those bytes as the file spells them; failing that,
// unk_token, fused as fuse_unk says. (As there, a pending unk_token is added
// after the byte tokens that follow it, not before.)
class UnitsBpe : public BytesBpe {
 public:
  UnitsBpe(BpeSettings settings, bpe::MergeTable merges, const Vocabulary& vocabulary)
      : BytesBpe(std::move(settings), std::move(merges), vocabulary) {
    static constexpr char kHex[] = "0123456789ABCDEF";
    for (int byte = 0; byte < 256; ++byte) {
      const char name[] = {'<', '0', 'x', kHex[byte >> 4], kHex[byte & 15], '>'};
      fallback_ids_[byte] = vocabulary.find(std::string_view(name, sizeof name));
    }
    // (Then every character becomes tokens, none longer than what it covers.)
    every_byte_has_a_token_ =
        settings_.byte_fallback && std::all_of(std::begin(fallback_ids_), std::end(fallback_ids_),
                                               [](std::int32_t id) { return id >= 0; });
  }
  bool encodes_every_byte_as_itself() const override { return false; }

 protected:
  void start(std::string_view piece, const Vocabulary& vocabulary, bpe::MergeWorkspace& workspace,
             bool units) const override {
    auto& start = workspace.piece_ids;
    std::string& unit = workspace.unit;
    bool unk_pending = false;
    std::uint32_t unk_length = 0;  // Its length, as Hugging Face's Word counts it.
    const auto push = [&](std::int32_t id, std::uint32_t length) {
      start.push_back(id);
      if (units) workspace.piece_units.push_back(length);
    };
    for (std::size_t pos = 0; pos < piece.size();) {
      std::size_t length = 1;
      if (settings_.by_characters) {
        std::uint32_t code = 0;
        length = utf8::decode(piece, pos, code);
        if (length == 0) length = 1;  // A byte that is not UTF-8 is a character of its own.
      }
      const auto spelled =
          static_cast<std::uint32_t>(settings_.by_characters ? length : spelled_length(piece[pos]));
      unit.clear();
      if (pos != 0) unit += settings_.continuing_subword_prefix;
      unit.append(piece, pos, length);
      pos += length;
      if (pos == piece.size()) unit += settings_.end_of_word_suffix;
      const std::int32_t id = vocabulary.find(unit);
      if (id >= 0) {
        if (unk_pending) push(settings_.unk_id, unk_length);
        unk_pending = false;
        push(id, spelled);
        continue;
      }
      if (settings_.byte_fallback && push_fallback(unit, workspace, units)) continue;
      if (settings_.unk_id < 0) continue;
      if (unk_pending && !settings_.fuse_unk) push(settings_.unk_id, unk_length);
      unk_length = unk_pending && settings_.fuse_unk ? unk_length + spelled : spelled;
      unk_pending = true;
    }
    if (unk_pending) push(settings_.unk_id, unk_length);
  }

 private:
  // The "<0xNN>" tokens of the unit as the file spells it, if it has them
  // all (each one byte long there, the prefix's and suffix's too).
  bool push_fallback(const std::string& unit, bpe::MergeWorkspace& workspace, bool units) const {
    std::string spelled;
    if (settings_.by_characters) {
      spelled = unit;
    } else {
      byte_level::append_encoded(spelled, unit);
    }
    const bool all = std::all_of(spelled.begin(), spelled.end(),
                                 [&](char c) { return fallback_ids_[static_cast<unsigned char>(c)] >= 0; });
    if (!all) return false;
    for (const char c : spelled) workspace.piece_ids.push_back(fallback_ids_[static_cast<unsigned char>(c)]);
    if (units) workspace.piece_units.insert(workspace.piece_units.end(), spelled.size(), 1);
    return true;
  }

  std::int32_t fallback_ids_[256] = {};  // byte_fallback: the "<0xNN>" tokens, or -1.
};

// A BPE model that starts pieces as their characters or with byte_fallback
// (the full module's only: read_byte_level_bpe gives none, so the chapter's
// module does not link UnitsBpe).
using MakeUnitsBpe = std::shared_ptr<const Model> (*)(BpeSettings, bpe::MergeTable, const Vocabulary&);

EMBEDDINGS_SMALL std::shared_ptr<const Model> make_units_bpe(BpeSettings settings, bpe::MergeTable merges,
                                                             const Vocabulary& vocabulary) {
  return std::make_shared<UnitsBpe>(std::move(settings), std::move(merges), vocabulary);
}

class BpeBuilder : public tokenizer_json::ModelBuilder {
 public:
  explicit BpeBuilder(MakeUnitsBpe make_units) : make_units_(make_units) {}

  // unk_token, dropout (null), fuse_unk, ignore_merges; with units allowed,
  // byte_fallback, continuing_subword_prefix and end_of_word_suffix.
  EMBEDDINGS_SMALL bool read(const json::Value& model, tokenizer_json::Reading& reading) {
    const json::Value* dropout = model.find("dropout");
    if (!is_null_or_absent(dropout)) {
      return reading.fail("model.dropout must be null, found " + describe(*dropout) +
                          " (BPE dropout makes encoding random; not supported)");
    }
    if (!reading.read_bool(model, "byte_fallback", "model", settings_.byte_fallback)) return false;
    for (const char* key : {"continuing_subword_prefix", "end_of_word_suffix"}) {
      const json::Value* member = model.find(key);
      if (is_null_or_absent(member)) continue;
      if (!member->is_string())
        return reading.fail(std::string("model.") + key + " must be null or a string, found " +
                            describe(*member));
      if (!read_affix(*member, key, reading)) return false;
    }
    settings_.by_characters = !reading.byte_level_vocabulary;
    if (make_units_ == nullptr && settings_.starts_by_units()) {
      return reading.fail(
          settings_.by_characters
              ? "model: a vocabulary spelled as text (no ByteLevel pre-tokenizer) is left out of "
                "this build (it is in embeddings-full.wasm)"
              : "model: byte_fallback, continuing_subword_prefix and end_of_word_suffix are left "
                "out of this build (they are in embeddings-full.wasm)");
    }
    if (!reading.read_bool(model, "fuse_unk", "model", settings_.fuse_unk) ||
        !reading.read_bool(model, "ignore_merges", "model", settings_.ignore_merges)) {
      return false;
    }
    const json::Value* unk = model.find("unk_token");
    if (!is_null_or_absent(unk) && !unk->is_string())
      return reading.fail("model.unk_token must be null or a string, found " + describe(*unk));
    has_unk_ = !is_null_or_absent(unk);
    if (has_unk_) unk_text_ = unk->text;
    return true;
  }

  bool has_merges() const override { return true; }
  std::uint64_t memory_bytes(std::size_t, std::size_t, std::size_t merges) const override {
    return bpe::MergeTable::memory_bytes(merges);
  }
  bpe::MergeTable* merges() override { return &merges_; }
  std::string_view merge_prefix() const override { return prefix_; }

  EMBEDDINGS_SMALL bool build(const Vocabulary& vocabulary, tokenizer_json::VocabularyKeys& keys,
                              tokenizer_json::Reading& reading, std::shared_ptr<const Model>& out) override {
    if (has_unk_) {
      settings_.unk_id = keys.id_of_key(unk_text_);
      if (settings_.unk_id < 0)
        return reading.fail("model.unk_token " + quote(unk_text_) + " is not in model.vocab");
    }
    if (settings_.starts_by_units()) {
      out = make_units_(std::move(settings_), std::move(merges_), vocabulary);
    } else {
      out = std::make_shared<BytesBpe>(std::move(settings_), std::move(merges_), vocabulary);
    }
    return true;
  }

 private:
  // Kept as the bytes a vocabulary entry holds (GPT-2's alphabet decoded).
  EMBEDDINGS_SMALL bool read_affix(const json::Value& value, const char* key,
                                   tokenizer_json::Reading& reading) {
    std::string& bytes = key[0] == 'c' ? settings_.continuing_subword_prefix : settings_.end_of_word_suffix;
    if (reading.byte_level_vocabulary ? !byte_level::decode(value.text, bytes)
                                      : (bytes = value.text, false)) {
      return reading.fail(std::string("model.") + key + " " + quote(value.text) +
                          " is not a byte-level string (the vocabulary is in GPT-2's byte alphabet)");
    }
    if (key[0] == 'c') prefix_ = value.text;
    return true;
  }

  const MakeUnitsBpe make_units_;
  BpeSettings settings_;
  bpe::MergeTable merges_;
  std::string prefix_;  // continuing_subword_prefix as the file spells it
  bool has_unk_ = false;
  std::string unk_text_;
};

EMBEDDINGS_SMALL bool read_settings(const json::Value& model, tokenizer_json::Reading& reading,
                                    std::unique_ptr<tokenizer_json::ModelBuilder>& out,
                                    MakeUnitsBpe make_units) {
  auto builder = std::make_unique<BpeBuilder>(make_units);
  if (!builder->read(model, reading)) return false;
  out = std::move(builder);
  return true;
}

}  // namespace

// Every setting of the BPE model.
EMBEDDINGS_SMALL bool read_bpe(const json::Value& model, tokenizer_json::Reading& reading,
                               std::unique_ptr<tokenizer_json::ModelBuilder>& out) {
  return read_settings(model, reading, out, make_units_bpe);
}

// The chapter's module: GPT-2's BPE only (a byte-level vocabulary, a piece
// started as its bytes); the rest is refused by name, and the package then
// loads the file with embeddings-full.wasm.
EMBEDDINGS_SMALL bool read_byte_level_bpe(const json::Value& model, tokenizer_json::Reading& reading,
                                          std::unique_ptr<tokenizer_json::ModelBuilder>& out) {
  return read_settings(model, reading, out, nullptr);
}

}  // namespace embeddings::models
