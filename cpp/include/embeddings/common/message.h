// Pieces of error messages, shared by every loader: text from a file shown
// safely, and sizes in words.
//
// Messages reach a reader's console and a page's error box, and much of what
// they quote comes from files nobody has checked (tensor names, JSON keys,
// token texts). So quoted text is cut to a readable length and cannot change
// how the rest of the message reads: control characters and the Unicode
// direction overrides are escaped, and invalid UTF-8 becomes U+FFFD.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace embeddings {

// Bytes of quoted text shown before the cut ("..." marks one).
inline constexpr std::size_t kQuotedTextLimit = 40;

// `text` as a JSON-style string literal for a message: double-quoted, cut at
// a character boundary after kQuotedTextLimit bytes, valid UTF-8, with C0 and
// C1 controls, DEL, line and paragraph separators and the bidirectional
// formatting characters (U+061C, U+200E, U+200F, U+202A to U+202E, U+2066 to
// U+2069) written as \uXXXX escapes.
std::string quote(std::string_view text);

// A size for a message: "512 bytes", "3.5 MiB".
std::string mebibytes(std::uint64_t bytes);

}  // namespace embeddings
