#include "embeddings/formats/json.h"

#include <gtest/gtest.h>

namespace {

using embeddings::json::parse;
using embeddings::json::Type;
using embeddings::json::Value;

Value parse_ok(const std::string& text) {
  Value value;
  std::string error;
  EXPECT_TRUE(parse(text, value, error)) << text << ": " << error;
  return value;
}

std::string parse_error(const std::string& text) {
  Value value;
  std::string error;
  EXPECT_FALSE(parse(text, value, error)) << text;
  return error;
}

TEST(Json, ParsesNestedDocument) {
  const Value v = parse_ok(R"( {"a": [1, -2.5e3, true, false, null], "b": {"c": "d"}} )");
  ASSERT_TRUE(v.is_object());
  const Value* a = v.find("a");
  ASSERT_NE(a, nullptr);
  ASSERT_EQ(a->items.size(), 5u);
  double d = 0;
  EXPECT_TRUE(a->items[1].as_double(d));
  EXPECT_EQ(d, -2500.0);
  EXPECT_TRUE(a->items[2].boolean);
  EXPECT_EQ(a->items[4].type, Type::Null);
  EXPECT_EQ(v.find("b")->find("c")->text, "d");
  EXPECT_EQ(v.find("missing"), nullptr);
}

TEST(Json, ReadsLargeIntegersExactly) {
  const Value v = parse_ok("[18446744073709551615, 18446744073709551616, 9007199254740993, -5, 1.0]");
  std::uint64_t u = 0;
  EXPECT_TRUE(v.items[0].as_uint64(u));
  EXPECT_EQ(u, 18446744073709551615ull);
  EXPECT_FALSE(v.items[1].as_uint64(u));
  EXPECT_TRUE(v.items[2].as_uint64(u));
  EXPECT_EQ(u, 9007199254740993ull);
  std::int64_t i = 0;
  EXPECT_FALSE(v.items[3].as_uint64(u));
  EXPECT_TRUE(v.items[3].as_int64(i));
  EXPECT_EQ(i, -5);
  EXPECT_FALSE(v.items[4].as_uint64(u));
}

TEST(Json, DecodesEscapesAndSurrogatePairs) {
  const Value v = parse_ok(R"(["\u0120\n\t\"\\\/", "\ud83d\ude00", "caf\u00e9"])");
  EXPECT_EQ(v.items[0].text, "\xC4\xA0\n\t\"\\/");
  EXPECT_EQ(v.items[1].text, "\xF0\x9F\x98\x80");
  EXPECT_EQ(v.items[2].text, "caf\xC3\xA9");
}

TEST(Json, RejectsMalformedInputWithAPosition) {
  for (const char* bad : {"",
                          "{",
                          "[1,]",
                          "{\"a\" 1}",
                          "{\"a\":1,}",
                          "01",
                          "1.",
                          "-",
                          "tru",
                          "\"abc",
                          "\"\\x\"",
                          "\"\\ud800\"",
                          "\"\\udc00\"",
                          "[1] 2",
                          "{\"a\":1,\"a\":2}",
                          "\"\x01\"",
                          "\"\xff\"",
                          "\"\xc0\x80\"",
                          "NaN",
                          "[Infinity]"}) {
    const std::string error = parse_error(bad);
    EXPECT_NE(error.find("at byte"), std::string::npos) << bad << " -> " << error;
  }
}

// A GPT-2-sized vocabulary: duplicate keys are still found, wherever they
// are, without comparing every key with every other (which took seconds).
TEST(Json, FindsDuplicateKeysInLargeObjects) {
  std::string text = "{";
  for (int i = 0; i < 60000; ++i) text += "\"token" + std::to_string(i) + "\": " + std::to_string(i) + ",";
  const Value v = parse_ok(text + "\"last\": 0}");
  ASSERT_EQ(v.members.size(), 60001u);
  EXPECT_EQ(v.members[59999].first, "token59999");
  EXPECT_NE(parse_error(text + "\"token0\": 1}").find("duplicate key \"token0\""), std::string::npos);
  EXPECT_NE(parse_error(text + "\"token59999\": 1}").find("duplicate key \"token59999\""), std::string::npos);
  // Keys are compared after unescaping: "\u0041" is "A".
  EXPECT_NE(parse_error(R"({"A": 1, "b": 2, "\u0041": 3})").find("duplicate key \"A\""), std::string::npos);
}

TEST(Json, LimitsNestingDepth) {
  std::string deep(100, '[');
  deep += std::string(100, ']');
  EXPECT_NE(parse_error(deep).find("nesting"), std::string::npos);
  std::string ok(60, '[');
  ok += std::string(60, ']');
  parse_ok(ok);
}

TEST(Json, QuotesStrings) {
  std::string out;
  embeddings::json::append_quoted(out, "a\"b\\c\n\x01\xC4\xA0");
  EXPECT_EQ(out, "\"a\\\"b\\\\c\\n\\u0001\xC4\xA0\"");
  const Value v = parse_ok(out);
  EXPECT_EQ(v.text, "a\"b\\c\n\x01\xC4\xA0");
}

}  // namespace
