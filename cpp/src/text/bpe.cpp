#include "embeddings/text/bpe.h"

#include <algorithm>
#include <utility>

#include "embeddings/common/utf8.h"
#include "embeddings/text/byte_level.h"

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

void BpeModel::set_vocabulary(const Vocabulary& vocabulary) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  for (int byte = 0; byte < 256; ++byte) {
    const char ch = static_cast<char>(byte);
    byte_ids_[byte] = vocabulary.find(std::string_view(&ch, 1));
    const char name[] = {'<', '0', 'x', kHex[byte >> 4], kHex[byte & 15], '>'};
    fallback_ids_[byte] = vocabulary.find(std::string_view(name, sizeof name));
  }
  const auto all = [](const std::int32_t(&ids)[256]) {
    return std::all_of(std::begin(ids), std::end(ids), [](std::int32_t id) { return id >= 0; });
  };
  // (Then no byte becomes unk_token, and no token covers more of the piece than its own length.)
  every_byte_has_a_token_ =
      starts_by_units() ? settings_.byte_fallback && all(fallback_ids_) : all(byte_ids_);
}

// Hugging Face's BPE::merge_word followed by Word::merge_all.
void BpeModel::encode_piece(std::string_view piece, const Vocabulary& vocabulary, MergeWorkspace& workspace,
                            std::vector<std::int32_t>& ids) const {
  if (settings_.ignore_merges) {
    const std::int32_t whole = vocabulary.find(piece);
    if (whole >= 0) {
      ids.push_back(whole);
      return;
    }
  }
  auto& start = workspace.piece_ids;
  start.clear();
#if !EMBEDDINGS_CRITICAL_MODULE  // (There the reader refuses the settings that need it.)
  if (settings_.word_piece) {
    encode_word_piece(piece, vocabulary, workspace, ids);
    return;
  }
  if (starts_by_units()) {
    start_by_units(piece, vocabulary, workspace);
    merge(merges_, start.data(), start.size(), workspace, ids);
    return;
  }
#endif
  bool fusing_unk = false;
  for (const char ch : piece) {
    const std::int32_t id = byte_ids_[static_cast<unsigned char>(ch)];
    if (id >= 0) {
      start.push_back(id);
      fusing_unk = false;
    } else if (settings_.unk_id >= 0 && !fusing_unk) {
      start.push_back(settings_.unk_id);
      fusing_unk = settings_.fuse_unk;
    }
  }
  merge(merges_, start.data(), start.size(), workspace, ids);
}

#if !EMBEDDINGS_CRITICAL_MODULE
// Hugging Face's BPE::merge_word: each character (each byte, for a
// byte-level vocabulary) with the prefix unless it is the first and the
// suffix if it is the last is a token; failing that, with byte_fallback, the
// "<0xNN>" tokens of those bytes as the file spells them; failing that,
// unk_token, fused as fuse_unk says. (As there, a pending unk_token is added
// after the byte tokens that follow it, not before.)
void BpeModel::start_by_units(std::string_view piece, const Vocabulary& vocabulary,
                              MergeWorkspace& workspace) const {
  auto& start = workspace.piece_ids;
  std::string& unit = workspace.unit;
  bool unk_pending = false;
  for (std::size_t pos = 0; pos < piece.size();) {
    std::size_t length = 1;
    if (settings_.by_characters) {
      std::uint32_t code = 0;
      length = utf8::decode(piece, pos, code);
      if (length == 0) length = 1;  // A byte that is not UTF-8 is a character of its own.
    }
    unit.clear();
    if (pos != 0) unit += settings_.continuing_subword_prefix;
    unit.append(piece, pos, length);
    pos += length;
    if (pos == piece.size()) unit += settings_.end_of_word_suffix;
    const std::int32_t id = vocabulary.find(unit);
    if (id >= 0) {
      if (unk_pending) start.push_back(settings_.unk_id);
      unk_pending = false;
      start.push_back(id);
      continue;
    }
    if (settings_.byte_fallback) {
      std::string spelled;  // The unit as the file spells it: its bytes are the fallback's.
      if (settings_.by_characters) {
        spelled = unit;
      } else {
        byte_level::append_encoded(spelled, unit);
      }
      const bool all = std::all_of(spelled.begin(), spelled.end(),
                                   [&](char c) { return fallback_ids_[static_cast<unsigned char>(c)] >= 0; });
      if (all) {
        for (const char c : spelled) start.push_back(fallback_ids_[static_cast<unsigned char>(c)]);
        continue;
      }
    }
    if (settings_.unk_id < 0) continue;
    if (unk_pending && !settings_.fuse_unk) start.push_back(settings_.unk_id);
    unk_pending = true;
  }
  if (unk_pending) start.push_back(settings_.unk_id);
}

void BpeModel::encode_word_piece(std::string_view piece, const Vocabulary& vocabulary,
                                 MergeWorkspace& workspace, std::vector<std::int32_t>& ids) const {
  // Where each character starts (each byte, for a byte-level vocabulary), and the end.
  std::vector<std::uint32_t>& starts = workspace.starts;
  starts.clear();
  for (std::size_t pos = 0; pos < piece.size();) {
    starts.push_back(static_cast<std::uint32_t>(pos));
    std::uint32_t code = 0;
    const std::size_t used = settings_.by_characters ? utf8::decode(piece, pos, code) : 1;
    pos += used == 0 ? 1 : used;
  }
  const std::size_t characters = starts.size();
  starts.push_back(static_cast<std::uint32_t>(piece.size()));
  const std::size_t first_id = ids.size();
  bool bad = characters > settings_.max_input_chars_per_word;
  std::string& unit = workspace.unit;
  for (std::size_t start = 0; start < characters && !bad;) {
    std::size_t end = characters;  // In characters.
    std::int32_t id = -1;
    for (; end > start; --end) {
      unit.assign(start == 0 ? "" : settings_.continuing_subword_prefix);
      unit.append(piece, starts[start], starts[end] - starts[start]);
      id = vocabulary.find(unit);
      if (id >= 0) break;
    }
    if (id < 0) {
      bad = true;
      break;
    }
    ids.push_back(id);
    start = end;
  }
  if (!bad) return;
  ids.resize(first_id);
  ids.push_back(settings_.unk_id);
}
#endif

}  // namespace embeddings::bpe
