#include "rooflab/safetensors.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <stdexcept>
#include <tuple>
#include <utility>

namespace rooflab {
namespace {

using Json = nlohmann::json;

constexpr std::uint64_t kLengthBytes = 8;  // the header length before the header
constexpr const char* kMetadataKey = "__metadata__";
// The format nests three deep (the header, a tensor's entry, its shape); a
// header nested much deeper is an attack on the parser's memory, not a
// checkpoint. 128 leaves room for odd extra fields, and is the recursion
// limit of serde_json, the parser behind Hugging Face's reader.
constexpr int kMaxJsonDepth = 128;
// No tensor may hold more bytes than a signed 64-bit count: the stream
// offsets that read it and TensorInfo::elements are signed.
constexpr std::uint64_t kMaxTensorBytes = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());

static_assert(std::numeric_limits<float>::is_iec559, "the fp16 and bf16 conversions assume IEEE-754 floats");

struct DtypeSpelling {
  TensorDtype dtype;
  const char* name;
  std::size_t bytes;
};
constexpr std::array<DtypeSpelling, 10> kDtypes{{
    {TensorDtype::f32, "F32", 4},
    {TensorDtype::f16, "F16", 2},
    {TensorDtype::bf16, "BF16", 2},
    {TensorDtype::f64, "F64", 8},
    {TensorDtype::i64, "I64", 8},
    {TensorDtype::i32, "I32", 4},
    {TensorDtype::i16, "I16", 2},
    {TensorDtype::i8, "I8", 1},
    {TensorDtype::u8, "U8", 1},
    {TensorDtype::boolean, "BOOL", 1},
}};

const DtypeSpelling& spelling(TensorDtype dtype) {
  for (const DtypeSpelling& entry : kDtypes)
    if (entry.dtype == dtype) return entry;
  throw std::invalid_argument("rooflab::TensorDtype: no such dtype (" + std::to_string(static_cast<int>(dtype)) + ")");
}

std::optional<TensorDtype> parse_dtype(std::string_view name) {
  for (const DtypeSpelling& entry : kDtypes)
    if (name == entry.name) return entry.dtype;
  return std::nullopt;
}

std::string supported_dtypes() {
  std::string list;
  for (const DtypeSpelling& entry : kDtypes) list += (list.empty() ? "" : ", ") + std::string(entry.name);
  return list;
}

// ---- Messages: a hostile file chooses the names and values they quote, so
// they are escaped (no terminal control sequences) and cut short (a name can
// be megabytes long).

std::string in_quotes(std::string_view text) {
  constexpr std::size_t kMaxShown = 120;
  std::size_t shown = std::min(text.size(), kMaxShown);
  // Cut before a UTF-8 continuation byte, never through a character.
  while (shown < text.size() && shown > 0 && (static_cast<unsigned char>(text[shown]) & 0xc0) == 0x80) --shown;
  std::string out = "\"";
  for (const char c : text.substr(0, shown)) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (byte < 0x20 || byte == 0x7f) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\x%02x", byte);
      out += escaped;
    } else {
      out += c;
    }
  }
  out += '"';
  if (shown < text.size()) out += "… (" + std::to_string(text.size()) + " bytes)";
  return out;
}

// "tensor \"name\"", or the metadata's key as it is.
std::string entry_label(std::string_view key) {
  return key == kMetadataKey ? in_quotes(key) : "tensor " + in_quotes(key);
}

// A JSON value as a message shows it: scalars in full, containers by kind
// only (a hostile array could be the whole 100 MiB header).
std::string describe(const Json& value) {
  if (value.is_string()) return "the string " + in_quotes(value.get_ref<const std::string&>());
  if (value.is_number()) return "the number " + value.dump();
  if (value.is_array()) return "an array";
  if (value.is_object()) return "an object";
  return value.dump();  // null, true, false
}

std::string shape_text(const std::vector<std::int64_t>& shape) {
  std::string text = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) text += (i ? ", " : "") + std::to_string(shape[i]);
  return text + "]";
}

std::string range_text(std::uint64_t begin, std::uint64_t end) {
  // Appended piece by piece: GCC 12 at -O3 warns (-Wrestrict, wrongly) about "[" + std::to_string(…).
  std::string text = "[";
  text += std::to_string(begin);
  text += ", ";
  text += std::to_string(end);
  return text + "]";
}

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& problem) {
  throw std::runtime_error(path.string() + ": " + problem);
}

// ---- Sizes.

// The bytes a tensor of `shape` (entries >= 0) in `dtype` needs, or nothing
// when that is more than kMaxTensorBytes. Each step divides before it
// multiplies, so nothing wraps. Zero dimensions count as one here: a shape
// like [2^40, 2^40, 0] holds nothing, but code that multiplies its leading
// dimensions would overflow, so it is refused all the same.
std::optional<std::uint64_t> byte_count(const std::vector<std::int64_t>& shape, TensorDtype dtype) {
  std::uint64_t product = dtype_bytes(dtype);
  bool empty = false;
  for (const std::int64_t dimension : shape) {
    if (dimension == 0) {
      empty = true;
      continue;
    }
    const auto factor = static_cast<std::uint64_t>(dimension);
    if (product > kMaxTensorBytes / factor) return std::nullopt;
    product *= factor;
  }
  return empty ? 0 : product;
}

std::uint64_t read_little_endian(const unsigned char* bytes, std::size_t count) {
  std::uint64_t value = 0;
  for (std::size_t i = count; i-- > 0;) value = (value << 8) | bytes[i];
  return value;
}

void append_little_endian(std::vector<std::uint8_t>& out, std::uint64_t value, std::size_t count) {
  for (std::size_t i = 0; i < count; ++i) out.push_back(static_cast<std::uint8_t>(value >> (8 * i)));
}

// ---- The header's JSON.

// nlohmann's messages end with "; last read: '<the token so far>'", which
// for a bad string is the whole string: keep the description, drop the echo.
std::string json_error_text(const Json::exception& error) {
  std::string text = error.what();
  if (const std::size_t echo = text.find("; last read:"); echo != std::string::npos) text.erase(echo);
  if (const std::size_t tag = text.find("] "); text.rfind("[json.exception", 0) == 0 && tag != std::string::npos)
    text.erase(0, tag + 2);
  return text;
}

Json parse_header(const std::filesystem::path& path, const std::string& text) {
  // The parser's callback sees each key of the top-level object (depth 1)
  // before nlohmann would let a repeated one overwrite the first in silence.
  std::set<std::string, std::less<>> keys;
  const Json::parser_callback_t watch = [&](int depth, Json::parse_event_t event, Json& parsed) {
    if (depth > kMaxJsonDepth)
      fail(path,
           "the header nests deeper than " + std::to_string(kMaxJsonDepth) + " levels (a safetensors header needs 3)");
    if (depth == 1 && event == Json::parse_event_t::key) {
      const auto& key = parsed.get_ref<const std::string&>();
      if (!keys.insert(key).second) fail(path, entry_label(key) + " appears twice in the header");
    }
    return true;
  };
  try {
    return Json::parse(text.begin(), text.end(), watch);
  } catch (const Json::exception& error) {
    fail(path, "the header is not valid UTF-8 JSON: " + json_error_text(error));
  }
}

// What nlohmann's parser would let through and the format does not: a NUL
// ends its input early (so whatever follows would go unread), and it skips a
// byte-order mark. Like Hugging Face's reader, insist on '{' first.
void check_header_bytes(const std::filesystem::path& path, const std::string& text) {
  if (text.empty() || text.front() != '{') {
    std::string first = "nothing";
    if (!text.empty()) {
      const auto byte = static_cast<unsigned char>(text.front());
      char shown[16];
      std::snprintf(shown, sizeof shown, "byte 0x%02x", byte);
      first = byte > 0x20 && byte < 0x7f ? std::string{'\'', text.front(), '\''} : std::string(shown);
    }
    fail(path, "the header must be a JSON object, but it starts with " + first);
  }
  if (const std::size_t nul = text.find('\0'); nul != std::string::npos)
    fail(path, "the header has a NUL byte at offset " + std::to_string(nul) +
                   " (JSON has none; a header is padded with spaces)");
}

// A non-negative JSON integer, or nothing (for a float, a negative number or
// not a number). Non-negative integers arrive as unsigned, up to 2^64 - 1
// (beyond, nlohmann makes them floats); "-0" is a signed zero.
std::optional<std::uint64_t> as_unsigned(const Json& value) {
  if (value.is_number_unsigned()) return value.get<std::uint64_t>();
  if (value.is_number_integer() && value.get<std::int64_t>() == 0) return 0;
  return std::nullopt;
}

const Json& required_field(const std::filesystem::path& path, const std::string& label, const Json& entry,
                           const char* field) {
  const auto found = entry.find(field);
  if (found == entry.end()) fail(path, label + ": no \"" + field + "\"");
  return *found;
}

TensorDtype read_dtype(const std::filesystem::path& path, const std::string& label, const Json& entry) {
  const Json& dtype = required_field(path, label, entry, "dtype");
  if (!dtype.is_string()) fail(path, label + ": \"dtype\" is " + describe(dtype) + ", not a string");
  const auto& name = dtype.get_ref<const std::string&>();
  const std::optional<TensorDtype> parsed = parse_dtype(name);
  if (!parsed)
    fail(path, label + ": dtype " + in_quotes(name) + " is not one this reader supports (" + supported_dtypes() + ")");
  return *parsed;
}

std::vector<std::int64_t> read_shape(const std::filesystem::path& path, const std::string& label, const Json& entry) {
  const Json& shape = required_field(path, label, entry, "shape");
  if (!shape.is_array()) fail(path, label + ": \"shape\" is " + describe(shape) + ", not an array");
  std::vector<std::int64_t> dimensions;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    const std::optional<std::uint64_t> dimension = as_unsigned(shape[i]);
    const std::string where = label + ": \"shape\" entry " + std::to_string(i) + " is " + describe(shape[i]);
    if (!dimension) fail(path, where + ", not a non-negative integer");
    if (*dimension > kMaxTensorBytes) fail(path, where + ", more than 2^63 - 1");
    dimensions.push_back(static_cast<std::int64_t>(*dimension));
  }
  return dimensions;
}

std::pair<std::uint64_t, std::uint64_t> read_offsets(const std::filesystem::path& path, const std::string& label,
                                                     const Json& entry) {
  const Json& offsets = required_field(path, label, entry, "data_offsets");
  if (!offsets.is_array() || offsets.size() != 2)
    fail(path, label + ": \"data_offsets\" is " + describe(offsets) +
                   (offsets.is_array() ? " of length " + std::to_string(offsets.size()) : "") + ", not [begin, end]");
  std::array<std::uint64_t, 2> bounds{};
  for (std::size_t i = 0; i < 2; ++i) {
    const std::optional<std::uint64_t> bound = as_unsigned(offsets[i]);
    if (!bound)
      fail(path, label + ": \"data_offsets\" entry " + std::to_string(i) + " is " + describe(offsets[i]) +
                     ", not a non-negative integer");
    bounds[i] = *bound;
  }
  if (bounds[0] > bounds[1])
    fail(path, label + ": data_offsets " + range_text(bounds[0], bounds[1]) + " end before they begin");
  return {bounds[0], bounds[1]};
}

TensorInfo read_tensor(const std::filesystem::path& path, const std::string& name, const Json& entry,
                       std::uint64_t data_bytes) {
  const std::string label = entry_label(name);
  if (!entry.is_object()) fail(path, label + ": its entry is " + describe(entry) + ", not an object");
  TensorInfo tensor;
  tensor.name = name;
  tensor.dtype = read_dtype(path, label, entry);
  tensor.shape = read_shape(path, label, entry);
  std::tie(tensor.begin, tensor.end) = read_offsets(path, label, entry);

  const std::string layout = std::string(to_string(tensor.dtype)) + " of shape " + shape_text(tensor.shape);
  const std::optional<std::uint64_t> needed = byte_count(tensor.shape, tensor.dtype);
  if (!needed) fail(path, label + ": " + layout + " would need more than 2^63 - 1 bytes");
  const std::string offsets = "data_offsets " + range_text(tensor.begin, tensor.end);
  if (tensor.end - tensor.begin != *needed)
    fail(path, label + ": " + offsets + " hold " + std::to_string(tensor.end - tensor.begin) + " bytes but " + layout +
                   " needs " + std::to_string(*needed));
  if (tensor.end > data_bytes)
    fail(path, label + ": " + offsets + " run past the end of the data region, which holds " +
                   std::to_string(data_bytes) + " bytes (is the file truncated?)");
  return tensor;
}

std::map<std::string, std::string> read_metadata(const std::filesystem::path& path, const Json& entry) {
  const std::string label = in_quotes(kMetadataKey);
  if (!entry.is_object()) fail(path, label + " is " + describe(entry) + ", not an object of strings");
  std::map<std::string, std::string> metadata;
  for (const auto& [key, value] : entry.items()) {
    if (!value.is_string())
      fail(path, label + " entry " + in_quotes(key) + " is " + describe(value) + ", not a string");
    metadata.emplace(key, value.get<std::string>());
  }
  return metadata;
}

// The tensors (sorted by begin) must tile the data region: Hugging Face's
// reader refuses overlaps (two tensors writing one byte) and holes (bytes no
// tensor owns, where a hostile file could hide anything) alike.
void check_tiling(const std::filesystem::path& path, const std::vector<TensorInfo>& tensors, std::uint64_t data_bytes) {
  std::uint64_t covered = 0;  // the data region's bytes [0, covered) belong to the tensors so far
  const TensorInfo* previous = nullptr;
  for (const TensorInfo& tensor : tensors) {
    if (tensor.begin < covered)
      fail(path, entry_label(tensor.name) + ": data_offsets " + range_text(tensor.begin, tensor.end) + " overlap " +
                     entry_label(previous->name) + "'s " + range_text(previous->begin, previous->end));
    if (tensor.begin > covered) {
      const std::string gap = "bytes [" + std::to_string(covered) + ", " + std::to_string(tensor.begin) +
                              ") of the data region belong to no tensor: a hole ";
      if (previous)
        fail(path, gap + "between " + entry_label(previous->name) + " (ends at " + std::to_string(previous->end) +
                       ") and " + entry_label(tensor.name) + " (begins at " + std::to_string(tensor.begin) + ")");
      fail(path, gap + "before " + entry_label(tensor.name) + ", the first");
    }
    covered = tensor.end;
    previous = &tensor;
  }
  if (covered < data_bytes) {
    const std::string gap = "bytes [" + std::to_string(covered) + ", " + std::to_string(data_bytes) +
                            ") of the data region belong to no tensor: ";
    fail(path, gap + (previous ? "a hole after " + entry_label(previous->name) + ", the last" : "the header has none"));
  }
}

// ---- Float conversions.

float float_from_bits(std::uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

std::uint32_t bits_of(float value) {
  std::uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

// Rounded to nearest, ties to even. A cast alone would do it for values in
// float's range, but beyond it the cast is undefined behaviour: from halfway
// between FLT_MAX and 2^128 up, IEEE rounding gives infinity.
float double_to_float(double value) {
  constexpr double kHalfwayToOverflow = 0x1.ffffffp127;
  if (std::isfinite(value) && std::fabs(value) >= kHalfwayToOverflow)
    return std::signbit(value) ? -std::numeric_limits<float>::infinity() : std::numeric_limits<float>::infinity();
  return static_cast<float>(value);
}

// `value` shifted right by `shift` (1..31), rounded to nearest, ties to even.
std::uint32_t shift_right_rounding(std::uint32_t value, int shift) {
  const std::uint32_t kept = value >> shift;
  const std::uint32_t dropped = value & ((std::uint32_t{1} << shift) - 1);
  const std::uint32_t half = std::uint32_t{1} << (shift - 1);
  return kept + ((dropped > half || (dropped == half && (kept & 1))) ? 1 : 0);
}

std::vector<std::uint8_t> sixteen_bit_bytes(const std::vector<float>& values, std::uint16_t (*convert)(float)) {
  std::vector<std::uint8_t> bytes;
  bytes.reserve(values.size() * 2);
  for (const float value : values) append_little_endian(bytes, convert(value), 2);
  return bytes;
}

// UTF-8 as JSON needs it, checked the way the writer will fail on it.
bool is_valid_utf8(const std::string& text) {
  try {
    static_cast<void>(Json(text).dump());
    return true;
  } catch (const Json::type_error&) {
    return false;
  }
}

}  // namespace

std::size_t dtype_bytes(TensorDtype dtype) { return spelling(dtype).bytes; }

const char* to_string(TensorDtype dtype) { return spelling(dtype).name; }

std::int64_t TensorInfo::elements() const {
  std::int64_t product = 1;
  for (const std::int64_t dimension : shape) product *= dimension;
  return product;
}

// ---- The reader.

SafetensorsFile SafetensorsFile::open(const std::filesystem::path& path) {
  std::error_code error;
  const std::uint64_t file_bytes = std::filesystem::file_size(path, error);
  if (error) fail(path, "cannot read: " + error.message());
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(path, "cannot open for reading");
  if (file_bytes < kLengthBytes)
    fail(path, "the file is " + std::to_string(file_bytes) + " bytes, too short for the 8-byte header length");

  std::array<unsigned char, kLengthBytes> length_bytes{};
  if (!in.read(reinterpret_cast<char*>(length_bytes.data()), kLengthBytes))
    fail(path, "cannot read the 8-byte header length");
  const std::uint64_t header_bytes = read_little_endian(length_bytes.data(), kLengthBytes);
  const std::string length_text = "the header length " + std::to_string(header_bytes);
  if (header_bytes > kMaxHeaderBytes)
    fail(path, length_text + " is over the cap of " + std::to_string(kMaxHeaderBytes) + " bytes (100 MiB)");
  if (header_bytes > file_bytes - kLengthBytes)
    fail(path, length_text + " runs past the end of the file, which has " + std::to_string(file_bytes - kLengthBytes) +
                   " bytes after the length");

  std::string header_text(header_bytes, '\0');
  if (!in.read(header_text.data(), static_cast<std::streamsize>(header_bytes)))
    fail(path, "the file ended inside the header (it shrank while being opened)");
  check_header_bytes(path, header_text);
  const Json header = parse_header(path, header_text);

  SafetensorsFile file;
  file.path_ = path;
  file.data_start_ = kLengthBytes + header_bytes;
  const std::uint64_t data_bytes = file_bytes - file.data_start_;
  for (const auto& [key, entry] : header.items()) {
    if (key == kMetadataKey)
      file.metadata_ = read_metadata(path, entry);
    else
      file.tensors_.push_back(read_tensor(path, key, entry, data_bytes));
  }
  std::sort(file.tensors_.begin(), file.tensors_.end(), [](const TensorInfo& a, const TensorInfo& b) {
    return std::tie(a.begin, a.end, a.name) < std::tie(b.begin, b.end, b.name);
  });
  check_tiling(path, file.tensors_, data_bytes);
  for (std::size_t i = 0; i < file.tensors_.size(); ++i) file.index_.emplace(file.tensors_[i].name, i);
  return file;
}

const TensorInfo* SafetensorsFile::find(std::string_view name) const {
  const auto found = index_.find(name);
  return found == index_.end() ? nullptr : &tensors_[found->second];
}

const TensorInfo& SafetensorsFile::at(std::string_view name) const {
  if (const TensorInfo* tensor = find(name)) return *tensor;
  fail(path_, "no tensor " + in_quotes(name) + " (the file has " + std::to_string(tensors_.size()) + ")");
}

std::vector<std::uint8_t> SafetensorsFile::read_bytes(std::string_view name) const {
  const TensorInfo& tensor = at(name);
  const std::uint64_t size = tensor.end - tensor.begin;  // open checked it fits a signed count
  std::vector<std::uint8_t> bytes(size);
  if (size == 0) return bytes;
  std::ifstream in(path_, std::ios::binary);
  if (!in) fail(path_, entry_label(tensor.name) + ": cannot open the file again to read it");
  in.seekg(static_cast<std::streamoff>(data_start_ + tensor.begin));
  in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(size));
  const auto got = static_cast<std::uint64_t>(in.gcount());
  if (got != size)
    fail(path_, entry_label(tensor.name) + ": read only " + std::to_string(got) + " of its " + std::to_string(size) +
                    " bytes: the file is shorter than when it was opened");
  return bytes;
}

std::vector<float> SafetensorsFile::read_as_float(std::string_view name) const {
  const TensorInfo& tensor = at(name);
  const TensorDtype dtype = tensor.dtype;
  if (dtype != TensorDtype::f32 && dtype != TensorDtype::f16 && dtype != TensorDtype::bf16 && dtype != TensorDtype::f64)
    fail(path_, entry_label(tensor.name) + " is " + to_string(dtype) +
                    "; read_as_float converts only F32, F16, BF16 and F64 (read_bytes gives any tensor's bytes)");
  const std::vector<std::uint8_t> bytes = read_bytes(name);
  const std::size_t width = dtype_bytes(dtype);
  std::vector<float> values(bytes.size() / width);
  for (std::size_t i = 0; i < values.size(); ++i) {
    // Assembled from little-endian bytes, so that a big-endian host reads the same.
    const std::uint64_t bits = read_little_endian(bytes.data() + i * width, width);
    switch (dtype) {
      case TensorDtype::f32:
        values[i] = float_from_bits(static_cast<std::uint32_t>(bits));
        break;
      case TensorDtype::f16:
        values[i] = half_bits_to_float(static_cast<std::uint16_t>(bits));
        break;
      case TensorDtype::bf16:
        values[i] = bf16_bits_to_float(static_cast<std::uint16_t>(bits));
        break;
      default: {  // f64, rounded to nearest
        double wide;
        std::memcpy(&wide, &bits, sizeof wide);
        values[i] = double_to_float(wide);
      }
    }
  }
  return values;
}

// ---- The writer.

void write_safetensors(const std::filesystem::path& path, const std::vector<TensorToWrite>& tensors,
                       const std::map<std::string, std::string>& metadata) {
  Json header = Json::object();
  std::uint64_t offset = 0;
  for (const TensorToWrite& tensor : tensors) {
    const std::string label = entry_label(tensor.name);
    if (tensor.name == kMetadataKey) fail(path, "a tensor cannot be named " + in_quotes(kMetadataKey));
    if (!is_valid_utf8(tensor.name)) fail(path, label + ": the name is not valid UTF-8");
    if (header.contains(tensor.name)) fail(path, label + " is given twice");
    for (const std::int64_t dimension : tensor.shape)
      if (dimension < 0) fail(path, label + ": shape " + shape_text(tensor.shape) + " has a negative entry");
    const std::string layout = std::string(to_string(tensor.dtype)) + " of shape " + shape_text(tensor.shape);
    const std::optional<std::uint64_t> needed = byte_count(tensor.shape, tensor.dtype);
    if (!needed) fail(path, label + ": " + layout + " would need more than 2^63 - 1 bytes");
    if (tensor.bytes.size() != *needed)
      fail(path, label + ": " + std::to_string(tensor.bytes.size()) + " bytes given but " + layout + " needs " +
                     std::to_string(*needed));
    header[tensor.name] = {
        {"dtype", to_string(tensor.dtype)}, {"shape", tensor.shape}, {"data_offsets", {offset, offset + *needed}}};
    offset += *needed;
  }
  if (!metadata.empty()) {
    for (const auto& [key, value] : metadata)
      if (!is_valid_utf8(key) || !is_valid_utf8(value))
        fail(path, in_quotes(kMetadataKey) + " entry " + in_quotes(key) + " is not valid UTF-8");
    header[kMetadataKey] = metadata;
  }

  std::string text = header.dump();
  text.append((8 - text.size() % 8) % 8, ' ');  // the data region starts 8-byte aligned
  std::vector<std::uint8_t> length;
  append_little_endian(length, text.size(), kLengthBytes);

  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) fail(path, "cannot open for writing");
  out.write(reinterpret_cast<const char*>(length.data()), static_cast<std::streamsize>(length.size()));
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  for (const TensorToWrite& tensor : tensors)
    out.write(reinterpret_cast<const char*>(tensor.bytes.data()), static_cast<std::streamsize>(tensor.bytes.size()));
  out.close();
  if (!out) fail(path, "writing failed (is the disk full?)");
}

std::vector<std::uint8_t> float_bytes(const std::vector<float>& values) {
  std::vector<std::uint8_t> bytes;
  bytes.reserve(values.size() * 4);
  for (const float value : values) append_little_endian(bytes, bits_of(value), 4);
  return bytes;
}

std::vector<std::uint8_t> half_bytes(const std::vector<float>& values) {
  return sixteen_bit_bytes(values, float_to_half_bits);
}

std::vector<std::uint8_t> bf16_bytes(const std::vector<float>& values) {
  return sixteen_bit_bytes(values, float_to_bf16_bits);
}

// ---- fp16 and bf16 bits. fp16: 1 sign bit, 5 exponent bits (bias 15), 10
// mantissa bits; float: 1, 8 (bias 127), 23; bf16 is float's top 16 bits.

std::uint16_t float_to_half_bits(float value) {
  const std::uint32_t bits = bits_of(value);
  const auto sign = static_cast<std::uint16_t>((bits >> 16) & 0x8000);
  const std::uint32_t magnitude = bits & 0x7fffffff;
  if (magnitude > 0x7f800000)  // NaN: quiet, keeping the payload's top bits
    return static_cast<std::uint16_t>(sign | 0x7e00 | ((magnitude >> 13) & 0x3ff));
  if (magnitude >= 0x477ff000)  // >= 65520, halfway from fp16's largest (65504) to 2^16: rounds to infinity
    return static_cast<std::uint16_t>(sign | 0x7c00);
  if (magnitude >= 0x38800000) {  // >= 2^-14: a normal fp16. Rebias the exponent (127 -> 15) and round off
    // 13 mantissa bits; a carry out of the mantissa moves the exponent up, as it should.
    const std::uint32_t rebiased = magnitude - (std::uint32_t{112} << 23);
    return static_cast<std::uint16_t>(sign | shift_right_rounding(rebiased, 13));
  }
  if (magnitude <= 0x33000000)  // <= 2^-25, half of fp16's smallest subnormal: rounds (ties to even) to zero
    return sign;
  // A subnormal fp16 counts units of 2^-24. The float is significand * 2^(exponent - 150),
  // which is (significand >> (126 - exponent)) units; 126 - exponent lies in 14..24.
  const std::uint32_t exponent = magnitude >> 23;
  const std::uint32_t significand = (magnitude & 0x7fffff) | 0x800000;
  return static_cast<std::uint16_t>(sign | shift_right_rounding(significand, static_cast<int>(126 - exponent)));
}

float half_bits_to_float(std::uint16_t half) {
  const std::uint32_t sign = static_cast<std::uint32_t>(half & 0x8000) << 16;
  const std::uint32_t exponent = (half >> 10) & 0x1f;
  std::uint32_t mantissa = half & 0x3ff;
  if (exponent == 0x1f) return float_from_bits(sign | 0x7f800000 | (mantissa << 13));  // inf, NaN (payload kept)
  if (exponent != 0) return float_from_bits(sign | ((exponent + 112) << 23) | (mantissa << 13));
  if (mantissa == 0) return float_from_bits(sign);  // ±0
  // Subnormal: mantissa * 2^-24. Shift its leading one up to the implicit
  // bit's place (bit 10), lowering the exponent once per shift.
  std::uint32_t float_exponent = 113;  // 2^-14, the exponent of fp16's subnormals, biased for float
  while ((mantissa & 0x400) == 0) {
    mantissa <<= 1;
    --float_exponent;
  }
  return float_from_bits(sign | (float_exponent << 23) | ((mantissa & 0x3ff) << 13));
}

std::uint16_t float_to_bf16_bits(float value) {
  const std::uint32_t bits = bits_of(value);
  if ((bits & 0x7fffffff) > 0x7f800000)  // NaN: quiet; rounding could carry it into infinity
    return static_cast<std::uint16_t>((bits >> 16) | 0x0040);
  // Round off 16 bits; a carry moves the exponent up, up to infinity, as it should.
  return static_cast<std::uint16_t>(shift_right_rounding(bits, 16));
}

float bf16_bits_to_float(std::uint16_t bits) { return float_from_bits(static_cast<std::uint32_t>(bits) << 16); }

}  // namespace rooflab
