// Unicode's character data: the classes of the GPT-2 pre-tokenizer, the
// general categories and scripts of Split patterns, and normalization.
//
// The tables are generated from Node.js's Unicode data by
// tools/gen/unicode-tables.mjs into cpp/src/text/unicode/unicode_tables.inc; the file
// header there records the Unicode version. Hugging Face's `tokenizers` uses
// Oniguruma's tables, which may be a Unicode version or two older: characters
// assigned since then (rare new letters) can be classified differently.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

namespace embeddings::unicode {

// \p{L}: General_Category Lu, Ll, Lt, Lm or Lo.
bool is_letter(std::uint32_t code);

// \p{N}: General_Category Nd, Nl or No (so "½", "Ⅷ" and "²" are numbers too).
bool is_number(std::uint32_t code);

// The Unicode White_Space property, which is what \s means in Oniguruma, the
// regex engine of Hugging Face's Rust `tokenizers`. JavaScript's \s differs in
// exactly two code points: it matches U+FEFF (ZERO WIDTH NO-BREAK SPACE / BOM),
// which is not whitespace here, and does not match U+0085 (NEXT LINE), which
// is whitespace here.
bool is_whitespace(std::uint32_t code);

// \w as Rust's `regex` crate reads it: Alphabetic, Mark, Nd, Pc (the
// underscore and friends) or Join_Control (ZWJ, ZWNJ). Hugging Face uses it
// for the single_word flag of added tokens.
bool is_word_character(std::uint32_t code);

// Every General_Category value. Cn (unassigned, noncharacters) is what no
// other category claims; surrogates are Cs; past U+10FFFF, Cn.
enum class Category : std::uint8_t {
  Cn,
  Lu,
  Ll,
  Lt,
  Lm,
  Lo,
  Mn,
  Mc,
  Me,
  Nd,
  Nl,
  No,
  Pc,
  Pd,
  Ps,
  Pe,
  Pi,
  Pf,
  Po,
  Sm,
  Sc,
  Sk,
  So,
  Zs,
  Zl,
  Zp,
  Cc,
  Cf,
  Cs,
  Co,
};
constexpr unsigned kCategoryCount = 30;
Category general_category(std::uint32_t code);

// The Script property (not Script_Extensions) as an index: 0 is Unknown
// (unassigned code points and those of no script), then the scripts that
// Oniguruma 6.9.10 knows. script_name() gives the long name ("Latin").
unsigned script(std::uint32_t code);
unsigned script_count();
const char* script_name(unsigned script);

// Inclusive ranges of code points, sorted, disjoint and not adjacent.
using Ranges = std::vector<std::pair<std::uint32_t, std::uint32_t>>;
// The code points whose category is in `categories` (bit 1 << Category).
Ranges category_ranges(std::uint32_t categories);
Ranges script_ranges(unsigned script);
Ranges white_space_ranges();

// A property that \p{...} names in a Split pattern: a set of categories,
// a script, or ASCII.
struct Property {
  enum class Kind : std::uint8_t { Categories, Script, Ascii };
  Kind kind = Kind::Categories;
  std::uint32_t value = 0;  // the categories' bits, or the script
};
// The property of that name as Oniguruma reads names: any case, spaces,
// hyphens and underscores ignored ("Lu", "lu", "Uppercase_Letter",
// "uppercase letter"; "Han", "Hani"). False for a name it does not know, or
// one that is not a category or script (binary properties, blocks).
bool find_property(std::string_view name, Property& out);
// Its code points.
Ranges property_ranges(const Property& property);

// Canonical normalization data (normalize.h), from the same generator.
// The full canonical decomposition of `code` (its length, `parts` pointing
// at it), or 0 when it has none; Hangul syllables are left to the caller's
// formula.
std::size_t canonical_decomposition(std::uint32_t code, const std::uint32_t*& parts);
// The canonical combining class as a rank: 0 for a starter, and ranks that
// order the classes as their numbers do (not the numbers themselves).
unsigned combining_rank(std::uint32_t code);
// The primary composite of a pair, or 0 (Hangul by formula, again).
std::uint32_t primary_composite(std::uint32_t first, std::uint32_t second);
// The full compatibility decomposition of `code` where it differs from the
// canonical one (its length, `parts` pointing at it), else 0.
std::size_t compatibility_decomposition(std::uint32_t code, const std::uint32_t*& parts);

// The full lowercase mapping of `code` (Rust's char::to_lowercase: "İ" is
// "i" and U+0307), its length and `parts`; 0 when it maps to itself.
std::size_t lowercase_mapping(std::uint32_t code, const std::uint32_t*& parts);

// What tokenizers' Punctuation pre-tokenizer cuts at: ASCII punctuation
// (so also $ + < = > ^ ` | ~, which Unicode calls symbols) or
// General_Category P.
bool is_punctuation(std::uint32_t code);

}  // namespace embeddings::unicode
