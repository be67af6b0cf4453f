#include "embeddings/text/display/token_display.h"

#include <cstdint>

#include "embeddings/common/utf8.h"

namespace embeddings::display {
namespace {

void append_byte_escape(std::string& out, unsigned char byte) {
  static const char* const kHex = "0123456789ABCDEF";
  out += "<0x";
  out += kHex[byte >> 4];
  out += kHex[byte & 15];
  out += '>';
}

int hex_value(char ch) {
  if (ch >= '0' && ch <= '9') return ch - '0';
  if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
  if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
  return -1;
}

// Whether text starts with what to_bytes reads as one byte: "<0x" two hex digits ">".
bool reads_as_escape(std::string_view text) {
  return text.size() >= 6 && text.substr(0, 3) == "<0x" && hex_value(text[3]) >= 0 &&
         hex_value(text[4]) >= 0 && text[5] == '>';
}

constexpr std::string_view kSpaceMark = "\xC2\xB7";        // ·
constexpr std::string_view kNewlineMark = "\xE2\x86\xB5";  // ↵
constexpr std::string_view kTabMark = "\xE2\x87\xA5";      // ⇥

}  // namespace

std::string from_bytes(std::string_view bytes) {
  std::string out;
  std::size_t pos = 0;
  while (pos < bytes.size()) {
    const unsigned char byte = static_cast<unsigned char>(bytes[pos]);
    if (byte < 0x80) {
      if (byte == ' ') {
        out += kSpaceMark;
      } else if (byte == '\n') {
        out += kNewlineMark;
      } else if (byte == '\t') {
        out += kTabMark;
      } else if (byte < 0x20 || byte == 0x7F || (byte == '<' && reads_as_escape(bytes.substr(pos)))) {
        // A literal "<0xNN>" in a token (byte_fallback's tokens are spelled
        // so) has its "<" written as an escape, or it would be read back as
        // the byte NN: token_id(token_text(id)) is id for every token.
        append_byte_escape(out, byte);
      } else {
        out += static_cast<char>(byte);
      }
      ++pos;
      continue;
    }
    std::uint32_t code = 0;
    const std::size_t length = utf8::decode(bytes, pos, code);
    if (length == 0) {
      append_byte_escape(out, byte);
      ++pos;
      continue;
    }
    const std::string_view character = bytes.substr(pos, length);
    // C1 controls are invisible, and literal marks would be read back as bytes.
    if (code <= 0x9F || character == kSpaceMark || character == kNewlineMark || character == kTabMark) {
      for (const char ch : character) append_byte_escape(out, static_cast<unsigned char>(ch));
    } else {
      out += character;
    }
    pos += length;
  }
  return out;
}

std::string to_bytes(std::string_view text) {
  std::string bytes;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::string_view rest = text.substr(pos);
    if (rest.substr(0, kSpaceMark.size()) == kSpaceMark) {
      bytes += ' ';
      pos += kSpaceMark.size();
    } else if (rest.substr(0, kNewlineMark.size()) == kNewlineMark) {
      bytes += '\n';
      pos += kNewlineMark.size();
    } else if (rest.substr(0, kTabMark.size()) == kTabMark) {
      bytes += '\t';
      pos += kTabMark.size();
    } else if (reads_as_escape(rest)) {
      bytes += static_cast<char>(hex_value(rest[3]) * 16 + hex_value(rest[4]));
      pos += 6;
    } else {
      bytes += text[pos];
      ++pos;
    }
  }
  return bytes;
}

}  // namespace embeddings::display
