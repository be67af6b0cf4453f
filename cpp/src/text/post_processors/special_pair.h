// What BertProcessing and RobertaProcessing share: a `cls` and a `sep`
// token, each ["text", id], put around the texts. Internal to the library.
#pragma once

#include <memory>

#include "tokenizer_json/reading.h"

namespace embeddings::post_processors {

class SpecialPair : public PostProcessor {
 public:
  SpecialPair(std::int32_t cls, std::int32_t sep, bool sep_before_others)
      : cls_(cls), sep_(sep), sep_before_others_(sep_before_others) {}

  bool process(Encodings& encodings, bool add_special_tokens, std::string&) const override {
    if (!add_special_tokens) return true;
    for (std::size_t i = 0; i < encodings.size(); ++i) {
      std::vector<std::int32_t>& ids = encodings[i];
      if (i == 0) {
        ids.insert(ids.begin(), cls_);
      } else if (sep_before_others_) {
        ids.insert(ids.begin(), sep_);
      }
      ids.push_back(sep_);
    }
    return true;
  }
  std::size_t added_ids() const override { return sep_before_others_ ? 4 : 3; }
  std::vector<std::int32_t> special_ids() const override { return {cls_, sep_}; }

 private:
  const std::int32_t cls_, sep_;
  const bool sep_before_others_;  // RobertaProcessing's </s> B </s>.
};

// A ["text", id] member's id.
inline bool read_token_pair(const json::Value& value, const char* key, const std::string& where,
                            tokenizer_json::Reading& reading, std::int32_t& id) {
  const json::Value* pair = value.find(key);
  if (pair == nullptr || !pair->is_array() || pair->items.size() != 2 || !pair->items[0].is_string()) {
    return reading.fail(where + "." + key + " must be a [\"token\", id] pair, found " +
                        tokenizer_json::describe(pair));
  }
  return reading.read_id(&pair->items[1], where + "." + key + "[1]", id);
}

inline bool read_special_pair(const json::Value& value, const std::string& where,
                              tokenizer_json::Reading& reading, bool sep_before_others, PostProcessors& out) {
  std::int32_t cls = 0, sep = 0;
  if (!read_token_pair(value, "cls", where, reading, cls) ||
      !read_token_pair(value, "sep", where, reading, sep))
    return false;
  out.push_back(std::make_shared<SpecialPair>(cls, sep, sep_before_others));
  return true;
}

}  // namespace embeddings::post_processors
