#include "embeddings/common/message.h"

#include "embeddings/common/utf8.h"
#include "embeddings/text/byte_level.h"

namespace embeddings {

namespace {

// Characters that would make a message read differently from what it says:
// controls, and the marks that reorder the text around them.
bool needs_escape(std::uint32_t code) {
  return code < 0x20 || (code >= 0x7F && code <= 0x9F) || code == 0x061C || code == 0x200E ||
         code == 0x200F || code == 0x2028 || code == 0x2029 || (code >= 0x202A && code <= 0x202E) ||
         (code >= 0x2066 && code <= 0x2069);
}

void append_escaped(std::string& out, std::uint32_t code) {
  static const char* const kHex = "0123456789abcdef";
  switch (code) {
    case '\n': out += "\\n"; return;
    case '\r': out += "\\r"; return;
    case '\t': out += "\\t"; return;
    default: break;
  }
  out += "\\u";
  for (int shift = 12; shift >= 0; shift -= 4) out += kHex[(code >> shift) & 15];
}

}  // namespace

std::string quote(std::string_view text) {
  std::string_view shown = text;
  bool cut = false;
  if (shown.size() > kQuotedTextLimit) {
    std::size_t end = kQuotedTextLimit;
    while (end > 0 && (static_cast<unsigned char>(shown[end]) & 0xC0) == 0x80) --end;
    shown = shown.substr(0, end);
    cut = true;
  }
  std::string repaired;
  if (!utf8::is_valid(shown)) {
    byte_level::append_utf8_lossy(repaired, shown);
    shown = repaired;
  }
  std::string out = "\"";
  for (std::size_t pos = 0; pos < shown.size();) {
    std::uint32_t code = 0;
    const std::size_t used = utf8::decode(shown, pos, code);  // Never 0: `shown` is valid UTF-8.
    if (code == '"' || code == '\\') {
      out += '\\';
      out += static_cast<char>(code);
    } else if (needs_escape(code)) {
      append_escaped(out, code);
    } else {
      out.append(shown, pos, used);
    }
    pos += used;
  }
  if (cut) out += "...";
  return out + "\"";
}

std::string mebibytes(std::uint64_t bytes) {
  if (bytes < (1 << 20)) return std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes");
  const std::uint64_t tenths = (bytes * 10 + (1 << 20) / 2) >> 20;
  return std::to_string(tenths / 10) + "." + std::to_string(tenths % 10) + " MiB";
}

}  // namespace embeddings
