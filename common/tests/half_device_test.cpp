// CUDA's fp16 and bf16 conversions and arithmetic as device code computes
// them (half_kernels.cu), held to the reference of half_reference.hpp: in
// every build on the CPU runtime, and on a GPU where the build has one
// (common_gpu_tests), so that a GPU run shows whether the two agree bit for
// bit (NaN payloads aside: a NaN must stay a NaN).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <ios>
#include <limits>
#include <random>
#include <vector>

#include "half_kernels.hpp"
#include "half_reference.hpp"

namespace {

using half_formats::float_bits;
using half_formats::float_from_bits;
using half_formats::Mode;
using half_formats::Reference;
using half_kernels::Format;
using half_kernels::Operation;
using half_kernels::Rounding;

constexpr Format kFormats[] = {Format::fp16, Format::bf16};
constexpr Rounding kRoundings[] = {Rounding::nearest_even, Rounding::toward_zero, Rounding::down, Rounding::up};

const Reference& reference_of(Format format) {
  return format == Format::fp16 ? half_formats::half_reference() : half_formats::bfloat16_reference();
}
const char* name_of(Format format) { return format == Format::fp16 ? "fp16" : "bf16"; }
Mode mode_of(Rounding rounding) { return static_cast<Mode>(static_cast<int>(rounding)); }

bool is_nan(const Reference& reference, std::uint16_t bits) { return (bits & 0x7fffu) > reference.infinity(); }

// `got` is `expected`'s pattern, or a NaN where `expected` is one; the first
// few that are not are named.
struct Tally {
  int mismatches = 0;
  template <class Describe>
  void expect(const Reference& reference, std::uint16_t got, std::uint16_t expected, Describe describe) {
    const bool agree = is_nan(reference, expected) ? is_nan(reference, got) : got == expected;
    if (!agree && ++mismatches <= 4)
      ADD_FAILURE() << describe() << ": got 0x" << std::hex << got << ", expected 0x" << expected;
  }
};

TEST(HalfOnTheDevice, EveryPatternWidensToItsValue) {
  std::vector<std::uint16_t> patterns;
  for (unsigned bits = 0; bits <= 0xffff; ++bits) patterns.push_back(static_cast<std::uint16_t>(bits));
  for (const Format format : kFormats) {
    const Reference& reference = reference_of(format);
    const std::vector<float> widened = half_kernels::widen(format, patterns);
    ASSERT_EQ(widened.size(), patterns.size());
    int mismatches = 0;
    for (unsigned bits = 0; bits <= 0xffff; ++bits) {
      const double expected = reference.value(static_cast<std::uint16_t>(bits));
      const float got = widened[bits];
      // Bits, not ==, so that -0 is told from +0.
      const bool agree =
          std::isnan(expected) ? std::isnan(got) : float_bits(got) == float_bits(static_cast<float>(expected));
      if (!agree && ++mismatches <= 4)
        ADD_FAILURE() << name_of(format) << " 0x" << std::hex << bits << " widened to " << got;
    }
    EXPECT_EQ(mismatches, 0) << name_of(format);
  }
}

// Floats that tell the roundings apart: each midpoint between two
// neighbouring values of the format and the floats either side of it, both
// signs; zeros, infinities, a NaN, the largest float; and random floats.
std::vector<float> floats_to_round(const Reference& reference) {
  std::vector<float> values{0.0f,
                            -0.0f,
                            std::numeric_limits<float>::infinity(),
                            -std::numeric_limits<float>::infinity(),
                            std::numeric_limits<float>::quiet_NaN(),
                            std::numeric_limits<float>::max(),
                            -std::numeric_limits<float>::max()};
  for (unsigned lower = 0; lower < reference.infinity(); ++lower) {
    const auto upper = static_cast<std::uint16_t>(lower + 1);
    const double upper_value = upper == reference.infinity() ? reference.beyond_max() : reference.value(upper);
    const auto midpoint = static_cast<float>((reference.value(static_cast<std::uint16_t>(lower)) + upper_value) / 2);
    for (const float x : {midpoint, -midpoint})
      values.insert(values.end(), {x, std::nextafter(x, 0.0f), std::nextafter(x, 2 * x)});
  }
  std::mt19937 engine(20261207);
  for (int i = 0; i < 20000; ++i) values.push_back(float_from_bits(static_cast<std::uint32_t>(engine())));
  return values;
}

TEST(HalfOnTheDevice, FloatsRoundAsTheReferenceInEveryMode) {
  for (const Format format : kFormats) {
    const Reference& reference = reference_of(format);
    const std::vector<float> values = floats_to_round(reference);
    for (const Rounding rounding : kRoundings) {
      const std::vector<std::uint16_t> narrowed = half_kernels::narrow(format, rounding, values);
      ASSERT_EQ(narrowed.size(), values.size());
      Tally tally;
      for (std::size_t i = 0; i < values.size(); ++i)
        tally.expect(reference, narrowed[i], reference.round(values[i], mode_of(rounding)), [&] {
          return std::string(name_of(format)) + " mode " + std::to_string(static_cast<int>(rounding)) + " of " +
                 std::to_string(values[i]);
        });
      EXPECT_EQ(tally.mismatches, 0) << name_of(format) << " mode " << static_cast<int>(rounding);
    }
  }
}

// Random finite patterns of the format.
std::vector<std::uint16_t> random_finite(const Reference& reference, std::mt19937& engine, int count) {
  std::vector<std::uint16_t> patterns;
  while (static_cast<int>(patterns.size()) < count) {
    const auto bits = static_cast<std::uint16_t>(engine());
    if ((bits & 0x7fffu) < reference.infinity()) patterns.push_back(bits);
  }
  return patterns;
}

// a + b, a · b and a · b + c are the exact result rounded once to nearest:
// a product of two 16-bit values is exact in a double, and a sum is exact as
// a double and its rounding error (half_formats::exact_sum).
TEST(HalfOnTheDevice, AddMulAndFmaRoundTheExactResultOnce) {
  std::mt19937 engine(7);
  constexpr int kCount = 20000;
  for (const Format format : kFormats) {
    const Reference& reference = reference_of(format);
    const std::vector<std::uint16_t> a = random_finite(reference, engine, kCount),
                                     b = random_finite(reference, engine, kCount),
                                     c = random_finite(reference, engine, kCount);
    for (const Operation operation : {Operation::add, Operation::mul, Operation::fma}) {
      const std::vector<std::uint16_t> got = half_kernels::arithmetic(format, operation, a, b, c);
      ASSERT_EQ(got.size(), a.size());
      Tally tally;
      for (int i = 0; i < kCount; ++i) {
        const double x = reference.value(a[i]), y = reference.value(b[i]), z = reference.value(c[i]);
        const half_formats::ExactSum exact = operation == Operation::add   ? half_formats::exact_sum(x, y)
                                             : operation == Operation::mul ? half_formats::ExactSum{x * y, 0.0}
                                                                           : half_formats::exact_sum(x * y, z);
        tally.expect(reference, got[i], reference.round(exact.high, exact.low, Mode::nearest_even), [&] {
          return std::string(name_of(format)) + " operation " + std::to_string(static_cast<int>(operation)) + " of " +
                 std::to_string(x) + ", " + std::to_string(y) + ", " + std::to_string(z);
        });
      }
      EXPECT_EQ(tally.mismatches, 0) << name_of(format) << " operation " << static_cast<int>(operation);
    }
  }
}

}  // namespace
