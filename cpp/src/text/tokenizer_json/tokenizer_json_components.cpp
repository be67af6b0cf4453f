// Reading tokenizer.json's pipeline components: the normalizer, the
// pre-tokenizer, the decoder and the post-processor, one small function per
// kind, each refusing what it does not implement exactly with a message
// that names the field. The chapter's critical-path module
// (EMBEDDINGS_CRITICAL_MODULE, CMakeLists.txt) reads only GPT-2's
// components and refuses the others by name; the package then loads the
// file with embeddings-full.wasm.
#include <utility>

#include "embeddings/common/utf8.h"
#include "tokenizer_json.h"

namespace embeddings {

using tokenizer_json::describe;
using tokenizer_json::is_null_or_absent;
using tokenizer_json::quote;

namespace {

// The "type" of a component object, for messages: "type \"Sequence\"" or what the value is.
std::string describe_component(const json::Value& component) {
  const json::Value* type = component.is_object() ? component.find("type") : nullptr;
  return type != nullptr && type->is_string() ? "type " + quote(type->text) : describe(component);
}

bool has_type(const json::Value& component, std::string_view type) {
  const json::Value* member = component.is_object() ? component.find("type") : nullptr;
  return member != nullptr && member->is_string() && member->text == type;
}

// The kinds each stage knows, for messages and for the critical module's refusals.
constexpr const char* kNormalizers[] = {"NFC",   "NFD",     "NFKC",    "NFKD",    "Lowercase",
                                        "Strip", "Prepend", "Replace", "Sequence"};
constexpr const char* kPreTokenizers[] = {"Split",           "Sequence", "Metaspace",   "Whitespace",
                                          "WhitespaceSplit", "Digits",   "Punctuation", "BertPreTokenizer"};
constexpr const char* kDecoders[] = {"Metaspace", "ByteFallback", "Fuse",    "Strip",
                                     "Replace",   "WordPiece",    "Sequence"};

template <std::size_t N>
std::string list(const char* const (&names)[N]) {
  std::string out;
  for (std::size_t i = 0; i < N; ++i) out += std::string(i == 0 ? "" : i + 1 == N ? " or " : ", ") + names[i];
  return out;
}

// In the critical module: the message for a kind it leaves out, or "" when
// `component` is of no kind in `names`.
template <std::size_t N>
std::string left_out([[maybe_unused]] const json::Value& component,
                     [[maybe_unused]] const char* const (&names)[N],
                     [[maybe_unused]] const std::string& where) {
#if EMBEDDINGS_CRITICAL_MODULE
  for (const char* name : names) {
    if (has_type(component, name))
      return where + ": " + name + " is left out of this build (it is in embeddings-full.wasm)";
  }
#endif
  return std::string();
}

}  // namespace

bool Tokenizer::Reader::read_string_member(const json::Value& object, const char* key,
                                           const std::string& where, std::string& value, bool one_character) {
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

bool Tokenizer::Reader::read_count_member(const json::Value& object, const char* key,
                                          const std::string& where, std::size_t& value) {
  const json::Value* member = object.find(key);
  std::int64_t number = -1;
  if (member == nullptr || !member->as_int64(number) || number < 0 || number > (std::int64_t{1} << 30))
    return fail(where + "." + key + " must be a count from 0 to 2^30, found " + describe(member));
  value = static_cast<std::size_t>(number);
  return true;
}

#if !EMBEDDINGS_CRITICAL_MODULE
bool Tokenizer::Reader::read_pattern(const json::Value& component, const std::string& where,
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
  if (!regex::Regex::compile(source, *compiled, problem)) {
    return fail(where + ".pattern." + (regex_text != nullptr ? "Regex " : "String ") +
                quote(regex_text != nullptr ? regex_text->text : string_text->text) + ": " + problem);
  }
  out = std::move(compiled);
  return true;
}

bool Tokenizer::Reader::read_behavior(const json::Value& component, const std::string& where,
                                      PreTokenizer::Behavior& out) {
  const json::Value* behavior = component.find("behavior");
  static constexpr std::pair<const char*, PreTokenizer::Behavior> kBehaviors[] = {
      {"Removed", PreTokenizer::Behavior::Removed},
      {"Isolated", PreTokenizer::Behavior::Isolated},
      {"MergedWithPrevious", PreTokenizer::Behavior::MergedWithPrevious},
      {"MergedWithNext", PreTokenizer::Behavior::MergedWithNext},
      {"Contiguous", PreTokenizer::Behavior::Contiguous},
  };
  for (const auto& [name, value] : kBehaviors) {
    if (behavior != nullptr && behavior->is_string() && behavior->text == name) {
      out = value;
      return true;
    }
  }
  return fail(where + ".behavior must be Removed, Isolated, MergedWithPrevious, MergedWithNext or " +
              "Contiguous, found " + describe(behavior));
}
#endif

// ---- Normalizers -------------------------------------------------------------------

bool Tokenizer::Reader::read_normalizer() {
  const json::Value* normalizer = root_.find("normalizer");
  if (is_null_or_absent(normalizer)) {
    t_.normalizer_.kind = Normalizer::Kind::None;
    return true;
  }
  return read_normalizer_stage(*normalizer, "normalizer", t_.normalizer_);
}

bool Tokenizer::Reader::read_normalizer_stage(const json::Value& value, const std::string& where,
                                              Normalizer& out) {
  if (const std::string refusal = left_out(value, kNormalizers, where); !refusal.empty())
    return fail(refusal);
#if !EMBEDDINGS_CRITICAL_MODULE
  using Kind = Normalizer::Kind;
  static constexpr std::pair<const char*, Kind> kPlain[] = {{"NFC", Kind::NFC},
                                                            {"NFD", Kind::NFD},
                                                            {"NFKC", Kind::NFKC},
                                                            {"NFKD", Kind::NFKD},
                                                            {"Lowercase", Kind::Lowercase}};
  for (const auto& [name, kind] : kPlain) {
    if (!has_type(value, name)) continue;
    out.kind = kind;
    return true;
  }
  if (has_type(value, "Strip")) {
    out.kind = Kind::Strip;
    return read_optional_bool(value, "strip_left", where, out.strip_left) &&
           read_optional_bool(value, "strip_right", where, out.strip_right);
  }
  if (has_type(value, "Prepend")) {
    out.kind = Kind::Prepend;
    return read_string_member(value, "prepend", where, out.content, false);
  }
  if (has_type(value, "Replace")) {
    out.kind = Kind::Replace;
    return read_pattern(value, where, out.pattern) &&
           read_string_member(value, "content", where, out.content, false);
  }
  if (has_type(value, "Sequence")) {
    out.kind = Kind::Sequence;
    return read_stages(value, "normalizers", where, out.steps,
                       [&](const json::Value& item, const std::string& at, Normalizer& step) {
                         return read_normalizer_stage(item, at, step);
                       });
  }
#endif
  return fail(where + " must be null or one of " + list(kNormalizers) + ", found " +
              describe_component(value) + " (not supported)");
}

// ---- Pre-tokenizers ------------------------------------------------------------------

bool Tokenizer::Reader::read_pre_tokenizer() {
  const json::Value* pre = root_.find("pre_tokenizer");
  PreTokenizer& p = t_.pre_tokenizer_;
  if (is_null_or_absent(pre)) {
#if EMBEDDINGS_CRITICAL_MODULE
    return fail(
        "pre_tokenizer: null (a vocabulary spelled as text) is left out of this build (it is in "
        "embeddings-full.wasm)");
#else
    p.kind = PreTokenizer::Kind::None;
    t_.byte_level_vocabulary_ = false;
    return true;
#endif
  }
  if (!read_pre_tokenizer_stage(*pre, "pre_tokenizer", p)) return false;
  const bool sequence = p.kind == PreTokenizer::Kind::Sequence;
  const std::size_t count = sequence ? p.steps.size() : 1;
  const PreTokenizer* steps = sequence ? p.steps.data() : &p;
  // A ByteLevel stage maps text into GPT-2's byte alphabet, in which the
  // vocabulary is then spelled; a stage after it would see that alphabet
  // instead of the text.
  t_.byte_level_vocabulary_ = false;
  for (std::size_t i = 0; i < count; ++i) {
    if (steps[i].kind != PreTokenizer::Kind::ByteLevel) continue;
    if (i + 1 != count) return fail("pre_tokenizer: a stage after ByteLevel (not supported)");
    t_.byte_level_vocabulary_ = true;
  }
  return true;
}

// One stage at `where`; a Sequence's stages are read into `out.steps`, with
// the stages of a Sequence inside it spliced in.
bool Tokenizer::Reader::read_pre_tokenizer_stage(const json::Value& pre, const std::string& where,
                                                 PreTokenizer& out) {
  if (has_type(pre, "ByteLevel")) {
    out.kind = PreTokenizer::Kind::ByteLevel;
    const json::Value* prefix_space = pre.find("add_prefix_space");
    if (prefix_space == nullptr || !prefix_space->is_bool()) {
      return fail(where + ".add_prefix_space must be true or false, found " + describe(prefix_space));
    }
    out.add_prefix_space = prefix_space->boolean;
    bool trim_offsets = true;  // Only affects offsets, which this tokenizer does not report.
    return read_optional_bool(pre, "use_regex", where, out.use_regex) &&
           read_optional_bool(pre, "trim_offsets", where, trim_offsets);
  }
  if (const std::string refusal = left_out(pre, kPreTokenizers, where); !refusal.empty())
    return fail(refusal);
#if !EMBEDDINGS_CRITICAL_MODULE
  using Kind = PreTokenizer::Kind;
  if (has_type(pre, "Split")) {
    out.kind = Kind::Split;
    return read_pattern(pre, where, out.pattern) && read_behavior(pre, where, out.behavior) &&
           read_optional_bool(pre, "invert", where, out.invert);
  }
  if (has_type(pre, "Whitespace") || has_type(pre, "WhitespaceSplit")) {
    out.kind = has_type(pre, "Whitespace") ? Kind::Whitespace : Kind::WhitespaceSplit;
    return true;
  }
  if (has_type(pre, "Digits")) {
    out.kind = Kind::Digits;
    return read_optional_bool(pre, "individual_digits", where, out.individual_digits);
  }
  if (has_type(pre, "Punctuation")) {
    out.kind = Kind::Punctuation;
    out.behavior = PreTokenizer::Behavior::Isolated;  // tokenizers' default
    return pre.find("behavior") == nullptr || read_behavior(pre, where, out.behavior);
  }
  if (has_type(pre, "Metaspace")) return read_metaspace(pre, where, out);
  if (has_type(pre, "BertPreTokenizer")) {
    // BERT's: tokenizers' BertPreTokenizer is these two splits in turn.
    out.kind = Kind::Sequence;
    out.steps.resize(2);
    out.steps[0].kind = Kind::WhitespaceSplit;
    out.steps[1].kind = Kind::Punctuation;
    out.steps[1].behavior = PreTokenizer::Behavior::Isolated;
    return true;
  }
  if (has_type(pre, "Sequence")) {
    out.kind = Kind::Sequence;
    std::vector<PreTokenizer> stages;
    if (!read_stages(pre, "pretokenizers", where, stages,
                     [&](const json::Value& item, const std::string& at, PreTokenizer& stage) {
                       return read_pre_tokenizer_stage(item, at, stage);
                     })) {
      return false;
    }
    // A Sequence in a Sequence is spliced in.
    for (PreTokenizer& stage : stages) {
      if (stage.kind == Kind::Sequence) {
        for (PreTokenizer& inner : stage.steps) out.steps.push_back(std::move(inner));
      } else {
        out.steps.push_back(std::move(stage));
      }
    }
    return true;
  }
#endif
  return fail(where + " must be {\"type\": \"ByteLevel\", ...} or one of " + list(kPreTokenizers) +
              ", found " + describe_component(pre) + " (not supported)");
}

#if !EMBEDDINGS_CRITICAL_MODULE
// tokenizers' Metaspace: replacement (one character), prepend_scheme
// (default "always"), split (default true), and the older add_prefix_space,
// which false turns into "never" (and which must not contradict the scheme).
bool Tokenizer::Reader::read_metaspace(const json::Value& pre, const std::string& where, PreTokenizer& out) {
  out.kind = PreTokenizer::Kind::Metaspace;
  if (!read_string_member(pre, "replacement", where, out.replacement, true) ||
      !read_prepend_scheme(pre, where, out.prepend_scheme)) {
    return false;
  }
  return read_optional_bool(pre, "split", where, out.split);
}

bool Tokenizer::Reader::read_prepend_scheme(const json::Value& component, const std::string& where,
                                            PreTokenizer::PrependScheme& out) {
  using Scheme = PreTokenizer::PrependScheme;
  out = Scheme::Always;
  const json::Value* scheme = component.find("prepend_scheme");
  if (scheme != nullptr) {
    static constexpr std::pair<const char*, Scheme> kSchemes[] = {
        {"always", Scheme::Always}, {"first", Scheme::First}, {"never", Scheme::Never}};
    bool known = false;
    for (const auto& [name, value] : kSchemes) {
      if (scheme->is_string() && scheme->text == name) {
        out = value;
        known = true;
      }
    }
    if (!known)
      return fail(where + ".prepend_scheme must be \"always\", \"first\" or \"never\", found " +
                  describe(*scheme));
  }
  bool add_prefix_space = true;
  if (!read_optional_bool(component, "add_prefix_space", where, add_prefix_space)) return false;
  if (!add_prefix_space) {
    if (out != Scheme::Never) return fail(where + ".add_prefix_space false does not match prepend_scheme");
    out = Scheme::Never;
  }
  return true;
}
#endif

// ---- Decoders ----------------------------------------------------------------------

bool Tokenizer::Reader::read_decoder() {
  const json::Value* decoder = root_.find("decoder");
  if (is_null_or_absent(decoder)) {
    t_.decoder_.kind = Decoder::Kind::None;
    return true;
  }
  return read_decoder_stage(*decoder, "decoder", t_.decoder_);
}

bool Tokenizer::Reader::read_decoder_stage(const json::Value& value, const std::string& where, Decoder& out) {
  using Kind = Decoder::Kind;
  if (has_type(value, "ByteLevel")) {
    out.kind = Kind::ByteLevel;
    return true;
  }
  if (const std::string refusal = left_out(value, kDecoders, where); !refusal.empty()) return fail(refusal);
#if !EMBEDDINGS_CRITICAL_MODULE
  if (has_type(value, "ByteFallback") || has_type(value, "Fuse")) {
    out.kind = has_type(value, "Fuse") ? Kind::Fuse : Kind::ByteFallback;
    return true;
  }
  if (has_type(value, "Metaspace")) {
    out.kind = Kind::Metaspace;
    PreTokenizer::PrependScheme scheme = PreTokenizer::PrependScheme::Always;
    if (!read_string_member(value, "replacement", where, out.content, true) ||
        !read_prepend_scheme(value, where, scheme)) {
      return false;
    }
    out.keep_first = scheme == PreTokenizer::PrependScheme::Never;
    return true;
  }
  if (has_type(value, "Strip")) {
    out.kind = Kind::Strip;
    return read_string_member(value, "content", where, out.content, true) &&
           read_count_member(value, "start", where, out.start) &&
           read_count_member(value, "stop", where, out.stop);
  }
  if (has_type(value, "Replace")) {
    out.kind = Kind::Replace;
    return read_pattern(value, where, out.pattern) &&
           read_string_member(value, "content", where, out.content, false);
  }
  if (has_type(value, "WordPiece")) {
    out.kind = Kind::WordPiece;
    out.content = "##";
    out.cleanup = true;
    if (value.find("prefix") != nullptr && !read_string_member(value, "prefix", where, out.content, false))
      return false;
    return read_optional_bool(value, "cleanup", where, out.cleanup);
  }
  if (has_type(value, "Sequence")) {
    out.kind = Kind::Sequence;
    return read_stages(value, "decoders", where, out.steps,
                       [&](const json::Value& item, const std::string& at, Decoder& step) {
                         return read_decoder_stage(item, at, step);
                       });
  }
#endif
  return fail(where + " must be null, {\"type\": \"ByteLevel\"} or one of " + list(kDecoders) + ", found " +
              describe_component(value) + " (not supported)");
}

// ---- Post-processors -------------------------------------------------------------------

// encode() adds no special tokens (as add_special_tokens false), and these
// post-processors only add special tokens or trim offsets, so none changes
// the ids: ByteLevel, TemplateProcessing, BertProcessing, RobertaProcessing,
// and a Sequence of them.
bool Tokenizer::Reader::read_post_processor() {
  const json::Value* post = root_.find("post_processor");
  return is_null_or_absent(post) || read_post_processor_stage(*post, "post_processor");
}

bool Tokenizer::Reader::read_post_processor_stage(const json::Value& post, const std::string& where) {
  for (const char* kind : {"ByteLevel", "TemplateProcessing", "BertProcessing", "RobertaProcessing"}) {
    if (has_type(post, kind)) return true;
  }
  if (has_type(post, "Sequence")) {
    const json::Value* steps = post.find("processors");
    if (steps == nullptr || !steps->is_array())
      return fail(where + ".processors must be an array, found " + describe(steps));
    for (std::size_t i = 0; i < steps->items.size(); ++i) {
      if (!read_post_processor_stage(steps->items[i], where + ".processors[" + std::to_string(i) + "]"))
        return false;
    }
    return true;
  }
  return fail(where +
              " must be null or one of ByteLevel, TemplateProcessing, BertProcessing, RobertaProcessing or "
              "Sequence, found " +
              describe_component(post) + " (not supported)");
}

}  // namespace embeddings
