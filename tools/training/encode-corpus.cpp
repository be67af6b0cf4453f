// Encodes the training corpus into token id files for model training.
//
//   encode-corpus --tokenizer tokenizer.json --validation-every 20 \
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

#include "embeddings/file_io/file_io.h"
#include "embeddings/text/tokenizer.h"
#include "embeddings/training/corpus.h"

namespace {

int usage(const char* message) {
  std::fprintf(stderr,
               "encode-corpus: %s\nusage: encode-corpus --tokenizer tokenizer.json --validation-every N "
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

// The command line, or the usage message's exit code.
struct Options {
  std::string tokenizer_path, train_path, validation_path;
  long long every = -1;
  std::vector<std::string> inputs;
};

int parse_options(int argc, char** argv, Options& options) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--tokenizer" && i + 1 < argc) {
      options.tokenizer_path = argv[++i];
    } else if (arg == "--train-out" && i + 1 < argc) {
      options.train_path = argv[++i];
    } else if (arg == "--validation-out" && i + 1 < argc) {
      options.validation_path = argv[++i];
    } else if (arg == "--validation-every" && i + 1 < argc) {
      char* end = nullptr;
      options.every = std::strtoll(argv[++i], &end, 10);
      if (end == argv[i] || *end != '\0' || options.every < 0)
        return usage("--validation-every needs an integer >= 0");
    } else if (arg == "--help" || arg == "-h") {
      return usage("encodes a corpus to uint16 token ids");
    } else if (!arg.empty() && arg[0] == '-') {
      return usage(("unknown or incomplete option " + arg).c_str());
    } else {
      options.inputs.push_back(arg);
    }
  }
  if (options.tokenizer_path.empty() || options.train_path.empty() || options.validation_path.empty() ||
      options.every < 0) {
    return usage("--tokenizer, --validation-every, --train-out and --validation-out are required");
  }
  if (options.inputs.empty()) return usage("no corpus files given");
  return 0;
}

// The tokenizer, checked for what the output needs: ids that fit uint16,
// and <|endoftext|> (its id in `end_of_text`).
bool load_tokenizer(const std::string& path, embeddings::Tokenizer& tokenizer, std::int32_t& end_of_text) {
  std::string json, error;
  if (!embeddings::read_file(path, json, error)) {
    std::fprintf(stderr, "encode-corpus: %s\n", error.c_str());
    return false;
  }
  if (!embeddings::Tokenizer::from_json(json, tokenizer, error)) {
    std::fprintf(stderr, "encode-corpus: %s: %s\n", path.c_str(), error.c_str());
    return false;
  }
  if (tokenizer.vocab_size() > 65536) {
    std::fprintf(stderr, "encode-corpus: %s has %zu ids, more than uint16 output can hold (65536)\n",
                 path.c_str(), tokenizer.vocab_size());
    return false;
  }
  end_of_text = tokenizer.token_id("<|endoftext|>");
  if (end_of_text < 0 || !tokenizer.is_special(end_of_text)) {
    std::fprintf(stderr, "encode-corpus: %s has no special token <|endoftext|>\n", path.c_str());
    return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  if (const int code = parse_options(argc, argv, options); code != 0) return code;
  const auto start = std::chrono::steady_clock::now();
  embeddings::Tokenizer tokenizer;
  std::int32_t end_of_text = -1;
  if (!load_tokenizer(options.tokenizer_path, tokenizer, end_of_text)) return 1;

  std::vector<std::int32_t> train, validation;
  std::size_t documents = 0, train_documents = 0, validation_documents = 0;
  std::string text, error;
  for (const std::string& path : options.inputs) {
    if (!embeddings::read_file(path, text, error)) {
      std::fprintf(stderr, "encode-corpus: %s\n", error.c_str());
      return 1;
    }
    for (const std::string_view document : embeddings::split_documents(text)) {
      ++documents;
      const bool to_validation =
          options.every > 0 && documents % static_cast<std::size_t>(options.every) == 0;
      std::vector<std::int32_t>& ids = to_validation ? validation : train;
      (to_validation ? validation_documents : train_documents) += 1;
      tokenizer.encode(document, ids);
      ids.push_back(end_of_text);
    }
  }
  const std::string& train_path = options.train_path;
  const std::string& validation_path = options.validation_path;
  if (!write_ids(train_path, train) || !write_ids(validation_path, validation)) {
    std::fprintf(stderr, "encode-corpus: cannot write %s or %s\n", train_path.c_str(),
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
