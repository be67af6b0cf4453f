// Reading the safetensors format (https://huggingface.co/docs/safetensors):
//
//   [8 bytes: N, little-endian u64][N bytes: JSON header][data]
//
// The header maps tensor names to {dtype, shape, data_offsets: [begin, end]}
// with offsets relative to the start of the data. The reader is split in two
// steps so a caller can fetch only what it needs (a browser fetches the
// header, then the two embedding tables, with HTTP range requests):
//   1. read_header_length(first 8 bytes, file size) -> N
//   2. parse_header(header bytes, file size) -> the tensor directory
// Both distrust their input completely: every size, offset and shape is
// checked against the file size, with overflow checks, before anyone reads
// a byte of tensor data.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace embeddings::safetensors {

// The safetensors reference implementation refuses headers above 100 MB;
// so do we, so a hostile length is never allocated.
inline constexpr std::uint64_t kMaxHeaderBytes = 100'000'000;

enum class DType { Bool, U8, I8, F8_E5M2, F8_E4M3, I16, U16, F16, BF16, I32, U32, F32, F64, I64, U64 };

// Parses a dtype name ("F32", "BF16", ...). False for names the format does not define.
bool parse_dtype(std::string_view name, DType& out);
const char* dtype_name(DType dtype);
std::size_t dtype_size(DType dtype);

struct TensorInfo {
  std::string name;
  DType dtype = DType::F32;
  std::vector<std::uint64_t> shape;
  std::uint64_t element_count = 0;
  std::uint64_t file_offset = 0;  // Absolute: 8 + header length + data_offsets[0].
  std::uint64_t byte_length = 0;  // data_offsets[1] - data_offsets[0].
};

struct Header {
  std::uint64_t header_length = 0;
  std::uint64_t data_start = 0;  // 8 + header_length.
  std::uint64_t file_size = 0;
  std::vector<TensorInfo> tensors;                            // In header order.
  std::vector<std::pair<std::string, std::string>> metadata;  // "__metadata__", string to string.

  const TensorInfo* find(std::string_view name) const;
  // Total number of elements over all tensors.
  std::uint64_t element_count() const;
};

// Step 1. `first_bytes` holds the first min(8, file_size) bytes of the file.
bool read_header_length(const unsigned char* first_bytes, std::size_t available, std::uint64_t file_size,
                        std::uint64_t& header_length, std::string& error);

// Step 2. `header_json` is bytes [8, 8 + header_length) of a file of `file_size` bytes.
// Checks, in the reference implementation's terms: the header is a JSON
// object (padding with trailing spaces allowed), every tensor has a known
// dtype, a shape of non-negative integers and data_offsets [begin, end] with
// end - begin == elements × dtype size (no overflow), and the tensors tile
// the data section exactly: no gaps, no overlaps, nothing past its end.
bool parse_header(std::string_view header_json, std::uint64_t file_size, Header& out, std::string& error);

}  // namespace embeddings::safetensors
