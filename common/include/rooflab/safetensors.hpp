// Reading and writing safetensors checkpoints (Hugging Face's format: an
// 8-byte little-endian header length N, N bytes of JSON that name each
// tensor's dtype, shape and byte range, then the tensors' bytes), for the
// course's model loaders and for the tools that make small test checkpoints.
//
// A checkpoint is input from the internet, so the reader trusts nothing in
// it: SafetensorsFile::open checks the whole header before it hands out a
// single tensor (every field's type, every size against the file's, every
// byte range against the others), and each problem is a std::runtime_error
// whose message starts with the file's path and names the tensor or field at
// fault. It is at least as strict as Hugging Face's own Rust reader (and
// reads only the dtypes below): in particular the tensors' byte ranges must
// tile the data region exactly, with no overlap and no hole, and a tensor
// named twice is refused rather than the first silently dropped.
//
//   const auto file = rooflab::SafetensorsFile::open("model.safetensors");
//   const std::vector<float> weight = file.read_as_float("h.0.attn.c_attn.weight");
//   const auto& shape = file.at("h.0.attn.c_attn.weight").shape;
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace rooflab {

// The dtypes the course reads and writes. The format has others (U16, U32,
// U64, the 8-, 6- and 4-bit floats, complex): a file that uses one is refused
// at open with a message that names the tensor and the dtype.
enum class TensorDtype { f32, f16, bf16, f64, i64, i32, i16, i8, u8, boolean };

std::size_t dtype_bytes(TensorDtype dtype);
const char* to_string(TensorDtype dtype);  // the file's spelling: "F32", "BF16", "BOOL" …

// One tensor of a file, as its header describes it.
struct TensorInfo {
  std::string name;
  TensorDtype dtype = TensorDtype::f32;
  std::vector<std::int64_t> shape;   // empty for a scalar
  std::uint64_t begin = 0, end = 0;  // [begin, end) in the data region (after the header)

  // The product of the shape (1 for a scalar). For a TensorInfo from
  // SafetensorsFile this cannot overflow: open checked that it fits.
  std::int64_t elements() const;
};

class SafetensorsFile {
 public:
  // The largest header open accepts (Hugging Face's reader caps it at 100 MB,
  // this one at 100 MiB): a header is the only part of the file read whole
  // into memory, before any check could say it is absurd.
  static constexpr std::uint64_t kMaxHeaderBytes = std::uint64_t{100} << 20;

  // Reads and checks the header; keeps `path` to read tensors from later.
  static SafetensorsFile open(const std::filesystem::path& path);

  const std::filesystem::path& path() const { return path_; }
  const std::vector<TensorInfo>& tensors() const { return tensors_; }  // sorted by begin
  const TensorInfo* find(std::string_view name) const;                 // nullptr when absent
  const TensorInfo& at(std::string_view name) const;                   // throws naming the file and the tensor
  // The header's "__metadata__" (string keys to string values; empty when absent).
  std::map<std::string, std::string> metadata() const { return metadata_; }

  // The tensor's bytes as stored (little-endian, row-major). Throws when the
  // tensor is absent or the file has shrunk since open.
  std::vector<std::uint8_t> read_bytes(std::string_view name) const;
  // The tensor converted to float: F32 as is, F16 and BF16 exactly, F64
  // rounded to nearest. Any other dtype throws, naming the tensor and dtype.
  std::vector<float> read_as_float(std::string_view name) const;

 private:
  SafetensorsFile() = default;

  std::filesystem::path path_;
  std::uint64_t data_start_ = 0;  // 8 + the header's length: where offset 0 of the data region is
  std::vector<TensorInfo> tensors_;
  std::map<std::string, std::size_t, std::less<>> index_;  // name -> position in tensors_
  std::map<std::string, std::string> metadata_;
};

// One tensor for write_safetensors: its bytes as the file stores them
// (float_bytes, half_bytes and bf16_bytes make them from floats).
struct TensorToWrite {
  std::string name;
  TensorDtype dtype = TensorDtype::f32;
  std::vector<std::int64_t> shape;
  std::vector<std::uint8_t> bytes;
};

// Writes a file SafetensorsFile::open accepts: the tensors' bytes back to
// back in the order given, and the header padded with spaces to a multiple of
// 8 bytes, as Hugging Face's writer pads it, so that the data region starts
// aligned. Throws (naming the file and the tensor) when a tensor's bytes do
// not match its dtype and shape, a name repeats or is "__metadata__", or the
// file cannot be written.
void write_safetensors(const std::filesystem::path& path, const std::vector<TensorToWrite>& tensors,
                       const std::map<std::string, std::string>& metadata = {});

// Little-endian bytes of floats stored as F32, F16 and BF16 (the 16-bit ones
// rounded to nearest, ties to even).
std::vector<std::uint8_t> float_bytes(const std::vector<float>& values);
std::vector<std::uint8_t> half_bytes(const std::vector<float>& values);
std::vector<std::uint8_t> bf16_bytes(const std::vector<float>& values);

// IEEE binary16 and bfloat16 bit patterns. To the 16-bit formats: round to
// nearest, ties to even, overflow to infinity, subnormals kept, a NaN stays a
// (quiet) NaN. From them: exact, every pattern.
std::uint16_t float_to_half_bits(float value);
std::uint16_t float_to_bf16_bits(float value);
float half_bits_to_float(std::uint16_t bits);
float bf16_bits_to_float(std::uint16_t bits);

}  // namespace rooflab
