// Whole files read from disk, for the native tools, tests and benchmarks.
// The library itself never opens a file: its loaders take bytes in steps
// (a browser's come by HTTP range requests), and the WebAssembly modules
// never link this.
#pragma once

#include <string>

#include "embeddings/formats/tables.h"

namespace embeddings {

// Convenience for native code: reads a whole safetensors file (and optional
// config.json text) through TablesLoader. Errors start with the path, or
// with "config.json: " for the configuration.
bool load_tables_from_file(const std::string& path, const std::string* config_json, EmbeddingTables& out,
                           std::string& error);

// Reads a whole file into `out`.
bool read_file(const std::string& path, std::string& out, std::string& error);

}  // namespace embeddings
