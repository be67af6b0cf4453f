#include "embeddings/formats/safetensors.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include "embeddings/common/merge_sort.h"
#include "embeddings/common/message.h"
#include "embeddings/formats/json.h"

namespace embeddings::safetensors {

namespace {

struct DTypeEntry {
  DType dtype;
  const char* name;
  std::size_t size;
};

constexpr DTypeEntry kDTypes[] = {
    {DType::Bool, "BOOL", 1},       {DType::U8, "U8", 1},           {DType::I8, "I8", 1},
    {DType::F8_E5M2, "F8_E5M2", 1}, {DType::F8_E4M3, "F8_E4M3", 1}, {DType::I16, "I16", 2},
    {DType::U16, "U16", 2},         {DType::F16, "F16", 2},         {DType::BF16, "BF16", 2},
    {DType::I32, "I32", 4},         {DType::U32, "U32", 4},         {DType::F32, "F32", 4},
    {DType::F64, "F64", 8},         {DType::I64, "I64", 8},         {DType::U64, "U64", 8},
};

bool checked_multiply(std::uint64_t a, std::uint64_t b, std::uint64_t& out) {
  if (a != 0 && b > std::numeric_limits<std::uint64_t>::max() / a) return false;
  out = a * b;
  return true;
}

bool parse_tensor(const std::string& name, const json::Value& entry, std::uint64_t data_size, TensorInfo& out,
                  std::string& error) {
  const std::string where = "tensor " + quote(name);
  if (!entry.is_object()) {
    error = where + " is " + json::type_name(entry.type) + ", not an object";
    return false;
  }
  const json::Value* dtype = entry.find("dtype");
  const json::Value* shape = entry.find("shape");
  const json::Value* offsets = entry.find("data_offsets");
  if (dtype == nullptr || !dtype->is_string()) {
    error = where + " has no \"dtype\" string";
    return false;
  }
  if (!parse_dtype(dtype->text, out.dtype)) {
    error = where + " has unknown dtype " + quote(dtype->text);
    return false;
  }
  if (shape == nullptr || !shape->is_array()) {
    error = where + " has no \"shape\" array";
    return false;
  }
  if (offsets == nullptr || !offsets->is_array() || offsets->items.size() != 2) {
    error = where + " has no \"data_offsets\" pair [begin, end]";
    return false;
  }
  out.name = name;
  out.shape.clear();
  std::uint64_t elements = 1;
  for (const json::Value& dim : shape->items) {
    std::uint64_t size = 0;
    if (!dim.as_uint64(size)) {
      error = where + " has a shape entry that is not a non-negative integer";
      return false;
    }
    if (!checked_multiply(elements, size, elements)) {
      error = where + " has a shape whose element count overflows";
      return false;
    }
    out.shape.push_back(size);
  }
  std::uint64_t begin = 0, end = 0;
  if (!offsets->items[0].as_uint64(begin) || !offsets->items[1].as_uint64(end)) {
    error = where + " has data_offsets that are not non-negative integers";
    return false;
  }
  if (end < begin) {
    error = where + " has data_offsets that end before they begin";
    return false;
  }
  if (end > data_size) {
    error = where + " has data_offsets [" + std::to_string(begin) + ", " + std::to_string(end) +
            "] past the end of the data (" + std::to_string(data_size) + " bytes; is the file truncated?)";
    return false;
  }
  std::uint64_t expected_bytes = 0;
  if (!checked_multiply(elements, dtype_size(out.dtype), expected_bytes) || expected_bytes != end - begin) {
    error = where + " has " + std::to_string(end - begin) + " bytes of data but its shape and dtype need " +
            std::to_string(elements) + " × " + std::to_string(dtype_size(out.dtype));
    return false;
  }
  out.element_count = elements;
  out.file_offset = begin;  // Made absolute by the caller.
  out.byte_length = end - begin;
  return true;
}

}  // namespace

bool parse_dtype(std::string_view name, DType& out) {
  for (const auto& entry : kDTypes) {
    if (name == entry.name) {
      out = entry.dtype;
      return true;
    }
  }
  return false;
}

const char* dtype_name(DType dtype) {
  for (const auto& entry : kDTypes)
    if (entry.dtype == dtype) return entry.name;
  return "?";
}

std::size_t dtype_size(DType dtype) {
  for (const auto& entry : kDTypes)
    if (entry.dtype == dtype) return entry.size;
  return 1;
}

const TensorInfo* Header::find(std::string_view name) const {
  for (const auto& tensor : tensors)
    if (tensor.name == name) return &tensor;
  return nullptr;
}

std::uint64_t Header::element_count() const {
  std::uint64_t total = 0;
  for (const auto& tensor : tensors) total += tensor.element_count;  // Bounded by the file size.
  return total;
}

bool read_header_length(const unsigned char* first_bytes, std::size_t available, std::uint64_t file_size,
                        std::uint64_t& header_length, std::string& error) {
  if (file_size < 8 || available < 8) {
    error = "the file is " + std::to_string(file_size) +
            " bytes long, too short to hold the 8-byte header length";
    return false;
  }
  std::uint64_t length = 0;
  for (int i = 7; i >= 0; --i) length = (length << 8) | first_bytes[i];
  if (length > kMaxHeaderBytes) {
    error = "the header length is " + std::to_string(length) + " bytes, more than the format's limit of " +
            std::to_string(kMaxHeaderBytes);
    return false;
  }
  if (length > file_size - 8) {
    error = "the header length is " + std::to_string(length) + " bytes but the file has only " +
            std::to_string(file_size - 8) + " bytes after the length";
    return false;
  }
  if (length < 2) {
    error = "the header length is " + std::to_string(length) + " bytes, too short for a JSON object";
    return false;
  }
  header_length = length;
  return true;
}

bool parse_header(std::string_view header_json, std::uint64_t file_size, Header& out, std::string& error) {
  const std::uint64_t header_length = header_json.size();
  if (file_size < 8 || header_length > file_size - 8) {
    error = "the header does not fit in the file";
    return false;
  }
  if (header_json.empty() || header_json[0] != '{') {
    error = "the header does not start with '{'";
    return false;
  }
  json::Value root;
  std::string json_error;
  if (!json::parse(header_json, root, json_error)) {
    error = "the header is not valid JSON: " + json_error;
    return false;
  }
  if (!root.is_object()) {
    error = "the header is not a JSON object";
    return false;
  }
  Header header;
  header.header_length = header_length;
  header.data_start = 8 + header_length;
  header.file_size = file_size;
  const std::uint64_t data_size = file_size - header.data_start;
  for (const auto& [name, entry] : root.members) {
    if (name == "__metadata__") {
      if (!entry.is_object()) {
        error = "__metadata__ is not an object";
        return false;
      }
      for (const auto& [key, value] : entry.members) {
        if (!value.is_string()) {
          error = "__metadata__ entry " + quote(key) + " is not a string";
          return false;
        }
        header.metadata.emplace_back(key, value.text);
      }
      continue;
    }
    TensorInfo tensor;
    if (!parse_tensor(name, entry, data_size, tensor, error)) return false;
    header.tensors.push_back(std::move(tensor));
  }
  // The data section must be tiled exactly: sort by begin and walk.
  std::vector<const TensorInfo*> by_offset;
  by_offset.reserve(header.tensors.size());
  for (const auto& tensor : header.tensors) by_offset.push_back(&tensor);
  merge_sort(by_offset, [](const TensorInfo* a, const TensorInfo* b) {
    return a->file_offset < b->file_offset ||
           (a->file_offset == b->file_offset && a->byte_length < b->byte_length);
  });
  std::uint64_t expected_begin = 0;
  for (const TensorInfo* tensor : by_offset) {
    if (tensor->file_offset < expected_begin) {
      error = "tensor " + quote(tensor->name) + " overlaps the tensor before it in the data";
      return false;
    }
    if (tensor->file_offset > expected_begin) {
      error = "the data has a gap of " + std::to_string(tensor->file_offset - expected_begin) +
              " bytes before tensor " + quote(tensor->name);
      return false;
    }
    expected_begin = tensor->file_offset + tensor->byte_length;
  }
  if (expected_begin != data_size) {
    error = "the tensors cover " + std::to_string(expected_begin) + " bytes but the data section has " +
            std::to_string(data_size) + " (the file is truncated or has trailing bytes)";
    return false;
  }
  for (auto& tensor : header.tensors) tensor.file_offset += header.data_start;
  out = std::move(header);
  return true;
}

}  // namespace embeddings::safetensors
