#include "rooflab/safetensors.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "rooflab/temp_folder_testing.hpp"

namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

std::uint32_t bits_of(float value) {
  std::uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

bool is_half_nan(std::uint16_t bits) { return (bits & 0x7c00) == 0x7c00 && (bits & 0x3ff) != 0; }
bool is_bf16_nan(std::uint16_t bits) { return (bits & 0x7f80) == 0x7f80 && (bits & 0x7f) != 0; }

// The value of an fp16 pattern from its definition (in double, exact), not
// from the bit manipulation under test; infinity and NaN aside.
double half_value_by_definition(std::uint16_t bits) {
  const int exponent = (bits >> 10) & 0x1f;
  const int mantissa = bits & 0x3ff;
  const double magnitude = exponent == 0 ? std::ldexp(mantissa, -24) : std::ldexp(1024 + mantissa, exponent - 25);
  return (bits & 0x8000) ? -magnitude : magnitude;
}

double bf16_value_by_definition(std::uint16_t bits) {
  const int exponent = (bits >> 7) & 0xff;
  const int mantissa = bits & 0x7f;
  const double magnitude = exponent == 0 ? std::ldexp(mantissa, -133) : std::ldexp(128 + mantissa, exponent - 134);
  return (bits & 0x8000) ? -magnitude : magnitude;
}

// ---- fp16 and bf16 conversions.

TEST(Safetensors, HalfToFloatIsExactForEveryPattern) {
  for (std::uint32_t pattern = 0; pattern <= 0xffff; ++pattern) {
    const auto bits = static_cast<std::uint16_t>(pattern);
    const float value = rooflab::half_bits_to_float(bits);
    if (is_half_nan(bits)) {
      EXPECT_TRUE(std::isnan(value)) << std::hex << pattern;
    } else if ((bits & 0x7fff) == 0x7c00) {
      EXPECT_EQ(value, (bits & 0x8000) ? -INFINITY : INFINITY) << std::hex << pattern;
    } else {
      EXPECT_EQ(static_cast<double>(value), half_value_by_definition(bits)) << std::hex << pattern;
      EXPECT_EQ(std::signbit(value), (bits & 0x8000) != 0) << std::hex << pattern;  // -0 stays -0
    }
  }
}

TEST(Safetensors, HalfRoundTripsEveryPattern) {
  for (std::uint32_t pattern = 0; pattern <= 0xffff; ++pattern) {
    const auto bits = static_cast<std::uint16_t>(pattern);
    const std::uint16_t again = rooflab::float_to_half_bits(rooflab::half_bits_to_float(bits));
    if (is_half_nan(bits)) {
      EXPECT_TRUE(is_half_nan(again)) << std::hex << pattern << " came back as " << again;
    } else {
      EXPECT_EQ(again, bits) << std::hex << pattern;
    }
  }
}

// Between each two neighbouring fp16 values, the midpoint goes to the one
// with an even mantissa and the floats either side of it to the nearer one.
TEST(Safetensors, FloatToHalfRoundsToNearestEven) {
  for (std::uint16_t lower = 0; lower <= 0x7bff; ++lower) {
    const auto upper = static_cast<std::uint16_t>(lower + 1);  // 0x7c00 (infinity) above the largest, 65504
    const double upper_value = upper == 0x7c00 ? 65536.0 : half_value_by_definition(upper);
    const auto midpoint = static_cast<float>((half_value_by_definition(lower) + upper_value) / 2);  // exact
    const std::uint16_t even = (lower & 1) ? upper : lower;
    for (const float sign : {1.0f, -1.0f}) {
      const std::uint16_t sign_bit = sign < 0 ? 0x8000 : 0;
      const float at = sign * midpoint;
      EXPECT_EQ(rooflab::float_to_half_bits(at), even | sign_bit) << at;
      EXPECT_EQ(rooflab::float_to_half_bits(std::nextafter(at, 0.0f)), lower | sign_bit) << at;
      EXPECT_EQ(rooflab::float_to_half_bits(std::nextafter(at, sign * INFINITY)), upper | sign_bit) << at;
    }
  }
  EXPECT_EQ(rooflab::float_to_half_bits(std::numeric_limits<float>::max()), 0x7c00);
  EXPECT_EQ(rooflab::float_to_half_bits(-INFINITY), 0xfc00);
  EXPECT_EQ(rooflab::float_to_half_bits(std::numeric_limits<float>::denorm_min()), 0x0000);
  // A NaN whose payload lies only in bits fp16 drops must not become infinity.
  float low_payload_nan;
  const std::uint32_t nan_bits = 0x7f800001;
  std::memcpy(&low_payload_nan, &nan_bits, sizeof nan_bits);
  EXPECT_TRUE(is_half_nan(rooflab::float_to_half_bits(low_payload_nan)));
}

TEST(Safetensors, Bf16IsExactAndRoundTripsEveryPattern) {
  for (std::uint32_t pattern = 0; pattern <= 0xffff; ++pattern) {
    const auto bits = static_cast<std::uint16_t>(pattern);
    const float value = rooflab::bf16_bits_to_float(bits);
    const std::uint16_t again = rooflab::float_to_bf16_bits(value);
    if (is_bf16_nan(bits)) {
      EXPECT_TRUE(std::isnan(value) && is_bf16_nan(again)) << std::hex << pattern;
      continue;
    }
    EXPECT_EQ(again, bits) << std::hex << pattern;
    if ((bits & 0x7fff) != 0x7f80) {
      EXPECT_EQ(static_cast<double>(value), bf16_value_by_definition(bits)) << std::hex << pattern;
    }
  }
}

TEST(Safetensors, FloatToBf16RoundsToNearestEven) {
  for (std::uint16_t lower = 0; lower <= 0x7f7f; ++lower) {
    const auto upper = static_cast<std::uint16_t>(lower + 1);  // 0x7f80 (infinity) above the largest
    const double upper_value = upper == 0x7f80 ? std::ldexp(1.0, 128) : bf16_value_by_definition(upper);
    const auto midpoint = static_cast<float>((bf16_value_by_definition(lower) + upper_value) / 2);
    const std::uint16_t even = (lower & 1) ? upper : lower;
    EXPECT_EQ(rooflab::float_to_bf16_bits(midpoint), even) << midpoint;
    EXPECT_EQ(rooflab::float_to_bf16_bits(std::nextafter(midpoint, 0.0f)), lower) << midpoint;
    EXPECT_EQ(rooflab::float_to_bf16_bits(std::nextafter(midpoint, INFINITY)), upper) << midpoint;
    EXPECT_EQ(rooflab::float_to_bf16_bits(-midpoint), even | 0x8000) << midpoint;
  }
  float low_payload_nan;
  const std::uint32_t nan_bits = 0xff800001;
  std::memcpy(&low_payload_nan, &nan_bits, sizeof nan_bits);
  EXPECT_TRUE(is_bf16_nan(rooflab::float_to_bf16_bits(low_payload_nan)));
}

// ---- Files. Each test writes into its own temporary folder, removed after.

class SafetensorsFiles : public ::testing::Test {
 protected:
  std::filesystem::path file(const std::string& name) const { return folder_.path() / name; }

  // A file byte by byte: the 8-byte little-endian length (the header's own,
  // unless `length` says otherwise), the header, the data.
  std::filesystem::path raw_file(const std::string& header, const std::string& data = "",
                                 std::uint64_t length = std::numeric_limits<std::uint64_t>::max()) const {
    if (length == std::numeric_limits<std::uint64_t>::max()) length = header.size();
    std::string bytes;
    for (int i = 0; i < 8; ++i) bytes += static_cast<char>((length >> (8 * i)) & 0xff);
    bytes += header + data;
    const std::filesystem::path path = file("raw-" + std::to_string(serial_++) + ".safetensors");
    std::ofstream(path, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    return path;
  }

  // The message open throws for `path` ("" and a failure when it opens).
  static std::string open_error(const std::filesystem::path& path) {
    try {
      rooflab::SafetensorsFile::open(path);
    } catch (const std::runtime_error& error) {
      return error.what();
    }
    ADD_FAILURE() << path << " opened, but should have been refused";
    return "";
  }

  // Opening a file with this header and data fails, with a message that
  // starts with the file's path and contains each of `parts`.
  void expect_refused(const std::string& header, const std::string& data, const std::vector<std::string>& parts) {
    const std::filesystem::path path = raw_file(header, data);
    const std::string message = open_error(path);
    EXPECT_THAT(message, StartsWith(path.string() + ": ")) << "header: " << header;
    for (const std::string& part : parts) EXPECT_THAT(message, HasSubstr(part)) << "header: " << header;
  }

 private:
  rooflab::testing::TempFolder folder_{"safetensors"};
  mutable int serial_ = 0;
};

TEST_F(SafetensorsFiles, RoundTripsF32WithMetadata) {
  const std::vector<float> weight = {1.5f, -2.25f, 3e-40f, INFINITY, -0.0f, 65504.0f};
  const std::vector<float> bias = {0.1f, 0.2f, 0.3f};
  const std::vector<float> scale = {42.0f};
  const std::filesystem::path path = file("f32.safetensors");
  rooflab::write_safetensors(path,
                             {{"weight", rooflab::TensorDtype::f32, {2, 3}, rooflab::float_bytes(weight)},
                              {"bias", rooflab::TensorDtype::f32, {3}, rooflab::float_bytes(bias)},
                              {"empty", rooflab::TensorDtype::f32, {0, 4}, {}},
                              {"scale", rooflab::TensorDtype::f32, {}, rooflab::float_bytes(scale)}},
                             {{"format", "pt"}, {"note", "héllo"}});

  const auto checkpoint = rooflab::SafetensorsFile::open(path);
  ASSERT_EQ(checkpoint.tensors().size(), 4u);
  // Sorted by begin: the order they were written in, the empty one at its offset.
  EXPECT_EQ(checkpoint.tensors()[0].name, "weight");
  EXPECT_EQ(checkpoint.tensors()[1].name, "bias");
  EXPECT_EQ(checkpoint.tensors()[2].name, "empty");
  EXPECT_EQ(checkpoint.tensors()[3].name, "scale");
  EXPECT_EQ(checkpoint.at("weight").shape, (std::vector<std::int64_t>{2, 3}));
  EXPECT_EQ(checkpoint.at("weight").elements(), 6);
  EXPECT_EQ(checkpoint.at("bias").begin, 24u);
  EXPECT_EQ(checkpoint.at("bias").end, 36u);
  EXPECT_EQ(checkpoint.at("empty").elements(), 0);
  EXPECT_EQ(checkpoint.at("scale").elements(), 1);
  EXPECT_EQ(checkpoint.metadata(), (std::map<std::string, std::string>{{"format", "pt"}, {"note", "héllo"}}));

  const std::vector<float> read = checkpoint.read_as_float("weight");
  ASSERT_EQ(read.size(), weight.size());
  for (std::size_t i = 0; i < read.size(); ++i) EXPECT_EQ(bits_of(read[i]), bits_of(weight[i])) << i;
  EXPECT_EQ(checkpoint.read_as_float("bias"), bias);
  EXPECT_EQ(checkpoint.read_as_float("scale"), scale);
  EXPECT_TRUE(checkpoint.read_as_float("empty").empty());
  EXPECT_EQ(checkpoint.read_bytes("bias"), rooflab::float_bytes(bias));

  // The header is padded to a multiple of 8, so the data region starts aligned.
  std::ifstream in(path, std::ios::binary);
  unsigned char length[8];
  in.read(reinterpret_cast<char*>(length), 8);
  EXPECT_EQ(length[0] % 8, 0);
}

TEST_F(SafetensorsFiles, RoundTripsF16AndBf16AsTheRoundedValues) {
  // Ties (1 + 2^-11 in fp16, 1 + 2^-8 in bf16) go to even; 1e-6 is an fp16 subnormal; 1e5 is beyond fp16.
  const std::vector<float> values = {1.0f + 0x1p-11f, 1.0f + 0x1p-8f, 1e-6f, -3.14159f, 1e5f, 0.1f, -0.0f, 7.0f};
  const std::filesystem::path path = file("sixteen.safetensors");
  rooflab::write_safetensors(path, {{"h", rooflab::TensorDtype::f16, {2, 4}, rooflab::half_bytes(values)},
                                    {"b", rooflab::TensorDtype::bf16, {8}, rooflab::bf16_bytes(values)}});
  const auto checkpoint = rooflab::SafetensorsFile::open(path);
  const std::vector<float> halves = checkpoint.read_as_float("h");
  const std::vector<float> brains = checkpoint.read_as_float("b");
  ASSERT_EQ(halves.size(), values.size());
  ASSERT_EQ(brains.size(), values.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    EXPECT_EQ(bits_of(halves[i]), bits_of(rooflab::half_bits_to_float(rooflab::float_to_half_bits(values[i])))) << i;
    EXPECT_EQ(bits_of(brains[i]), bits_of(rooflab::bf16_bits_to_float(rooflab::float_to_bf16_bits(values[i])))) << i;
  }
  EXPECT_EQ(halves[0], 1.0f);
  EXPECT_EQ(brains[1], 1.0f);
  EXPECT_EQ(halves[4], INFINITY);
  EXPECT_EQ(brains[4], 99840.0f);  // 1e5 to bf16's 8 significant bits
  EXPECT_GT(halves[2], 0.0f);
  EXPECT_LT(halves[2], 0x1p-14f);  // a subnormal, kept
}

TEST_F(SafetensorsFiles, ReadsF64AndRefusesToConvertIntegers) {
  std::vector<std::uint8_t> doubles;
  // 0x1.fffffefp127 lies just under halfway from FLT_MAX to 2^128, and rounds down; halfway rounds up to infinity.
  for (const double value : {0.5, 1e300, -1.0 / 3, 0x1.fffffefp127, -0x1.ffffffp127}) {
    std::uint64_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    for (int i = 0; i < 8; ++i) doubles.push_back(static_cast<std::uint8_t>(bits >> (8 * i)));
  }
  const std::vector<std::uint8_t> ints = {1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff};
  const std::filesystem::path path = file("mixed.safetensors");
  rooflab::write_safetensors(path, {{"d", rooflab::TensorDtype::f64, {5}, doubles},
                                    {"counts", rooflab::TensorDtype::i32, {2}, ints},
                                    {"mask", rooflab::TensorDtype::boolean, {2}, {1, 0}}});
  const auto checkpoint = rooflab::SafetensorsFile::open(path);
  EXPECT_EQ(checkpoint.read_as_float("d"), (std::vector<float>{0.5f, INFINITY, static_cast<float>(-1.0 / 3),
                                                               std::numeric_limits<float>::max(), -INFINITY}));
  EXPECT_EQ(checkpoint.read_bytes("counts"), ints);
  EXPECT_EQ(checkpoint.read_bytes("mask"), (std::vector<std::uint8_t>{1, 0}));
  try {
    checkpoint.read_as_float("counts");
    ADD_FAILURE() << "read_as_float converted an I32 tensor";
  } catch (const std::runtime_error& error) {
    EXPECT_THAT(error.what(), StartsWith(path.string() + ": "));
    EXPECT_THAT(error.what(), HasSubstr("tensor \"counts\" is I32"));
  }
}

// A file made byte by byte, as another writer might lay it out: tensors out
// of order in the header, metadata, and a header padded with spaces to a
// length that is not a multiple of 8.
TEST_F(SafetensorsFiles, ReadsAFileWrittenByteByByte) {
  const std::string header = R"({"b":{"dtype":"F16","shape":[2],"data_offsets":[4,8]},)"
                             R"("__metadata__":{"format":"pt"},)"
                             R"("a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},)"
                             R"("c":{"dtype":"BF16","shape":[1,1],"data_offsets":[8,10]}}     )";
  const std::string data = std::string("\x00\x00\x80\x3f", 4)    // F32 1.0
                           + std::string("\x00\xc0\x00\x3c", 4)  // F16 -2.0, 1.0
                           + std::string("\x00\x3f", 2);         // BF16 0.5
  const std::filesystem::path path = raw_file(header, data);
  const auto checkpoint = rooflab::SafetensorsFile::open(path);
  ASSERT_EQ(checkpoint.tensors().size(), 3u);
  EXPECT_EQ(checkpoint.tensors()[0].name, "a");
  EXPECT_EQ(checkpoint.tensors()[1].name, "b");
  EXPECT_EQ(checkpoint.tensors()[2].name, "c");
  EXPECT_EQ(checkpoint.at("b").dtype, rooflab::TensorDtype::f16);
  EXPECT_EQ(checkpoint.at("c").shape, (std::vector<std::int64_t>{1, 1}));
  EXPECT_EQ(checkpoint.read_as_float("a"), std::vector<float>{1.0f});
  EXPECT_EQ(checkpoint.read_as_float("b"), (std::vector<float>{-2.0f, 1.0f}));
  EXPECT_EQ(checkpoint.read_as_float("c"), std::vector<float>{0.5f});
  EXPECT_EQ(checkpoint.metadata(), (std::map<std::string, std::string>{{"format", "pt"}}));
  EXPECT_EQ(checkpoint.find("__metadata__"), nullptr);
  EXPECT_EQ(checkpoint.find("d"), nullptr);
  EXPECT_EQ(checkpoint.path(), path);
}

TEST_F(SafetensorsFiles, AcceptsAnEmptyHeaderAndEmptyTensorsAnywhere) {
  EXPECT_TRUE(rooflab::SafetensorsFile::open(raw_file("{}")).tensors().empty());
  const auto checkpoint =
      rooflab::SafetensorsFile::open(raw_file(R"({"z":{"dtype":"U8","shape":[0],"data_offsets":[0,0]},)"
                                              R"("x":{"dtype":"U8","shape":[1],"data_offsets":[0,1]},)"
                                              R"("y":{"dtype":"I8","shape":[3,0],"data_offsets":[1,1]}})",
                                              "\x07"));
  EXPECT_EQ(checkpoint.tensors().size(), 3u);
  EXPECT_EQ(checkpoint.read_bytes("x"), std::vector<std::uint8_t>{7});
}

TEST_F(SafetensorsFiles, AtNamesTheFileAndTheMissingTensor) {
  const std::filesystem::path path = file("one.safetensors");
  rooflab::write_safetensors(path, {{"present", rooflab::TensorDtype::u8, {1}, {9}}});
  const auto checkpoint = rooflab::SafetensorsFile::open(path);
  EXPECT_EQ(checkpoint.find("absent"), nullptr);
  for (const auto& look_up : {+[](const rooflab::SafetensorsFile& f) { f.at("absent"); },
                              +[](const rooflab::SafetensorsFile& f) { f.read_as_float("absent"); }}) {
    try {
      look_up(checkpoint);
      ADD_FAILURE() << "found a tensor that is not there";
    } catch (const std::runtime_error& error) {
      EXPECT_THAT(error.what(), StartsWith(path.string() + ": "));
      EXPECT_THAT(error.what(), HasSubstr("no tensor \"absent\""));
    }
  }
}

TEST_F(SafetensorsFiles, WriterRefusesBytesThatDoNotMatchTheShape) {
  const std::filesystem::path path = file("bad.safetensors");
  const auto write_error = [&](const std::vector<rooflab::TensorToWrite>& tensors) -> std::string {
    try {
      rooflab::write_safetensors(path, tensors);
    } catch (const std::runtime_error& error) {
      return error.what();
    }
    return "(written)";
  };
  EXPECT_THAT(write_error({{"w", rooflab::TensorDtype::f32, {5, 6}, std::vector<std::uint8_t>(100)}}),
              HasSubstr("tensor \"w\": 100 bytes given but F32 of shape [5, 6] needs 120"));
  EXPECT_THAT(write_error({{"w", rooflab::TensorDtype::u8, {1}, {0}}, {"w", rooflab::TensorDtype::u8, {1}, {0}}}),
              HasSubstr("tensor \"w\" is given twice"));
  EXPECT_THAT(write_error({{"__metadata__", rooflab::TensorDtype::u8, {1}, {0}}}), HasSubstr("__metadata__"));
  EXPECT_THAT(write_error({{"w", rooflab::TensorDtype::u8, {-1}, {}}}), HasSubstr("negative"));
  EXPECT_THAT(write_error({{"\xff", rooflab::TensorDtype::u8, {1}, {0}}}), HasSubstr("UTF-8"));
}

TEST_F(SafetensorsFiles, RefusesAFileThatCannotBeRead) {
  const std::filesystem::path missing = file("missing.safetensors");
  EXPECT_THAT(open_error(missing), StartsWith(missing.string() + ": cannot read"));
  const std::filesystem::path folder = file("a-folder.safetensors");
  std::filesystem::create_directory(folder);
  EXPECT_THAT(open_error(folder), StartsWith(folder.string() + ": "));
}

// ---- Hostile files: each refused at open, naming the file and the culprit.

TEST_F(SafetensorsFiles, RefusesAFileShorterThanTheLength) {
  for (const std::string& bytes : {std::string(), std::string("\x02\x00\x00", 3)}) {
    const std::filesystem::path path = file("short.safetensors");
    std::ofstream(path, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    EXPECT_EQ(open_error(path), path.string() + ": the file is " + std::to_string(bytes.size()) +
                                    " bytes, too short for the 8-byte header length");
  }
}

TEST_F(SafetensorsFiles, RefusesAHeaderLengthOverTheCap) {
  const std::filesystem::path huge = raw_file("{}", "", std::uint64_t{1} << 63);
  EXPECT_THAT(open_error(huge), HasSubstr("the header length 9223372036854775808 is over the cap"));
  const std::filesystem::path just_over = raw_file("{}", "", rooflab::SafetensorsFile::kMaxHeaderBytes + 1);
  EXPECT_THAT(open_error(just_over), HasSubstr("is over the cap of 104857600 bytes"));
}

TEST_F(SafetensorsFiles, RefusesAHeaderLengthPastTheEnd) {
  const std::filesystem::path path = raw_file("{}", "", 3);  // the file has 2 bytes after the length
  EXPECT_EQ(open_error(path),
            path.string() + ": the header length 3 runs past the end of the file, which has 2 bytes after the length");
}

TEST_F(SafetensorsFiles, RefusesAHeaderThatIsNotJson) {
  expect_refused("{\"a\": ", "", {"header is not valid UTF-8 JSON"});
  expect_refused("{\"a\xff\": 1}", "", {"header is not valid UTF-8 JSON", "ill-formed UTF-8"});
  expect_refused("{} {}", "", {"header is not valid UTF-8 JSON"});
  // nlohmann's parser would stop at a NUL and accept what came before.
  expect_refused(std::string("{}\0\0", 4), "", {"the header has a NUL byte at offset 2"});
}

TEST_F(SafetensorsFiles, RefusesAHeaderThatIsNotAnObject) {
  expect_refused("[1, 2]", "", {"the header must be a JSON object, but it starts with '['"});
  expect_refused("\"text\"", "", {"the header must be a JSON object, but it starts with '\"'"});
  expect_refused(" {}", "", {"the header must be a JSON object, but it starts with byte 0x20"});
  expect_refused("\xef\xbb\xbf{}", "", {"starts with byte 0xef"});  // a byte-order mark
  expect_refused("", "", {"the header must be a JSON object, but it starts with nothing"});
}

TEST_F(SafetensorsFiles, RefusesAHeaderNestedTooDeep) {
  expect_refused(R"({"a":{"extra":)" + std::string(200, '[') + std::string(200, ']') + "}}", "",
                 {"nests deeper than 128"});
}

TEST_F(SafetensorsFiles, RefusesATensorNamedTwice) {
  expect_refused(R"({"w":{"dtype":"U8","shape":[1],"data_offsets":[0,1]},)"
                 R"("w":{"dtype":"U8","shape":[1],"data_offsets":[1,2]}})",
                 "ab", {"tensor \"w\" appears twice"});
}

TEST_F(SafetensorsFiles, RefusesAnEntryThatIsNotAnObject) {
  expect_refused(R"({"w":[1, 2]})", "", {"tensor \"w\": its entry is an array, not an object"});
}

TEST_F(SafetensorsFiles, RefusesAnEntryWithoutAField) {
  expect_refused(R"({"w":{"shape":[1],"data_offsets":[0,4]}})", "abcd", {"tensor \"w\": no \"dtype\""});
  expect_refused(R"({"w":{"dtype":"F32","data_offsets":[0,4]}})", "abcd", {"tensor \"w\": no \"shape\""});
  expect_refused(R"({"w":{"dtype":"F32","shape":[1]}})", "abcd", {"tensor \"w\": no \"data_offsets\""});
}

TEST_F(SafetensorsFiles, RefusesAnUnknownDtype) {
  expect_refused(R"({"w":{"dtype":"F8_E4M3","shape":[4],"data_offsets":[0,4]}})", "abcd",
                 {"tensor \"w\": dtype \"F8_E4M3\" is not one this reader supports", "BF16"});
  expect_refused(R"({"w":{"dtype":4,"shape":[1],"data_offsets":[0,4]}})", "abcd",
                 {"tensor \"w\": \"dtype\" is the number 4, not a string"});
}

TEST_F(SafetensorsFiles, RefusesANegativeShape) {
  expect_refused(R"({"w":{"dtype":"F32","shape":[2,-3],"data_offsets":[0,4]}})", "abcd",
                 {"tensor \"w\": \"shape\" entry 1 is the number -3, not a non-negative integer"});
}

TEST_F(SafetensorsFiles, RefusesAFloatInTheShape) {
  expect_refused(R"({"w":{"dtype":"F32","shape":[2.5],"data_offsets":[0,4]}})", "abcd",
                 {"tensor \"w\": \"shape\" entry 0 is the number 2.5"});
  expect_refused(R"({"w":{"dtype":"F32","shape":[1.0],"data_offsets":[0,4]}})", "abcd",
                 {"tensor \"w\": \"shape\" entry 0 is the number 1.0"});
  expect_refused(R"({"w":{"dtype":"F32","shape":"4","data_offsets":[0,4]}})", "abcd",
                 {"tensor \"w\": \"shape\" is the string \"4\", not an array"});
}

TEST_F(SafetensorsFiles, RefusesAShapeWhoseSizeOverflows) {
  expect_refused(R"({"w":{"dtype":"F32","shape":[1099511627776,1099511627776],"data_offsets":[0,4]}})", "abcd",
                 {"tensor \"w\": F32 of shape [1099511627776, 1099511627776] would need more than 2^63 - 1 bytes"});
  // 2^61 F32 elements are 2^63 bytes: one too many; an entry of 2^63 is refused by itself.
  expect_refused(R"({"w":{"dtype":"F32","shape":[2305843009213693952],"data_offsets":[0,4]}})", "abcd",
                 {"tensor \"w\": F32 of shape [2305843009213693952] would need more"});
  expect_refused(R"({"w":{"dtype":"U8","shape":[9223372036854775808],"data_offsets":[0,4]}})", "abcd",
                 {"tensor \"w\": \"shape\" entry 0 is the number 9223372036854775808, more than 2^63 - 1"});
  // A zero elsewhere makes the tensor empty, but the product of the rest would still overflow.
  expect_refused(R"({"w":{"dtype":"F32","shape":[0,4294967296,4294967296],"data_offsets":[0,0]}})", "",
                 {"tensor \"w\": F32 of shape [0, 4294967296, 4294967296] would need more"});
}

TEST_F(SafetensorsFiles, RefusesMalformedDataOffsets) {
  const std::string start = R"({"w":{"dtype":"U8","shape":[4],"data_offsets":)";
  expect_refused(start + "[0]}}", "abcd", {"tensor \"w\": \"data_offsets\" is an array of length 1, not [begin, end]"});
  expect_refused(start + "[0,2,4]}}", "abcd", {"tensor \"w\": \"data_offsets\" is an array of length 3"});
  expect_refused(start + "{\"begin\":0}}}", "abcd", {"tensor \"w\": \"data_offsets\" is an object"});
  expect_refused(start + "[-4,0]}}", "abcd", {"tensor \"w\": \"data_offsets\" entry 0 is the number -4"});
  expect_refused(start + "[0,4.0]}}", "abcd", {"tensor \"w\": \"data_offsets\" entry 1 is the number 4.0"});
  expect_refused(start + "[0,18446744073709551616]}}", "abcd", {"tensor \"w\": \"data_offsets\" entry 1"});
  expect_refused(start + "[4,0]}}", "abcd", {"tensor \"w\": data_offsets [4, 0] end before they begin"});
}

TEST_F(SafetensorsFiles, RefusesOffsetsThatDoNotMatchTheShape) {
  expect_refused(R"({"h.0.attn.c_attn.weight":{"dtype":"F32","shape":[5,6],"data_offsets":[0,100]}})",
                 std::string(100, '\0'),
                 {"tensor \"h.0.attn.c_attn.weight\": data_offsets [0, 100] hold 100 bytes but F32 of shape [5, 6] "
                  "needs 120"});
}

TEST_F(SafetensorsFiles, RefusesOffsetsPastTheDataRegion) {
  expect_refused(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},)"
                 R"("b":{"dtype":"F32","shape":[2],"data_offsets":[8,16]}})",
                 std::string(8, '\0'),
                 {"tensor \"b\": data_offsets [8, 16] run past the end of the data region, which holds 8 bytes"});
  expect_refused(R"({"a":{"dtype":"U8","shape":[1],"data_offsets":[18446744073709551614,18446744073709551615]}})", "",
                 {"tensor \"a\": data_offsets [18446744073709551614, 18446744073709551615] run past the end"});
}

TEST_F(SafetensorsFiles, RefusesATruncatedFile) {
  // A valid header whose last tensor ends after the file does.
  expect_refused(
      R"({"w":{"dtype":"F16","shape":[8],"data_offsets":[0,16]}})", std::string(10, '\0'),
      {"tensor \"w\": data_offsets [0, 16] run past the end of the data region, which holds 10 bytes", "truncated"});
}

TEST_F(SafetensorsFiles, RefusesOverlappingTensors) {
  expect_refused(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},)"
                 R"("b":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}})",
                 std::string(12, '\0'), {"tensor \"b\": data_offsets [4, 12] overlap tensor \"a\"'s [0, 8]"});
  // An empty tensor inside another's bytes is refused too, as the Rust reader refuses it.
  expect_refused(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},)"
                 R"("e":{"dtype":"F32","shape":[0],"data_offsets":[4,4]}})",
                 std::string(8, '\0'), {"tensor \"e\": data_offsets [4, 4] overlap tensor \"a\"'s [0, 8]"});
}

TEST_F(SafetensorsFiles, RefusesHolesInTheDataRegion) {
  expect_refused(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},)"
                 R"("b":{"dtype":"F32","shape":[2],"data_offsets":[12,20]}})",
                 std::string(20, '\0'),
                 {"bytes [8, 12) of the data region belong to no tensor",
                  "between tensor \"a\" (ends at 8) and tensor \"b\" (begins at 12)"});
  expect_refused(R"({"b":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}})", std::string(12, '\0'),
                 {"bytes [0, 4) of the data region belong to no tensor", "before tensor \"b\", the first"});
  expect_refused(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})", std::string(11, '\0'),
                 {"bytes [8, 11) of the data region belong to no tensor", "after tensor \"a\", the last"});
  expect_refused(R"({"__metadata__":{}})", "xyz", {"bytes [0, 3) of the data region belong to no tensor"});
}

TEST_F(SafetensorsFiles, RefusesMetadataThatIsNotStrings) {
  const std::string tensor = R"("w":{"dtype":"U8","shape":[1],"data_offsets":[0,1]})";
  expect_refused(R"({"__metadata__":{"format":"pt","version":3},)" + tensor + "}", "a",
                 {"\"__metadata__\" entry \"version\" is the number 3, not a string"});
  expect_refused(R"({"__metadata__":["pt"],)" + tensor + "}", "a",
                 {"\"__metadata__\" is an array, not an object of strings"});
  expect_refused(R"({"__metadata__":null,)" + tensor + "}", "a", {"\"__metadata__\" is null"});
}

TEST_F(SafetensorsFiles, EscapesAndShortensHostileNames) {
  const std::string name = "evil\x1b[2J" + std::string(500, 'x');
  const std::filesystem::path path = raw_file("{\"" + std::string("evil\\u001b[2J") + std::string(500, 'x') +
                                                  R"(":{"dtype":"F32","shape":[1],"data_offsets":[0,3]}})",
                                              "abc");
  const std::string message = open_error(path);
  EXPECT_THAT(message, HasSubstr("tensor \"evil\\x1b[2J"));
  // Appended, not "(" + …: GCC 12 at -O3 warns (-Wrestrict, wrongly) about the temporary's insert.
  std::string length = std::to_string(name.size());
  length += " bytes)";
  EXPECT_THAT(message, HasSubstr(length));
  EXPECT_EQ(message.find('\x1b'), std::string::npos);
  EXPECT_LT(message.size(), 400u);
}

TEST_F(SafetensorsFiles, ReportsAFileThatShrankAfterOpen) {
  const std::filesystem::path path = file("shrinking.safetensors");
  rooflab::write_safetensors(path, {{"first", rooflab::TensorDtype::f32, {2}, rooflab::float_bytes({1, 2})},
                                    {"last", rooflab::TensorDtype::f32, {4}, rooflab::float_bytes({1, 2, 3, 4})}});
  const auto checkpoint = rooflab::SafetensorsFile::open(path);
  std::filesystem::resize_file(path, std::filesystem::file_size(path) - 6);
  EXPECT_EQ(checkpoint.read_as_float("first"), (std::vector<float>{1, 2}));
  try {
    checkpoint.read_bytes("last");
    ADD_FAILURE() << "read a tensor the file no longer holds";
  } catch (const std::runtime_error& error) {
    EXPECT_THAT(error.what(), StartsWith(path.string() + ": tensor \"last\": read only 10 of its 16 bytes"));
  }
}

}  // namespace
