// Reading's members: the common kinds of members, read with messages that
// name the field, and one component of each stage through the registry the
// build links (registry_full.cpp or registry_chapter.cpp).
#include "tokenizer_json/reading.h"

#include <algorithm>
#include <utility>

#include "embeddings/common/utf8.h"
#include "segments.h"

namespace embeddings {
namespace tokenizer_json {

std::string describe(const json::Value& value) {
  if (value.is_number()) {
    const bool cut = value.text.size() > 40;
    return "the number " + value.text.substr(0, 40) + (cut ? "..." : "");
  }
  if (value.is_string()) return "the string " + quote(value.text);
  if (value.is_bool()) return value.boolean ? "true" : "false";
  return json::type_name(value.type);
}

std::string describe(const json::Value* value) { return value == nullptr ? "nothing" : describe(*value); }

bool has_type(const json::Value& component, std::string_view type) {
  const json::Value* member = component.is_object() ? component.find("type") : nullptr;
  return member != nullptr && member->is_string() && member->text == type;
}

bool Reading::read_bool(const json::Value& object, const char* key, const std::string& where, bool& value) {
  const json::Value* member = object.find(key);
  if (is_null_or_absent(member)) return true;
  if (!member->is_bool())
    return fail(where + "." + key + " must be true or false, found " + describe(*member));
  value = member->boolean;
  return true;
}

bool Reading::read_string(const json::Value& object, const char* key, const std::string& where,
                          std::string& value, bool one_character) {
  const json::Value* member = object.find(key);
  if (member == nullptr || !member->is_string())
    return fail(where + "." + key + " must be a string, found " + describe(member));
  if (one_character) {
    std::uint32_t code = 0;
    const std::size_t used = utf8::decode(member->text, 0, code);
    if (used == 0 || used != member->text.size())
      return fail(where + "." + key + " must be one character, found " + describe(*member));
  }
  value = member->text;
  return true;
}

bool Reading::read_count(const json::Value& object, const char* key, const std::string& where,
                         std::size_t& value) {
  const json::Value* member = object.find(key);
  std::int64_t number = -1;
  if (member == nullptr || !member->as_int64(number) || number < 0 || number > (std::int64_t{1} << 30))
    return fail(where + "." + key + " must be a count from 0 to 2^30, found " + describe(member));
  value = static_cast<std::size_t>(number);
  return true;
}

bool Reading::read_id(const json::Value* value, const std::string& where, std::int32_t& id) {
  std::int64_t number = -1;
  if (value == nullptr || !value->as_int64(number) || number < 0 || number > kMaxId)
    return fail(where + " must be an integer from 0 to " + std::to_string(kMaxId) + ", found " +
                describe(value));
  id = static_cast<std::int32_t>(number);
  return true;
}

bool Reading::read_pattern(const json::Value& component, const std::string& where,
                           std::shared_ptr<const regex::Regex>& out) {
  const json::Value* pattern = component.find("pattern");
  const json::Value* regex_text =
      pattern != nullptr && pattern->is_object() ? pattern->find("Regex") : nullptr;
  const json::Value* string_text =
      pattern != nullptr && pattern->is_object() ? pattern->find("String") : nullptr;
  std::string source;
  if (regex_text != nullptr && regex_text->is_string() && string_text == nullptr) {
    source = regex_text->text;
  } else if (string_text != nullptr && string_text->is_string() && regex_text == nullptr) {
    // As tokenizers does: the string becomes a regex matching it literally
    // (so "" matches the empty string at every character).
    for (const char c : string_text->text) {
      const bool plain = static_cast<unsigned char>(c) >= 0x80 || (c >= '0' && c <= '9') ||
                         ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') || c == ' ' || c == '\n' || c == '\r' ||
                         c == '\t';
      if (!plain) source += '\\';
      source += c;
    }
  } else {
    return fail(where + ".pattern must be {\"Regex\": \"...\"} or {\"String\": \"...\"}, found " +
                describe(pattern));
  }
  auto compiled = std::make_shared<regex::Regex>();
  std::string problem;
  if (!regex::Regex::compile(source, *compiled, problem, true, memory_left)) {
    return fail(where + ".pattern." + (regex_text != nullptr ? "Regex " : "String ") +
                quote(regex_text != nullptr ? regex_text->text : string_text->text) + ": " + problem);
  }
  memory_left -= std::min(memory_left, compiled->program_bytes());
  out = std::move(compiled);
  return true;
}

namespace {

// The message for a component whose "type" is not in a stage's `count`
// kinds, named by name(i).
bool unknown_kind(Reading& reading, const json::Value& value, const std::string& where, std::size_t count,
                  const char* (*name)(std::size_t)) {
  const json::Value* type = value.is_object() ? value.find("type") : nullptr;
  const std::string found =
      type != nullptr && type->is_string() ? "type " + quote(type->text) : describe(value);
  if (!registry().complete)
    return reading.fail(where + ": " + found + " is left out of this build (it is in embeddings-full.wasm)");
  std::string names;
  for (std::size_t i = 0; i < count; ++i)
    names += std::string(i == 0 ? "" : i + 1 == count ? " or " : ", ") + name(i);
  return reading.fail(where + " must be null or one of " + names + ", found " + found + " (not supported)");
}

// The component at `value` by its "type", through `kinds`.
template <typename Read, typename List>
bool read_kind(Reading& reading, const json::Value& value, const std::string& where, const Kind<Read>* kinds,
               std::size_t count, List& out, const char* (*name)(std::size_t)) {
  const json::Value* type = value.is_object() ? value.find("type") : nullptr;
  if (type != nullptr && type->is_string()) {
    for (std::size_t i = 0; i < count; ++i) {
      if (type->text == kinds[i].type) return kinds[i].read(value, where, reading, out);
    }
  }
  return unknown_kind(reading, value, where, count, name);
}

}  // namespace

bool Reading::read_normalizer(const json::Value& value, const std::string& where, Normalizers& out) {
  const Registry& r = registry();
  return read_kind(*this, value, where, r.normalizers, r.normalizer_count, out,
                   [](std::size_t i) { return registry().normalizers[i].type; });
}

bool Reading::read_pre_tokenizer(const json::Value& value, const std::string& where, PreTokenizers& out) {
  const Registry& r = registry();
  return read_kind(*this, value, where, r.pre_tokenizers, r.pre_tokenizer_count, out,
                   [](std::size_t i) { return registry().pre_tokenizers[i].type; });
}

bool Reading::read_decoder(const json::Value& value, const std::string& where, Decoders& out) {
  const Registry& r = registry();
  return read_kind(*this, value, where, r.decoders, r.decoder_count, out,
                   [](std::size_t i) { return registry().decoders[i].type; });
}

bool Reading::read_post_processor(const json::Value& value, const std::string& where, PostProcessors& out) {
  const Registry& r = registry();
  return read_kind(*this, value, where, r.post_processors, r.post_processor_count, out,
                   [](std::size_t i) { return registry().post_processors[i].type; });
}

bool Reading::read_model(const json::Value& model, std::unique_ptr<ModelBuilder>& out) {
  const Registry& r = registry();
  const json::Value* type = model.find("type");
  if (type != nullptr && type->is_string()) {
    for (std::size_t i = 0; i < r.model_count; ++i) {
      if (type->text == r.models[i].type) return r.models[i].read(model, *this, out);
    }
  }
  if (!r.complete && type != nullptr && type->is_string())
    return fail("model: " + type->text + " is left out of this build (it is in embeddings-full.wasm)");
  std::string names;
  for (std::size_t i = 0; i < r.model_count; ++i)
    names += std::string(i == 0                   ? ""
                         : i + 1 == r.model_count ? " or "
                                                  : ", ") +
             "\"" + r.models[i].type + "\"";
  return fail("model.type must be " + names + ", found " + describe(type) + " (not supported)");
}

}  // namespace tokenizer_json

namespace {

template <typename List>
bool read_stage(std::string_view json_text, const char* stage, List& out, std::string& error,
                bool (tokenizer_json::Reading::*read)(const json::Value&, const std::string&, List&)) {
  json::Value value;
  if (!json::parse(json_text, value, error)) return false;
  tokenizer_json::Reading reading(error);
  return (reading.*read)(value, stage, out);
}

}  // namespace

bool read_normalizers(std::string_view json_text, Normalizers& out, std::string& error) {
  return read_stage(json_text, "normalizer", out, error, &tokenizer_json::Reading::read_normalizer);
}
bool read_pre_tokenizers(std::string_view json_text, PreTokenizers& out, std::string& error) {
  return read_stage(json_text, "pre_tokenizer", out, error, &tokenizer_json::Reading::read_pre_tokenizer);
}
bool read_decoders(std::string_view json_text, Decoders& out, std::string& error) {
  return read_stage(json_text, "decoder", out, error, &tokenizer_json::Reading::read_decoder);
}
bool read_post_processors(std::string_view json_text, PostProcessors& out, std::string& error) {
  return read_stage(json_text, "post_processor", out, error, &tokenizer_json::Reading::read_post_processor);
}

bool read_behavior(const json::Value& component, const std::string& where, tokenizer_json::Reading& reading,
                   Behavior& out) {
  const json::Value* behavior = component.find("behavior");
  static constexpr std::pair<const char*, Behavior> kBehaviors[] = {
      {"Removed", Behavior::Removed},
      {"Isolated", Behavior::Isolated},
      {"MergedWithPrevious", Behavior::MergedWithPrevious},
      {"MergedWithNext", Behavior::MergedWithNext},
      {"Contiguous", Behavior::Contiguous},
  };
  for (const auto& [name, value] : kBehaviors) {
    if (behavior != nullptr && behavior->is_string() && behavior->text == name) {
      out = value;
      return true;
    }
  }
  return reading.fail(where + ".behavior must be Removed, Isolated, MergedWithPrevious, MergedWithNext or " +
                      "Contiguous, found " + tokenizer_json::describe(behavior));
}

}  // namespace embeddings
