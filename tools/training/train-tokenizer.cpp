// Trains the book's byte-level BPE tokenizer.
//
//   train-tokenizer --vocab-size 4096 --out tokenizer.json corpus.txt [more.txt ...]
//
// The corpus files are UTF-8 text whose documents are separated by lines
// holding exactly <|endoftext|>. The vocabulary gets 256 byte tokens (id =
// byte value), the learned merges, and <|endoftext|> as the last id. See
// cpp/include/embeddings/training/bpe_trainer.h for the rules.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "embeddings/file_io/file_io.h"
#include "embeddings/text/tokenizer.h"
#include "embeddings/training/bpe_trainer.h"
#include "embeddings/training/corpus.h"

namespace {

int usage(const char* message) {
  std::fprintf(
      stderr,
      "train-tokenizer: %s\nusage: train-tokenizer --vocab-size N --out tokenizer.json corpus.txt [...]\n",
      message);
  return 2;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t vocab_size = 0;
  std::string out_path;
  std::vector<std::string> inputs;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--vocab-size" && i + 1 < argc) {
      char* end = nullptr;
      const unsigned long long value = std::strtoull(argv[++i], &end, 10);
      if (end == argv[i] || *end != '\0' || value == 0) return usage("--vocab-size needs a positive integer");
      vocab_size = static_cast<std::size_t>(value);
    } else if (arg == "--out" && i + 1 < argc) {
      out_path = argv[++i];
    } else if (arg == "--help" || arg == "-h") {
      return usage("trains a byte-level BPE tokenizer");
    } else if (!arg.empty() && arg[0] == '-') {
      return usage(("unknown or incomplete option " + arg).c_str());
    } else {
      inputs.push_back(arg);
    }
  }
  if (vocab_size == 0) return usage("--vocab-size is required");
  if (out_path.empty()) return usage("--out is required");
  if (inputs.empty()) return usage("no corpus files given");

  const auto start = std::chrono::steady_clock::now();
  embeddings::BpeTrainer trainer;
  std::size_t documents = 0, bytes = 0;
  std::string text, error;
  for (const std::string& path : inputs) {
    if (!embeddings::read_file(path, text, error)) {
      std::fprintf(stderr, "train-tokenizer: %s\n", error.c_str());
      return 1;
    }
    for (const std::string_view document : embeddings::split_documents(text)) {
      trainer.add_text(document);
      ++documents;
    }
    bytes += text.size();
  }
  std::fprintf(stderr, "read %zu bytes, %zu documents: %zu pieces (%zu distinct) in %.2f s\n", bytes,
               documents, trainer.piece_count(), trainer.distinct_pieces(), seconds_since(start));

  embeddings::BpeVocabulary vocab;
  const bool trained = trainer.train(vocab_size, vocab, error, [&](std::size_t tokens) {
    std::fprintf(stderr, "  %zu / %zu tokens (%.2f s)\n", tokens, vocab_size, seconds_since(start));
  });
  if (!trained) {
    std::fprintf(stderr, "train-tokenizer: %s\n", error.c_str());
    return 1;
  }
  const std::string json = embeddings::tokenizer_json(vocab);

  // Check the file loads before writing it, so a bad vocabulary never reaches disk.
  embeddings::Tokenizer check;
  if (!embeddings::Tokenizer::from_json(json, check, error) || check.vocab_size() != vocab_size) {
    std::fprintf(stderr, "train-tokenizer: internal error, the written tokenizer does not load: %s\n",
                 error.c_str());
    return 1;
  }
  std::FILE* file = std::fopen(out_path.c_str(), "wb");
  if (file == nullptr || std::fwrite(json.data(), 1, json.size(), file) != json.size() ||
      std::fclose(file) != 0) {
    std::fprintf(stderr, "train-tokenizer: cannot write %s\n", out_path.c_str());
    return 1;
  }
  std::fprintf(
      stderr, "learned %zu merges: %zu tokens (256 bytes, %zu merged, %zu special) in %.2f s; wrote %s\n",
      vocab.merges.size(), vocab.tokens.size(), vocab.tokens.size() - 256 - vocab.special_tokens.size(),
      vocab.special_tokens.size(), seconds_since(start), out_path.c_str());
  return 0;
}
