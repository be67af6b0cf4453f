// The JSON pull reader the tokenizer.json loader walks its file with:
// members and items without a tree, offsets, the same refusals as
// json::parse, and copy-free string reads that agree with copies.
#include "embeddings/formats/json_reader.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "embeddings/formats/json.h"

namespace embeddings {
namespace {

TEST(JsonReader, WalksMembersAndItemsWithoutATree) {
  const std::string text = R"( {"a": [1, "two", {"x": null}], "b": {"c": true}, "d": -1.5e3} )";
  json::Reader reader(text);
  std::string key, value;
  std::vector<std::string> keys;
  ASSERT_TRUE(reader.begin_object());
  while (reader.next_member(key)) {
    keys.push_back(key);
    if (key == "a") {
      ASSERT_TRUE(reader.begin_array());
      int items = 0;
      while (reader.next_item()) {
        ++items;
        ASSERT_TRUE(reader.skip_value());
      }
      EXPECT_EQ(items, 3);
    } else if (key == "d") {
      std::string_view lexeme;
      ASSERT_TRUE(reader.read_number(lexeme));
      EXPECT_EQ(lexeme, "-1.5e3");
    } else {
      json::Value tree;
      ASSERT_TRUE(reader.read_value(tree));
      EXPECT_TRUE(tree.find("c")->boolean);
    }
  }
  EXPECT_FALSE(reader.failed()) << reader.error();
  EXPECT_TRUE(reader.end_document());
  EXPECT_EQ(keys, std::vector<std::string>({"a", "b", "d"}));
}

TEST(JsonReader, ReadsFromAnOffsetAndReportsWholeFileOffsets) {
  const std::string text = R"({"skip": 1, "here": ["x", "y"]})";
  const std::size_t at = text.find('[');
  json::Reader reader(text, at);
  std::string item;
  ASSERT_TRUE(reader.begin_array());
  ASSERT_TRUE(reader.next_item());
  ASSERT_TRUE(reader.read_string(item));
  EXPECT_EQ(item, "x");
  const std::string bad = R"({"here": [1, 2,]})";
  json::Reader broken(bad, bad.find('['));
  ASSERT_TRUE(broken.skip_value() == false);
  EXPECT_EQ(broken.error(), "unexpected character at byte 15");
}

TEST(JsonReader, RefusesWhatParseRefuses) {
  for (const char* bad : {"[1,]", "{\"a\" 1}", "[\"\\x\"]", "{\"a\": 1,}", "[01]", "[1 2]", "[\"\xFF\"]"}) {
    json::Reader reader(bad);
    const bool skipped = reader.skip_value() && reader.end_document();
    json::Value tree;
    std::string error;
    EXPECT_FALSE(json::parse(bad, tree, error)) << bad;
    EXPECT_FALSE(skipped) << bad;
    EXPECT_EQ(reader.error(), error) << bad;
  }
  // Walking by hand refuses a trailing comma too.
  json::Reader reader("[1,]");
  ASSERT_TRUE(reader.begin_array());
  ASSERT_TRUE(reader.next_item());
  ASSERT_TRUE(reader.skip_value());
  EXPECT_TRUE(reader.next_item());    // After the comma an item must follow...
  EXPECT_FALSE(reader.skip_value());  // ...and "]" is not one.
}

// read_string(view, storage) and next_member(view, storage), the loader's
// copy-free reads, against read_string(std::string&): the same strings, the
// same errors at the same offsets; a string without escapes is viewed in
// the input, one with escapes in the storage.
TEST(JsonReader, ViewsOfStringsAgreeWithCopies) {
  std::mt19937 random(11);
  const std::vector<std::string> parts = {
      "a",    "Ġthe", "\\n", "\\\"", "\\u00e9", "\\ud83d\\ude00", "é",      "\xF0\x9F\x98\x80",
      "\xFF", "\xC3", " ",   "\\x",  "\\u12",   "\x01",           "\\ud800"};
  for (int round = 0; round < 3000; ++round) {
    std::string body;
    const int count = static_cast<int>(random() % 5);
    for (int i = 0; i < count; ++i) body += parts[random() % parts.size()];
    const bool closed = random() % 8 != 0;
    const std::string text = "[\"" + body + (closed ? "\"]" : "");
    json::Reader copying(text);
    json::Reader viewing(text);
    ASSERT_TRUE(copying.begin_array() && copying.next_item());
    ASSERT_TRUE(viewing.begin_array() && viewing.next_item());
    std::string copy, storage;
    std::string_view view;
    const bool copied = copying.read_string(copy);
    const bool viewed = viewing.read_string(view, storage);
    ASSERT_EQ(copied, viewed) << text;
    EXPECT_EQ(copying.error(), viewing.error()) << text;
    EXPECT_EQ(copying.offset(), viewing.offset()) << text;
    if (!copied) continue;
    EXPECT_EQ(copy, view) << text;
    const bool in_input =
        view.data() >= text.data() && view.data() + view.size() <= text.data() + text.size();
    EXPECT_EQ(in_input, body.find('\\') == std::string::npos) << text;
  }
  // Keys: the same, followed by the colon.
  const std::string object = R"({"plain": 1, "esc\u0061ped": 2})";
  json::Reader reader(object);
  std::string storage;
  std::string_view key;
  std::vector<std::string> keys;
  ASSERT_TRUE(reader.begin_object());
  while (reader.next_member(key, storage)) {
    keys.emplace_back(key);
    ASSERT_TRUE(reader.skip_value());
  }
  EXPECT_FALSE(reader.failed()) << reader.error();
  EXPECT_EQ(keys, std::vector<std::string>({"plain", "escaped"}));
}

}  // namespace
}  // namespace embeddings
