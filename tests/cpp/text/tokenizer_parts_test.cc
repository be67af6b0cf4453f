// The tokenizer's parts on their own: the pure BPE merge and its table
// against a naive reference, the added-token trie against a naive search,
// the vocabulary, the added-token splitting, GPT-2's byte alphabet and the
// display form.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "embeddings/common/utf8.h"
#include "embeddings/text/added_tokens.h"
#include "embeddings/text/bpe.h"
#include "embeddings/text/byte_level.h"
#include "embeddings/text/display/token_display.h"
#include "embeddings/text/vocabulary.h"

namespace embeddings {
namespace {

using Ids = std::vector<std::int32_t>;

// ---- BPE merge -------------------------------------------------------------------

struct MergeRule {
  std::int32_t left, right, new_id;
};

// The definition, quadratically: while some adjacent pair has a merge, merge
// the one with the lowest rank, the leftmost of those.
Ids reference_merge(const std::vector<MergeRule>& rules, Ids ids) {
  for (;;) {
    std::size_t best_rank = rules.size(), best_pos = 0;
    for (std::size_t pos = 0; pos + 1 < ids.size(); ++pos) {
      for (std::size_t rank = 0; rank < best_rank; ++rank) {
        if (rules[rank].left == ids[pos] && rules[rank].right == ids[pos + 1]) {
          best_rank = rank;
          best_pos = pos;
          break;
        }
      }
    }
    if (best_rank == rules.size()) return ids;
    ids[best_pos] = rules[best_rank].new_id;
    ids.erase(ids.begin() + static_cast<std::ptrdiff_t>(best_pos) + 1);
  }
}

bpe::MergeTable table_of(const std::vector<MergeRule>& rules) {
  bpe::MergeTable table;
  for (std::size_t rank = 0; rank < rules.size(); ++rank) {
    std::uint32_t existing = 0;
    table.insert(rules[rank].left, rules[rank].right, {static_cast<std::uint32_t>(rank), rules[rank].new_id},
                 existing);
  }
  return table;
}

Ids merged(const bpe::MergeTable& table, const Ids& ids) {
  bpe::MergeWorkspace workspace;
  Ids out{-7};  // merge() appends.
  bpe::merge(table, ids.data(), ids.size(), workspace, out);
  out.erase(out.begin());
  return out;
}

TEST(BpeMerge, LowestRankFirstThenLeftmost) {
  // a=0 b=1 c=2; ab=3 (rank 0), abc=4 (rank 1), bc=5 (rank 2), aa=6 (rank 3).
  const std::vector<MergeRule> rules = {{0, 1, 3}, {3, 2, 4}, {1, 2, 5}, {0, 0, 6}};
  const bpe::MergeTable table = table_of(rules);
  EXPECT_EQ(merged(table, {0, 1, 2}), Ids({4}));  // ab before bc
  EXPECT_EQ(merged(table, {1, 2}), Ids({5}));
  EXPECT_EQ(merged(table, {0, 0, 0}), Ids({6, 0}));  // leftmost on a tie
  EXPECT_EQ(merged(table, {0, 0, 0, 0}), Ids({6, 6}));
  EXPECT_EQ(merged(table, {2}), Ids({2}));
  EXPECT_EQ(merged(table, {}), Ids({}));
  EXPECT_EQ(merged(bpe::MergeTable{}, {0, 1}), Ids({0, 1}));
}

TEST(BpeMerge, AgreesWithTheReferenceOnRandomTables) {
  std::mt19937 random(17);
  for (int round = 0; round < 300; ++round) {
    // A few symbols, and merges of earlier ids into new ones.
    const int symbols = 2 + static_cast<int>(random() % 4);
    std::vector<MergeRule> rules;
    std::int32_t next = symbols;
    const int count = static_cast<int>(random() % 12);
    for (int i = 0; i < count; ++i) {
      const auto left = static_cast<std::int32_t>(random() % next),
                 right = static_cast<std::int32_t>(random() % next);
      bool repeat = false;
      for (const MergeRule& rule : rules) repeat |= rule.left == left && rule.right == right;
      if (!repeat) rules.push_back({left, right, next++});
    }
    const bpe::MergeTable table = table_of(rules);
    for (int text = 0; text < 20; ++text) {
      Ids ids(random() % 24);
      for (auto& id : ids) id = static_cast<std::int32_t>(random() % symbols);
      ASSERT_EQ(merged(table, ids), reference_merge(rules, ids)) << "round " << round;
    }
  }
}

TEST(BpeMerge, TableGrowsAndRefusesARepeatedPair) {
  bpe::MergeTable table;  // No reserve(): it grows as it goes.
  for (std::int32_t i = 0; i < 20000; ++i) {
    std::uint32_t existing = 0;
    ASSERT_TRUE(table.insert(i, i * 7 % 20011, {static_cast<std::uint32_t>(i), i + 1}, existing));
  }
  EXPECT_EQ(table.size(), 20000u);
  for (std::int32_t i = 0; i < 20000; ++i) {
    const bpe::Merge* merge = table.find(i, i * 7 % 20011);
    ASSERT_NE(merge, nullptr);
    EXPECT_EQ(merge->rank, static_cast<std::uint32_t>(i));
    EXPECT_EQ(merge->new_id, i + 1);
    EXPECT_EQ(table.find(i, i * 7 % 20011 + 1), nullptr);
  }
  std::uint32_t existing = 0;
  EXPECT_FALSE(table.insert(5, 35, {99, 1}, existing));
  EXPECT_EQ(existing, 5u);
  EXPECT_GE(bpe::MergeTable::memory_bytes(20000), 20000 * sizeof(std::uint64_t));
}

// ---- Added tokens -------------------------------------------------------------------

// Leftmost start, then the longest content there.
bool reference_find(const std::vector<std::string>& contents, std::string_view text, std::size_t from,
                    std::size_t& start, std::size_t& length, std::int32_t& value) {
  for (std::size_t pos = from; pos < text.size(); ++pos) {
    std::int32_t best = -1;
    for (std::size_t i = 0; i < contents.size(); ++i) {
      if (text.compare(pos, contents[i].size(), contents[i]) == 0 &&
          (best < 0 || contents[i].size() > contents[best].size()))
        best = static_cast<std::int32_t>(i);
    }
    if (best >= 0) {
      start = pos;
      length = contents[best].size();
      value = best;
      return true;
    }
  }
  return false;
}

TEST(TokenTrie, LeftmostLongestLikeTheReference) {
  std::mt19937 random(5);
  for (int round = 0; round < 200; ++round) {
    // Contents over a small alphabet, so they share prefixes and overlap.
    std::vector<std::string> contents;
    const int count = 1 + static_cast<int>(random() % 12);
    while (static_cast<int>(contents.size()) < count) {
      std::string content(1 + random() % 5, 'a');
      for (char& ch : content) ch = static_cast<char>('a' + random() % 3);
      if (std::find(contents.begin(), contents.end(), content) == contents.end()) contents.push_back(content);
    }
    std::vector<std::string_view> views(contents.begin(), contents.end());
    std::vector<std::int32_t> values(contents.size());
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<std::int32_t>(i);
    TokenTrie trie;
    trie.build(views, values);
    std::string text(random() % 30, 'a');
    for (char& ch : text) ch = static_cast<char>('a' + random() % 4);
    for (std::size_t from = 0; from <= text.size(); ++from) {
      std::size_t start = 0, length = 0, expected_start = 0, expected_length = 0;
      std::int32_t value = -1, expected_value = -1;
      const bool found = trie.find(text, from, start, length, value);
      ASSERT_EQ(found, reference_find(contents, text, from, expected_start, expected_length, expected_value));
      if (!found) continue;
      EXPECT_EQ(start, expected_start);
      EXPECT_EQ(length, expected_length);
      EXPECT_EQ(value, expected_value);
    }
  }
}

TEST(TokenTrie, EmptyAndByteValues) {
  TokenTrie trie;
  trie.build({}, {});
  std::size_t start = 0, length = 0;
  std::int32_t value = 0;
  EXPECT_FALSE(trie.find("anything", 0, start, length, value));
  const std::string high = "\xFF\x00\x80";  // Every byte value is a label, 0x00 and 0xFF too.
  const std::string content(high.data(), 3);
  trie.build({content}, {42});
  const std::string text = std::string("x") + content;
  ASSERT_TRUE(trie.find(text, 0, start, length, value));
  EXPECT_EQ(start, 1u);
  EXPECT_EQ(length, 3u);
  EXPECT_EQ(value, 42);
}

struct Recorder : AddedTokenSink {
  std::vector<std::string> parts;  // Gaps as text, tokens as "#id".
  std::size_t stop_after = static_cast<std::size_t>(-1);
  void gap(std::string_view text) override { parts.emplace_back(text); }
  void token(std::int32_t id) override { parts.push_back("#" + std::to_string(id)); }
  bool stopped() const override { return parts.size() >= stop_after; }
};

AddedToken added(std::int32_t id, std::string content, bool normalized, bool lstrip = false,
                 bool rstrip = false, bool single_word = false) {
  AddedToken token;
  token.id = id;
  token.content = std::move(content);
  token.normalized = normalized;
  token.lstrip = lstrip;
  token.rstrip = rstrip;
  token.single_word = single_word;
  return token;
}

// Both passes, as the tokenizer runs them (with no normalizer in between).
struct BothPasses : Recorder {
  const AddedVocabulary* vocabulary = nullptr;
  bool raw = true;
  void gap(std::string_view text) override {
    if (!raw) return Recorder::gap(text);
    BothPasses normalized;
    normalized.raw = false;
    normalized.stop_after = stop_after - std::min(stop_after, parts.size());
    vocabulary->split(text, AddedVocabulary::Pass::Normalized, normalized);
    parts.insert(parts.end(), normalized.parts.begin(), normalized.parts.end());
  }
};

std::vector<std::string> split(const AddedVocabulary& vocabulary, std::string_view text,
                               std::size_t stop_after = static_cast<std::size_t>(-1)) {
  BothPasses recorder;
  recorder.vocabulary = &vocabulary;
  recorder.stop_after = stop_after;
  vocabulary.split(text, AddedVocabulary::Pass::Raw, recorder);
  return recorder.parts;
}

TEST(AddedVocabulary, SplitsAsHuggingFaceDoes) {
  using Parts = std::vector<std::string>;
  AddedVocabulary none;
  none.build({});
  EXPECT_EQ(split(none, "a b"), Parts({"a b"}));

  AddedVocabulary vocabulary;
  vocabulary.build({added(1, "<a>", false, true, false), added(2, "<ab>", false, false, true),
                    added(3, "xyz", true), added(4, "yz!", false),
                    added(5, "cat", false, false, false, true)});
  EXPECT_EQ(split(vocabulary, "x  <a>  y"), Parts({"x", "#1", "  y"}));   // lstrip takes the spaces before
  EXPECT_EQ(split(vocabulary, "x  <ab>  y"), Parts({"x  ", "#2", "y"}));  // rstrip the spaces after
  EXPECT_EQ(split(vocabulary, "xyz!"), Parts({"x", "#4"}));               // normalized false first
  EXPECT_EQ(split(vocabulary, "xyz"), Parts({"#3"}));
  EXPECT_EQ(split(vocabulary, "a cat."), Parts({"a ", "#5", "."}));  // single_word
  EXPECT_EQ(split(vocabulary, "cats"), Parts({"cats"}));
  EXPECT_EQ(split(vocabulary, "<a><a><a>", 2), Parts({"#1", "#1"}));  // the sink stops it
}

// ---- Vocabulary -------------------------------------------------------------------

TEST(Vocabulary, FindsByIdAndBytesAndCopiesSafely) {
  Vocabulary vocabulary;
  vocabulary.add(2, "ab", true);
  vocabulary.add(0, "a", true);
  vocabulary.add(7, "<s>", false);
  Vocabulary::Clash clash;
  ASSERT_TRUE(vocabulary.index(clash));
  EXPECT_EQ(vocabulary.size(), 3u);
  EXPECT_EQ(vocabulary.id_limit(), 8u);
  EXPECT_EQ(vocabulary.max_bytes(), 3u);
  const Vocabulary copy = vocabulary;  // No pointers into itself.
  vocabulary = Vocabulary{};
  EXPECT_EQ(copy.find("ab"), 2);
  EXPECT_EQ(copy.find("a"), 0);
  EXPECT_EQ(copy.find("<s>"), -1);  // Not findable by bytes.
  EXPECT_EQ(copy.find("b"), -1);
  std::string_view bytes;
  ASSERT_TRUE(copy.bytes(7, bytes));
  EXPECT_EQ(bytes, "<s>");
  EXPECT_FALSE(copy.bytes(1, bytes));
  EXPECT_FALSE(copy.has(3));
}

TEST(Vocabulary, NamesTheTokensThatClash) {
  Vocabulary by_id;
  by_id.add(4, "x", true);
  by_id.add(4, "y", false);
  Vocabulary::Clash clash;
  ASSERT_FALSE(by_id.index(clash));
  EXPECT_EQ(clash.id, 4);
  EXPECT_EQ(clash.first, "x");  // In the order they were added.
  EXPECT_EQ(clash.second, "y");
  Vocabulary by_bytes;
  by_bytes.add(1, "x", true);
  by_bytes.add(2, "x", true);
  ASSERT_FALSE(by_bytes.index(clash));
  EXPECT_EQ(clash.id, -1);
  EXPECT_EQ(clash.first, "x");
}

// ---- GPT-2's byte alphabet ------------------------------------------------------------

// decode_into() and byte_level::Decoder, the loader's fast decoders, against
// the definition: each character, read as UTF-8, is a character of the
// alphabet (byte_for_char), or the string is refused.
TEST(ByteLevel, DecodersAgreeWithTheDefinition) {
  const auto reference = [](std::string_view text, std::string& bytes) {
    bytes.clear();
    for (std::size_t pos = 0; pos < text.size();) {
      std::uint32_t code = 0;
      const std::size_t used = utf8::decode(text, pos, code);
      std::uint8_t byte = 0;
      if (used == 0 || !byte_level::byte_for_char(code, byte)) return false;
      bytes += static_cast<char>(byte);
      pos += used;
    }
    return true;
  };
  // Every character of the alphabet, its neighbours, and broken UTF-8.
  std::vector<std::string> characters;
  for (unsigned byte = 0; byte < 256; ++byte) {
    std::string c;
    utf8::append(c, byte_level::char_for_byte(static_cast<std::uint8_t>(byte)));
    characters.push_back(c);
  }
  for (const std::uint32_t code :
       {0x20u, 0x7Fu, 0xADu, 0x143u, 0x144u, 0x17Fu, 0x180u, 0x7FFu, 0x2581u, 0x1F600u}) {
    std::string c;
    utf8::append(c, code);
    characters.push_back(c);
  }
  for (const char* broken : {"\xC3", "\xC0\xA0", "\xC1\xBF", "\x80", "\xFF", "\xC4\x41", "\xE0\x80\xA0"})
    characters.emplace_back(broken);
  std::mt19937 random(12);
  byte_level::Decoder decoder;
  for (int round = 0; round < 20000; ++round) {
    std::string text;
    const int count = static_cast<int>(random() % 12);
    for (int i = 0; i < count; ++i) {
      // Mostly characters of the alphabet, as a vocabulary's keys are.
      const std::size_t pick = random() % 8 != 0 ? random() % 256 : random() % characters.size();
      text += characters[pick];
    }
    std::string expected;
    const bool valid = reference(text, expected);
    std::string into(text.size(), '\0');
    const std::size_t length = byte_level::decode_into(text, into.data());
    ASSERT_EQ(length != byte_level::kNotByteLevel, valid) << text;
    std::string_view viewed;
    ASSERT_EQ(decoder.decode(text, viewed), valid) << text;
    std::string decoded;
    ASSERT_EQ(byte_level::decode(text, decoded), valid) << text;
    if (!valid) continue;
    EXPECT_EQ(into.substr(0, length), expected);
    EXPECT_EQ(viewed, expected);
    EXPECT_EQ(decoded, expected);
  }
}

// ---- Display form ---------------------------------------------------------------------

TEST(Display, MarksAndEscapesRoundTrip) {
  EXPECT_EQ(display::from_bytes(" girl\n\t"), "\xC2\xB7girl\xE2\x86\xB5\xE2\x87\xA5");
  EXPECT_EQ(display::from_bytes("\xF0\x9F"), "<0xF0><0x9F>");
  EXPECT_EQ(display::from_bytes("\xC2\xB7"), "<0xC2><0xB7>");  // A literal mark is bytes.
  for (int byte = 0; byte < 256; ++byte) {
    const std::string one(1, static_cast<char>(byte));
    EXPECT_EQ(display::to_bytes(display::from_bytes(one)), one) << byte;
  }
  EXPECT_EQ(display::to_bytes("<0x41><0x4g>"), "A<0x4g>");
}

// A token spelled with a literal "<0xNN>" (byte_fallback's tokens, or one
// inside a longer token) must not read back as the byte NN.
TEST(Display, LiteralByteEscapesRoundTrip) {
  EXPECT_EQ(display::from_bytes("<0x41>"), "<0x3C>0x41>");
  for (const std::string token : {"<0x41>", "\xC2\xB7<0x41>", "a<0xC3>b", "<0x4g>", "<<0x0A>>", "<0x"}) {
    EXPECT_EQ(display::to_bytes(display::from_bytes(token)), token) << token;
  }
  EXPECT_EQ(display::from_bytes("<0x4g>"), "<0x4g>");  // not an escape: left as it is
}

}  // namespace
}  // namespace embeddings
