// The text session the WebAssembly bindings hand to JavaScript, driven here
// the way the JavaScript layer drives it: a tokenizer.json into its buffer,
// text after text encoded, ids decoded, and the memory budget.
#include "embeddings/session/text_session.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "session/session_testing.h"

namespace {

using embeddings::MemoryBudget;
using embeddings::TextSession;
using namespace embeddings::testing;

class TextSessionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string json = read_file(std::string(EMBEDDINGS_SOURCE_DIR) + "/model/tokenizer.json");
    ASSERT_FALSE(json.empty());
    std::memcpy(session.input_buffer(json.size()), json.data(), json.size());
    ASSERT_TRUE(session.load()) << session.error();
  }
  std::vector<std::int32_t> encode(const std::string& text) {
    std::memcpy(session.input_buffer(text.size()), text.data(), text.size());
    EXPECT_TRUE(session.encode()) << session.error();
    return {session.ids(), session.ids() + session.id_count()};
  }
  std::string decode(const std::vector<std::int32_t>& ids) {
    std::memcpy(session.ids_input(ids.size()), ids.data(), ids.size() * sizeof(std::int32_t));
    EXPECT_TRUE(session.decode()) << session.error();
    return std::string(session.decoded());
  }
  TextSession session;
};

TEST_F(TextSessionTest, EncodesAndDecodesExactly) {
  const std::string text =
      "\xEF\xBB\xBF"
      "Lily saw a big dog in the park.";  // U+FEFF first, over 16 bytes
  const auto ids = encode(text);
  EXPECT_EQ(ids, session.tokenizer().encode(text));
  EXPECT_EQ(decode(ids), text);
  // The same, where a caller across a slow boundary reads it.
  EXPECT_EQ(session.output_address()[0], reinterpret_cast<std::uintptr_t>(session.decoded().data()));
  EXPECT_EQ(session.output_address()[1], text.size());
  session.release();
  EXPECT_EQ(session.output_address()[1], 0u);
  EXPECT_EQ(session.id_count(), 0u);
  EXPECT_TRUE(session.decoded().empty());
}

TEST_F(TextSessionTest, EncodeAtMostSaysWhenTheTextIsLonger) {
  const std::string text = "Lily saw Max. Max saw Lily.";
  const std::size_t tokens = encode(text).size();
  std::memcpy(session.input_buffer(text.size()), text.data(), text.size());
  ASSERT_TRUE(session.encode_at_most(tokens - 1));
  EXPECT_TRUE(session.over_limit());
  EXPECT_EQ(session.output_address()[2], 1u);
  std::memcpy(session.input_buffer(text.size()), text.data(), text.size());
  ASSERT_TRUE(session.encode_at_most(tokens));
  EXPECT_FALSE(session.over_limit());
  EXPECT_EQ(session.id_count(), tokens);
  const std::uintptr_t* output = session.output_address();
  EXPECT_EQ(output[0], reinterpret_cast<std::uintptr_t>(session.ids()));
  EXPECT_EQ(output[1], tokens);
  EXPECT_EQ(output[2], 0u);
}

// The kept text buffer (what JavaScript writes short texts into): the ids
// of encode(), the same buffer from call to call while it is large enough,
// a larger one when a text needs it, and a length past it refused.
TEST_F(TextSessionTest, EncodesTextAfterTextThroughItsKeptBuffer) {
  char* const buffer = session.text_buffer(64);
  ASSERT_NE(buffer, nullptr);
  for (const std::string text : {"Lily saw a big dog.", "Max", "", "The park was green and sunny today!"}) {
    const auto expected = encode(text);
    ASSERT_EQ(session.text_buffer(text.size()), buffer);
    std::memcpy(buffer, text.data(), text.size());
    ASSERT_TRUE(session.encode_text(text.size())) << session.error();
    EXPECT_EQ(std::vector<std::int32_t>(session.ids(), session.ids() + session.id_count()), expected) << text;
    ASSERT_TRUE(session.encode_text_at_most(text.size(), expected.size()));
    EXPECT_FALSE(session.over_limit());
    if (!expected.empty()) {
      ASSERT_TRUE(session.encode_text_at_most(text.size(), expected.size() - 1));
      EXPECT_TRUE(session.over_limit());
    }
    session.release();
  }
  EXPECT_FALSE(session.encode_text(65));
  EXPECT_EQ(session.error(), "encode_text: 65 bytes, more than the buffer holds");
  char* const larger = session.text_buffer(1000);
  ASSERT_NE(larger, nullptr);
  const std::string text(999, 'a');
  const auto expected = encode(text);
  std::memcpy(larger, text.data(), text.size());
  ASSERT_TRUE(session.encode_text(text.size()));
  EXPECT_EQ(std::vector<std::int32_t>(session.ids(), session.ids() + session.id_count()), expected);
}

// The load in steps (what the page runs, a step per task): the same
// tokenizer as load(), step by step; a file refused at a late step with
// load()'s message, the tokenizer before kept; an encode meanwhile refused
// rather than freeing the file under the load; a new file dropping the load.
TEST_F(TextSessionTest, LoadsInStepsAsLoadDoes) {
  const std::string json = read_file(std::string(EMBEDDINGS_SOURCE_DIR) + "/model/tokenizer.json");
  TextSession stepped;
  std::memcpy(stepped.input_buffer(json.size()), json.data(), json.size());
  int steps = 0, step = 0;
  while ((step = stepped.load_step()) == 0) {
    ++steps;
    EXPECT_FALSE(stepped.loaded());
  }
  ASSERT_EQ(step, 1) << stepped.error();
  EXPECT_EQ(steps + 1, 5);
  EXPECT_TRUE(stepped.loaded());
  EXPECT_EQ(stepped.vocabulary_json(), session.vocabulary_json());
  const std::string text = "Lily and Max played with a red ball in the sunny park.";
  std::memcpy(stepped.input_buffer(text.size()), text.data(), text.size());
  ASSERT_TRUE(stepped.encode()) << stepped.error();
  EXPECT_EQ(std::vector<std::int32_t>(stepped.ids(), stepped.ids() + stepped.id_count()), encode(text));

  // A merge of two tokens the vocabulary lacks: refused at the merges' step.
  std::string bad = json;
  const std::size_t merges = bad.find("\"merges\": [");
  ASSERT_NE(merges, std::string::npos);
  bad.insert(merges + std::strlen("\"merges\": ["), "\"qqqz zzzq\",");
  TextSession whole;
  std::memcpy(whole.input_buffer(bad.size()), bad.data(), bad.size());
  ASSERT_FALSE(whole.load());
  std::memcpy(stepped.input_buffer(bad.size()), bad.data(), bad.size());
  steps = 0;
  while ((step = stepped.load_step()) == 0) ++steps;
  EXPECT_EQ(step, -1);
  EXPECT_EQ(steps, 3) << "refused at the merges, the fourth step";
  EXPECT_EQ(stepped.error(), whole.error());
  EXPECT_TRUE(stepped.loaded()) << "the tokenizer before stays";

  // An encode while a load is under way is refused, and the load goes on.
  std::memcpy(stepped.input_buffer(json.size()), json.data(), json.size());
  ASSERT_EQ(stepped.load_step(), 0);
  EXPECT_FALSE(stepped.encode_text(0));
  EXPECT_EQ(stepped.error(), "a tokenizer is being loaded (load_step): encode once its load is done");
  while ((step = stepped.load_step()) == 0) {
  }
  EXPECT_EQ(step, 1) << stepped.error();
  // A new file in the buffer drops the load under way; the next step starts on it.
  std::memcpy(stepped.input_buffer(json.size()), json.data(), json.size());
  ASSERT_EQ(stepped.load_step(), 0);
  std::memcpy(stepped.input_buffer(bad.size()), bad.data(), bad.size());
  while ((step = stepped.load_step()) == 0) {
  }
  EXPECT_EQ(step, -1);
  EXPECT_EQ(stepped.error(), whole.error());
}

TEST(TextSession, RefusesWithoutATokenizerOrMemory) {
  TextSession session;
  std::memcpy(session.input_buffer(3), "abc", 3);
  EXPECT_FALSE(session.encode());
  EXPECT_EQ(session.error(), "no tokenizer is loaded");
  EXPECT_FALSE(session.decode());
  EXPECT_EQ(session.error(), "no tokenizer is loaded");
  fixed_room = 100;
  TextSession starved(MemoryBudget(fixed_budget, fixed_budget));
  const std::string json = read_file(std::string(EMBEDDINGS_SOURCE_DIR) + "/model/tokenizer.json");
  std::memcpy(starved.input_buffer(json.size()), json.data(), json.size());
  EXPECT_FALSE(starved.load());
  EXPECT_NE(starved.error().find("more than the 100 bytes available"), std::string::npos) << starved.error();
  EXPECT_FALSE(starved.loaded());
}

}  // namespace
