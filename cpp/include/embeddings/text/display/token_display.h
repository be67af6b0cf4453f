// How the book writes a token: presentation, apart from the tokenizer's
// pipeline. A token's bytes as UTF-8 text with a space shown as "·"
// (U+00B7), a newline as "↵" (U+21B5) and a tab as "⇥" (U+21E5); every other
// control character (C0, DEL, C1), every byte that is not part of a complete
// UTF-8 character, and the three marks themselves when they occur literally
// are written as "<0xNN>" per byte, so a display form names exactly one byte
// string.
#pragma once

#include <string>
#include <string_view>

namespace embeddings::display {

// The display form of raw token bytes.
std::string from_bytes(std::string_view bytes);

// The bytes a display form names: the marks and "<0xNN>" escapes turned back
// into bytes, other text copied.
std::string to_bytes(std::string_view text);

}  // namespace embeddings::display
