// Reading the training corpus: documents separated by a line that holds
// exactly "<|endoftext|>". Shared by the tokenizer trainer and the corpus
// encoder so that both see the very same document texts.
#pragma once

#include <string_view>
#include <vector>

namespace embeddings {

// Splits `text` at separator lines: lines equal to `separator` (a trailing
// "\r" is ignored). A document is the text between two separator lines
// without the line break that ends its last line, so "a\nb\n<|endoftext|>\n"
// gives the document "a\nb". Documents that are empty or only whitespace are
// left out. Text after the last separator line is a document too. The views
// point into `text`.
std::vector<std::string_view> split_documents(std::string_view text,
                                              std::string_view separator = "<|endoftext|>");

}  // namespace embeddings
