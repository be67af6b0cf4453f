// Encodes the training corpus into token id files for model training.
//
//   encode_corpus --tokenizer tokenizer.json --validation-every 20 \
//       --train-out train.bin --validation-out val.bin corpus.txt [more.txt ...]
//
// Documents (separated by lines holding exactly <|endoftext|>, see
// cpp/include/embeddings/training/corpus.h) are numbered from 1 across all files in
// order; every Nth one (N, 2N, ...) goes to validation, the rest to training
// (--validation-every 0: none). Each document is encoded and followed by the
// <|endoftext|> id. Output: little-endian uint16 ids, so the vocabulary must
// have at most 65536 ids.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "embeddings/formats/model.h"
#include "embeddings/text/tokenizer.h"
#include "embeddings/training/corpus.h"

namespace {

int usage(const char* message) {
  std::fprintf(stderr,
               "encode_corpus: %s\nusage: encode_corpus --tokenizer tokenizer.json --validation-every N "
               "--train-out train.bin --validation-out val.bin corpus.txt [...]\n",
               message);
  return 2;
}

bool write_ids(const std::string& path, const std::vector<std::int32_t>& ids) {
  std::vector<unsigned char> bytes(ids.size() * 2);
  for (std::size_t i = 0; i < ids.size(); ++i) {
    const auto id = static_cast<std::uint16_t>(ids[i]);
    bytes[2 * i] = static_cast<unsigned char>(id & 0xFF);
    bytes[2 * i + 1] = static_cast<unsigned char>(id >> 8);
  }
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (file == nullptr) return false;
  const bool written = std::fwrite(bytes.data(), 1, bytes.size(), file) == bytes.size();
  return std::fclose(file) == 0 && written;
}

}  // namespace

int main(int argc, char** argv) {
  std::string tokenizer_path, train_path, validation_path;
  long long every = -1;
  std::vector<std::string> inputs;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--tokenizer" && i + 1 < argc) {
      tokenizer_path = argv[++i];
    } else if (arg == "--train-out" && i + 1 < argc) {
      train_path = argv[++i];
    } else if (arg == "--validation-out" && i + 1 < argc) {
      validation_path = argv[++i];
    } else if (arg == "--validation-every" && i + 1 < argc) {
      char* end = nullptr;
      every = std::strtoll(argv[++i], &end, 10);
      if (end == argv[i] || *end != '\0' || every < 0)
        return usage("--validation-every needs an integer >= 0");
    } else if (arg == "--help" || arg == "-h") {
      return usage("encodes a corpus to uint16 token ids");
    } else if (!arg.empty() && arg[0] == '-') {
      return usage(("unknown or incomplete option " + arg).c_str());
    } else {
      inputs.push_back(arg);
    }
  }
  if (tokenizer_path.empty() || train_path.empty() || validation_path.empty() || every < 0) {
    return usage("--tokenizer, --validation-every, --train-out and --validation-out are required");
  }
  if (inputs.empty()) return usage("no corpus files given");

  const auto start = std::chrono::steady_clock::now();
  std::string json, error;
  embeddings::Tokenizer tokenizer;
  if (!embeddings::read_file(tokenizer_path, json, error)) {
    std::fprintf(stderr, "encode_corpus: %s\n", error.c_str());
    return 1;
  }
  if (!embeddings::Tokenizer::from_json(json, tokenizer, error)) {
    std::fprintf(stderr, "encode_corpus: %s: %s\n", tokenizer_path.c_str(), error.c_str());
    return 1;
  }
  if (tokenizer.vocab_size() > 65536) {
    std::fprintf(stderr, "encode_corpus: %s has %zu ids, more than uint16 output can hold (65536)\n",
                 tokenizer_path.c_str(), tokenizer.vocab_size());
    return 1;
  }
  const std::int32_t end_of_text = tokenizer.token_id("<|endoftext|>");
  if (end_of_text < 0 || !tokenizer.is_special(end_of_text)) {
    std::fprintf(stderr, "encode_corpus: %s has no special token <|endoftext|>\n", tokenizer_path.c_str());
    return 1;
  }

  std::vector<std::int32_t> train, validation;
  std::size_t documents = 0, train_documents = 0, validation_documents = 0;
  std::string text;
  for (const std::string& path : inputs) {
    if (!embeddings::read_file(path, text, error)) {
      std::fprintf(stderr, "encode_corpus: %s\n", error.c_str());
      return 1;
    }
    for (const std::string_view document : embeddings::split_documents(text)) {
      ++documents;
      const bool to_validation = every > 0 && documents % static_cast<std::size_t>(every) == 0;
      std::vector<std::int32_t>& ids = to_validation ? validation : train;
      (to_validation ? validation_documents : train_documents) += 1;
      tokenizer.encode(document, ids);
      ids.push_back(end_of_text);
    }
  }
  if (!write_ids(train_path, train) || !write_ids(validation_path, validation)) {
    std::fprintf(stderr, "encode_corpus: cannot write %s or %s\n", train_path.c_str(),
                 validation_path.c_str());
    return 1;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::fprintf(
      stderr,
      "%zu documents: train %zu documents, %zu tokens -> %s; validation %zu documents, %zu tokens -> %s "
      "(vocab %zu, %.2f s)\n",
      documents, train_documents, train.size(), train_path.c_str(), validation_documents, validation.size(),
      validation_path.c_str(), tokenizer.vocab_size(), seconds);
  return 0;
}
