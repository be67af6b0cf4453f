// The normalizers, the cutting pre-tokenizers and the decoders, each as
// Hugging Face's tokenizers runs it (the function names say which of its
// functions). Not in the chapter's critical-path module (EMBEDDINGS_CRITICAL_MODULE):
// its reader refuses these kinds.
#include "pipeline_stages.h"

#include <algorithm>

#include "embeddings/text/byte_level.h"
#include "embeddings/text/unicode/normalize.h"
#include "embeddings/text/unicode/unicode.h"

namespace embeddings::stages {
namespace {

void append_code(std::string& out, std::uint32_t code) { utf8::append(out, code); }

// The code point at `pos` and its length; a byte that is not valid UTF-8 is
// reported as length 1 and `valid` false.
std::size_t code_at(std::string_view text, std::size_t pos, std::uint32_t& code, bool& valid) {
  const std::size_t used = utf8::decode(text, pos, code);
  valid = used != 0;
  return valid ? used : 1;
}

template <typename Test>
void cut_by_characters(std::string_view text, PreTokenizer::Behavior behavior, Test&& test,
                       std::vector<Piece>& pieces) {
  const auto emit = [&](std::size_t begin, std::size_t end) { pieces.push_back({begin, end}); };
  PieceJoiner<decltype(emit)> joiner(behavior, false, emit);
  character_segments(text, test, [&](std::size_t begin, std::size_t end, bool is_match) {
    joiner.add(begin, end, is_match);
  });
  joiner.finish();
}

// Whitespace's regex \w+|[^\w\s]+ (Rust's regex crate): its matches are the
// pieces, so runs of word characters and runs of other characters that are
// not whitespace; what is left (whitespace) is dropped.
void cut_whitespace(std::string_view text, std::vector<Piece>& pieces) {
  enum class Class { Word, Space, Other };
  const auto class_at = [&](std::size_t pos, std::size_t& used) {
    std::uint32_t code = 0;
    bool valid = false;
    used = code_at(text, pos, code, valid);
    if (!valid) return Class::Other;
    if (unicode::is_word_character(code)) return Class::Word;
    return unicode::is_whitespace(code) ? Class::Space : Class::Other;
  };
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t used = 0;
    const Class first = class_at(pos, used);
    std::size_t end = pos + used;
    while (end < text.size()) {
      std::size_t next = 0;
      if (class_at(end, next) != first) break;
      end += next;
    }
    if (first != Class::Space) pieces.push_back({pos, end});
    pos = end;
  }
}

// tokenizers' NormalizedString::replace over find_matches.
void replace_matches(const regex::Regex& pattern, std::string_view content, const std::string& text,
                     std::string& out, regex::Regex::Scratch& scratch) {
  out.clear();
  if (text.empty()) return;  // find_matches() of "" is one segment that is not a match.
  regex_segments(pattern, text, scratch, [&](std::size_t begin, std::size_t end, bool is_match) {
    if (is_match) {
      out += content;
    } else {
      out.append(text, begin, end - begin);
    }
  });
}

// Code point by code point through `map` (a mapping of one to a few, or 0
// parts for "unchanged"); invalid bytes are copied.
template <typename Map>
void map_characters(const std::string& text, std::string& out, Map&& map) {
  out.clear();
  for (std::size_t pos = 0; pos < text.size();) {
    std::uint32_t code = 0;
    bool valid = false;
    const std::size_t used = code_at(text, pos, code, valid);
    const std::uint32_t* parts = nullptr;
    const std::size_t count = valid ? map(code, parts) : 0;
    if (count == 0) {
      out.append(text, pos, used);
    } else {
      for (std::size_t i = 0; i < count; ++i) append_code(out, parts[i]);
    }
    pos += used;
  }
}

// Rust's char::is_whitespace is the White_Space property.
bool is_white_space_at_end(std::string_view text, std::size_t end, std::size_t& start) {
  start = end - 1;
  while (start > 0 && end - start < 4 && (static_cast<unsigned char>(text[start]) & 0xC0) == 0x80) --start;
  std::uint32_t code = 0;
  if (utf8::decode(text, start, code) != end - start) return false;
  return unicode::is_whitespace(code);
}

// tokenizers' NormalizedString::lrstrip.
void strip(std::string& text, bool left, bool right) {
  std::size_t begin = 0, end = text.size();
  if (left) {
    while (begin < end) {
      std::uint32_t code = 0;
      bool valid = false;
      const std::size_t used = code_at(text, begin, code, valid);
      if (!valid || !unicode::is_whitespace(code)) break;
      begin += used;
    }
  }
  if (right) {
    std::size_t start = 0;
    while (end > begin && is_white_space_at_end(text, end, start)) end = start;
  }
  text.erase(end);
  text.erase(0, begin);
}

normalize::Form form_of(Normalizer::Kind kind) {
  switch (kind) {
    case Normalizer::Kind::NFD: return normalize::Form::NFD;
    case Normalizer::Kind::NFKC: return normalize::Form::NFKC;
    case Normalizer::Kind::NFKD: return normalize::Form::NFKD;
    default: return normalize::Form::NFC;
  }
}

}  // namespace

void cut(const PreTokenizer& stage, std::string_view text, regex::Regex::Scratch& scratch,
         std::vector<Piece>& pieces) {
  pieces.clear();
  using Behavior = PreTokenizer::Behavior;
  switch (stage.kind) {
    case PreTokenizer::Kind::Split: {
      const auto emit = [&](std::size_t begin, std::size_t end) { pieces.push_back({begin, end}); };
      PieceJoiner<decltype(emit)> joiner(stage.behavior, stage.invert, emit);
      regex_segments(*stage.pattern, text, scratch, [&](std::size_t begin, std::size_t end, bool is_match) {
        joiner.add(begin, end, is_match);
      });
      joiner.finish();
      return;
    }
    case PreTokenizer::Kind::Whitespace: cut_whitespace(text, pieces); return;
    case PreTokenizer::Kind::WhitespaceSplit:
      cut_by_characters(text, Behavior::Removed, unicode::is_whitespace, pieces);
      return;
    case PreTokenizer::Kind::Digits:
      cut_by_characters(text, stage.individual_digits ? Behavior::Isolated : Behavior::Contiguous,
                        unicode::is_number, pieces);
      return;
    case PreTokenizer::Kind::Punctuation:
      cut_by_characters(text, stage.behavior, unicode::is_punctuation, pieces);
      return;
    case PreTokenizer::Kind::Metaspace: {
      // Each replacement character starts a piece (split on the character, MergedWithNext).
      std::uint32_t replacement = 0;
      utf8::decode(stage.replacement, 0, replacement);
      cut_by_characters(
          text, Behavior::MergedWithNext, [&](std::uint32_t code) { return code == replacement; }, pieces);
      return;
    }
    default: pieces.push_back({0, text.size()}); return;
  }
}

// tokenizers' Metaspace::pre_tokenize before its split.
void metaspace_rewrite(const PreTokenizer& stage, std::string_view piece, bool first_piece,
                       std::string& out) {
  out.clear();
  const bool starts_with_replacement = piece.substr(0, stage.replacement.size()) == stage.replacement;
  bool prepend = false;
  // The replacement of a leading space counts as already there.
  const bool leading_space = !piece.empty() && piece[0] == ' ';
  switch (stage.prepend_scheme) {
    case PreTokenizer::PrependScheme::Always: prepend = !starts_with_replacement && !leading_space; break;
    case PreTokenizer::PrependScheme::First:
      prepend = first_piece && !starts_with_replacement && !leading_space;
      break;
    case PreTokenizer::PrependScheme::Never: break;
  }
  if (prepend) out += stage.replacement;
  for (const char c : piece) {
    if (c == ' ') {
      out += stage.replacement;
    } else {
      out += c;
    }
  }
}

bool may_change(const Normalizer& normalizer, std::string_view text) {
  switch (normalizer.kind) {
    case Normalizer::Kind::None: return false;
    case Normalizer::Kind::NFC:
    case Normalizer::Kind::NFD:
    case Normalizer::Kind::NFKC:
    case Normalizer::Kind::NFKD: return !normalize::is_quick_unchanged(form_of(normalizer.kind), text);
    default: return true;
  }
}

void normalize(const Normalizer& normalizer, std::string& text, std::string& spare,
               regex::Regex::Scratch& scratch) {
  switch (normalizer.kind) {
    case Normalizer::Kind::None: return;
    case Normalizer::Kind::NFC:
    case Normalizer::Kind::NFD:
    case Normalizer::Kind::NFKC:
    case Normalizer::Kind::NFKD: {
      const normalize::Form form = form_of(normalizer.kind);
      if (normalize::is_quick_unchanged(form, text)) return;
      normalize::apply(form, text, spare);
      text.swap(spare);
      return;
    }
    case Normalizer::Kind::Lowercase:
      map_characters(text, spare, [](std::uint32_t code, const std::uint32_t*& parts) -> std::size_t {
        if (code < 0x80) return 0;  // ASCII is done below, in place.
        return unicode::lowercase_mapping(code, parts);
      });
      for (char& c : spare) {
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c + ('a' - 'A'));
      }
      text.swap(spare);
      return;
    case Normalizer::Kind::Strip: strip(text, normalizer.strip_left, normalizer.strip_right); return;
    case Normalizer::Kind::Prepend:
      if (!text.empty()) text.insert(0, normalizer.content);
      return;
    case Normalizer::Kind::Replace:
      replace_matches(*normalizer.pattern, normalizer.content, text, spare, scratch);
      text.swap(spare);
      return;
    case Normalizer::Kind::Sequence:
      for (const Normalizer& step : normalizer.steps) normalize(step, text, spare, scratch);
      return;
  }
}

namespace {

// tokenizers' ByteFallback::decode_chain: a token "<0xNN>" (u8::from_str_radix
// of its two characters) is a byte; a run of them becomes its text, or one
// U+FFFD per byte when the run is not valid UTF-8.
void byte_fallback(std::vector<std::string>& tokens) {
  std::vector<std::string> out;
  out.reserve(tokens.size());
  std::string run;
  const auto hex = [](char c, unsigned& value) {
    if (c >= '0' && c <= '9') return value = static_cast<unsigned>(c - '0'), true;
    if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
      return value = static_cast<unsigned>((c | 0x20) - 'a' + 10), true;
    return false;
  };
  const auto flush = [&] {
    if (run.empty()) return;
    if (utf8::is_valid(run)) {
      out.push_back(run);
    } else {
      for (std::size_t i = 0; i < run.size(); ++i) out.emplace_back("\xEF\xBF\xBD");
    }
    run.clear();
  };
  for (std::string& token : tokens) {
    unsigned high = 0, low = 0;
    bool is_byte =
        token.size() == 6 && token.compare(0, 3, "<0x") == 0 && token[5] == '>' && hex(token[4], low);
    // from_str_radix takes a leading "+" as a sign: "<0x+A>" is byte 10.
    if (is_byte && token[3] == '+') {
      high = 0;
    } else if (is_byte && !hex(token[3], high)) {
      is_byte = false;
    }
    if (is_byte) {
      run += static_cast<char>(high * 16 + low);
      continue;
    }
    flush();
    out.push_back(std::move(token));
  }
  flush();
  tokens.swap(out);
}

// tokenizers' Strip::decode_chain: up to `start` leading and `stop` trailing
// characters equal to `content` off each token.
void strip_tokens(const Decoder& decoder, std::vector<std::string>& tokens) {
  for (std::string& token : tokens) {
    std::vector<std::size_t> starts;  // Each character's first byte, then the end.
    for (std::size_t pos = 0; pos < token.size();) {
      starts.push_back(pos);
      std::uint32_t code = 0;
      bool valid = false;
      pos += code_at(token, pos, code, valid);
    }
    const std::size_t count = starts.size();
    starts.push_back(token.size());
    const auto is_content = [&](std::size_t i) {
      return token.compare(starts[i], starts[i + 1] - starts[i], decoder.content) == 0;
    };
    std::size_t first = 0;
    while (first < std::min(decoder.start, count) && is_content(first)) ++first;
    std::size_t last = count;
    for (std::size_t i = 0; i < decoder.stop && last > first && is_content(last - 1); ++i) --last;
    token = token.substr(starts[first], starts[last] - starts[first]);
  }
}

// tokenizers' WordPiece::decode_chain and its cleanup().
void word_piece(const Decoder& decoder, std::vector<std::string>& tokens) {
  static constexpr std::pair<std::string_view, std::string_view> kCleanup[] = {
      {" .", "."},   {" ?", "?"},           {" !", "!"},   {" ,", ","},     {" ' ", "'"},    {" n't", "n't"},
      {" 'm", "'m"}, {" do not", " don't"}, {" 's", "'s"}, {" 've", "'ve"}, {" 're", "'re"},
  };
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    std::string& token = tokens[i];
    if (i != 0) {
      if (token.compare(0, decoder.content.size(), decoder.content) == 0) {
        token.erase(0, decoder.content.size());
      } else {
        token.insert(0, 1, ' ');
      }
    }
    if (!decoder.cleanup) continue;
    for (const auto& [from, to] : kCleanup) {
      std::string replaced;
      std::size_t at = 0;
      for (std::size_t found; (found = token.find(from, at)) != std::string::npos; at = found + from.size())
        replaced.append(token, at, found - at).append(to);
      token = replaced.append(token, at, std::string::npos);
    }
  }
}

}  // namespace

void decode_chain(const Decoder& decoder, std::vector<std::string>& tokens) {
  switch (decoder.kind) {
    case Decoder::Kind::None: return;
    case Decoder::Kind::ByteLevel: {
      // Each token through the byte alphabet when every character is in it,
      // else its own bytes; then from_utf8_lossy over the whole.
      std::string bytes, token_bytes;
      for (const std::string& token : tokens) {
        if (byte_level::decode(token, token_bytes)) {
          bytes += token_bytes;
        } else {
          bytes += token;
        }
      }
      tokens.assign(1, std::string());
      byte_level::append_utf8_lossy(tokens[0], bytes);
      return;
    }
    case Decoder::Kind::Metaspace:
      for (std::size_t i = 0; i < tokens.size(); ++i) {
        std::string out;
        const std::string& token = tokens[i];
        for (std::size_t at = 0; at < token.size();) {
          if (token.compare(at, decoder.content.size(), decoder.content) == 0) {
            if (i != 0 || decoder.keep_first) out += ' ';
            at += decoder.content.size();
          } else {
            out += token[at++];
          }
        }
        tokens[i].swap(out);
      }
      return;
    case Decoder::Kind::ByteFallback: byte_fallback(tokens); return;
    case Decoder::Kind::Fuse: {
      std::string joined;
      for (const std::string& token : tokens) joined += token;
      tokens.assign(1, std::move(joined));
      return;
    }
    case Decoder::Kind::Strip: strip_tokens(decoder, tokens); return;
    case Decoder::Kind::Replace: {
      regex::Regex::Scratch scratch;
      std::string out;
      for (std::string& token : tokens) {
        replace_matches(*decoder.pattern, decoder.content, token, out, scratch);
        token.swap(out);
      }
      return;
    }
    case Decoder::Kind::WordPiece: word_piece(decoder, tokens); return;
    case Decoder::Kind::Sequence:
      for (const Decoder& step : decoder.steps) decode_chain(step, tokens);
      return;
  }
}

}  // namespace embeddings::stages
