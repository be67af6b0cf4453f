// tokenizers' TemplateProcessing: `single` (one text) and `pair` (two)
// list the pieces of the result in order: {"Sequence": {"id": "A" or "B"}}
// is a text's ids, {"SpecialToken": {"id": name}} the ids that
// `special_tokens[name].ids` lists, added only with add_special_tokens
// (type ids are not reported here). A template naming a special token that
// is not listed, and a single template using $B, are refused when the file
// is read (the Rust library panics when it meets them).
#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "tokenizer_json/reading.h"

namespace embeddings::post_processors {
namespace {

using tokenizer_json::describe;

struct Piece {
  int sequence = -1;              // 0 for $A, 1 for $B; -1 for a special token...
  std::vector<std::int32_t> ids;  // ...and its ids.
};
using Template = std::vector<Piece>;

class TemplateProcessing : public PostProcessor {
 public:
  TemplateProcessing(Template single, Template pair) : single_(std::move(single)), pair_(std::move(pair)) {}

  bool process(Encodings& encodings, bool add_special_tokens, std::string& error) const override {
    if (encodings.size() != 1 && encodings.size() != 2) {
      error = "post_processor: TemplateProcessing was given " + std::to_string(encodings.size()) +
              " sequences by the post-processor before it (the Rust library panics here)";
      return false;
    }
    const Template& pieces = encodings.size() == 1 ? single_ : pair_;
    Encodings out;
    for (const Piece& piece : pieces) {
      if (piece.sequence >= 0) {
        out.push_back(encodings[static_cast<std::size_t>(piece.sequence)]);
      } else if (add_special_tokens) {
        out.push_back(piece.ids);
      }
    }
    encodings.swap(out);
    return true;
  }
  std::size_t added_ids() const override { return std::max(count(single_), count(pair_)); }
  bool keeps_ids() const override { return uses(single_, 0) && uses(pair_, 0) && uses(pair_, 1); }
  std::vector<std::int32_t> special_ids() const override {
    std::vector<std::int32_t> ids;
    for (const Template* pieces : {&single_, &pair_}) {
      for (const Piece& piece : *pieces) ids.insert(ids.end(), piece.ids.begin(), piece.ids.end());
    }
    return ids;
  }

 private:
  static bool uses(const Template& pieces, int sequence) {
    return std::any_of(pieces.begin(), pieces.end(),
                       [&](const Piece& piece) { return piece.sequence == sequence; });
  }
  static std::size_t count(const Template& pieces) {
    std::size_t ids = 0;
    for (const Piece& piece : pieces) ids += piece.ids.size();
    return ids;
  }
  const Template single_, pair_;
};

// special_tokens: name -> {"id": name, "ids": [...], "tokens": [...]}; only the ids matter here.
bool read_special_tokens(const json::Value& value, const std::string& where, tokenizer_json::Reading& reading,
                         std::vector<std::pair<std::string, std::vector<std::int32_t>>>& out) {
  const json::Value* tokens = value.find("special_tokens");
  if (tokens == nullptr || !tokens->is_object())
    return reading.fail(where + ".special_tokens must be an object, found " + describe(tokens));
  for (const auto& [name, token] : tokens->members) {
    const std::string at = where + ".special_tokens[" + quote(name) + "]";
    const json::Value* ids = token.is_object() ? token.find("ids") : nullptr;
    if (ids == nullptr || !ids->is_array())
      return reading.fail(at + ".ids must be an array, found " + describe(ids));
    std::vector<std::int32_t> list;
    for (std::size_t i = 0; i < ids->items.size(); ++i) {
      std::int32_t id = 0;
      if (!reading.read_id(&ids->items[i], at + ".ids[" + std::to_string(i) + "]", id)) return false;
      list.push_back(id);
    }
    out.emplace_back(name, std::move(list));
  }
  return true;
}

bool read_template(const json::Value& value, const char* key, const std::string& where,
                   tokenizer_json::Reading& reading,
                   const std::vector<std::pair<std::string, std::vector<std::int32_t>>>& special,
                   Template& out) {
  const json::Value* pieces = value.find(key);
  const std::string at = where + "." + key;
  if (pieces == nullptr || !pieces->is_array())
    return reading.fail(at + " must be an array, found " + describe(pieces));
  for (std::size_t i = 0; i < pieces->items.size(); ++i) {
    const json::Value& item = pieces->items[i];
    const std::string item_at = at + "[" + std::to_string(i) + "]";
    const json::Value* sequence = item.is_object() ? item.find("Sequence") : nullptr;
    const json::Value* token = item.is_object() ? item.find("SpecialToken") : nullptr;
    const json::Value* id = sequence != nullptr && sequence->is_object() ? sequence->find("id")
                            : token != nullptr && token->is_object()     ? token->find("id")
                                                                         : nullptr;
    if ((sequence == nullptr) == (token == nullptr) || id == nullptr || !id->is_string()) {
      return reading.fail(item_at +
                          " must be {\"Sequence\": {\"id\": \"A\" or \"B\", ...}} or {\"SpecialToken\": " +
                          "{\"id\": ..., ...}}, found " + describe(item));
    }
    Piece piece;
    if (sequence != nullptr) {
      if (id->text != "A" && id->text != "B")
        return reading.fail(item_at + ".Sequence.id must be \"A\" or \"B\", found " + describe(*id));
      piece.sequence = id->text == "A" ? 0 : 1;
      if (piece.sequence == 1 && key[0] == 's')
        return reading.fail(item_at + ": the single template uses $B (the Rust library panics on it)");
    } else {
      const auto found =
          std::find_if(special.begin(), special.end(), [&](const auto& s) { return s.first == id->text; });
      if (found == special.end()) {
        return reading.fail(item_at + ": the special token " + quote(id->text) +
                            " is not in special_tokens (the Rust library panics on it)");
      }
      piece.ids = found->second;
    }
    out.push_back(std::move(piece));
  }
  return true;
}

}  // namespace

bool read_template(const json::Value& value, const std::string& where, tokenizer_json::Reading& reading,
                   PostProcessors& out) {
  std::vector<std::pair<std::string, std::vector<std::int32_t>>> special;
  Template single, pair;
  if (!read_special_tokens(value, where, reading, special) ||
      !read_template(value, "single", where, reading, special, single) ||
      !read_template(value, "pair", where, reading, special, pair)) {
    return false;
  }
  out.push_back(std::make_shared<TemplateProcessing>(std::move(single), std::move(pair)));
  return true;
}

}  // namespace embeddings::post_processors
