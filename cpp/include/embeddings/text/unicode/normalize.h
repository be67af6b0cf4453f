// Unicode normalization, NFC, NFD, NFKC and NFKD, for tokenizer.json's
// normalizers (Qwen's NFC). NFKD decomposes by the compatibility mappings
// as well as the canonical ones; NFKC composes the result as NFC does. The data are generated from Node's
// Unicode data (tools/gen/unicode-tables.mjs); the algorithm is Unicode's (UAX #15): decompose fully, put
// each run of marks in canonical order (a stable sort by combining class), and for NFC compose again, each
// mark with the last starter unless a mark of the same or a higher class stands between them. Hangul
// syllables are decomposed and composed by formula.
//
// Input is UTF-8; a byte that does not begin a valid sequence is copied as
// it is and stops composition across it, as a starter would.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace embeddings::normalize {

enum class Form { NFC, NFD, NFKC, NFKD };

// Whether `form` leaves `text` as it is without looking further: true for
// NFC when no character is U+0300 or above (no mark, nothing that NFC
// changes), for NFD when none is U+00C0 or above (the first that decomposes),
// for NFKC and NFKD when none is U+00A0 or above.
bool is_quick_unchanged(Form form, std::string_view text);

// `text` in `form`, into `out` (replacing its contents). With `changes`,
// also how each character of `out` came from `text`, one number each, as
// the unicode-normalization-alignments crate (Hugging Face's) gives them:
// 0, it replaces the next character of the text; 1, it was added (a
// decomposition's second part and after); less, as 0 and that many fewer
// than 1 removed after it (composition).
void apply(Form form, std::string_view text, std::string& out, std::vector<std::int32_t>* changes = nullptr);

}  // namespace embeddings::normalize
