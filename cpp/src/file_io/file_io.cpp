#include "embeddings/file_io/file_io.h"

#include <cstdio>
#include <cstring>
#include <string_view>

#include "embeddings/formats/tables_loader.h"

namespace embeddings {

bool read_file(const std::string& path, std::string& out, std::string& error) {
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) {
    error = path + ": cannot open";
    return false;
  }
  std::string data;
  char buffer[1 << 16];
  std::size_t got;
  while ((got = std::fread(buffer, 1, sizeof buffer, file)) > 0) data.append(buffer, got);
  const bool failed = std::ferror(file) != 0;
  std::fclose(file);
  if (failed) {
    error = path + ": read error";
    return false;
  }
  out = std::move(data);
  return true;
}

bool load_tables_from_file(const std::string& path, const std::string* config_json, EmbeddingTables& out,
                           std::string& error) {
  std::string bytes;
  if (!read_file(path, bytes, error)) return false;
  const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
  TablesLoader loader;
  std::string why;
  const auto failed = [&](const std::string& file) {
    error = file + ": " + why;
    return false;
  };
  if (!loader.begin(data, bytes.size(), bytes.size(), why)) return failed(path);
  if (!loader.read_header(std::string_view(bytes).substr(8, loader.header_length()), why))
    return failed(path);
  for (Table table : {Table::Token, Table::Position})
    if (loader.table_bytes(table) != 0)
      std::memcpy(loader.table_buffer(table), data + loader.table_offset(table), loader.table_bytes(table));
  // (read_header() checked that every table lies inside the file.)
  if (config_json != nullptr && !loader.read_config(*config_json, why)) return failed("config.json");
  if (!loader.finish(out, why))
    return failed(loader.error_source() == ErrorSource::Config ? "config.json" : path);
  return true;
}

}  // namespace embeddings
