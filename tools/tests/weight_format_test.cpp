// a06's 16-bit weight formats one value at a time (src/weight_format.hpp):
// every one of the 65,536 fp16 and bf16 bit patterns widens as the hardware's
// conversion does and narrows back to itself (NaN payloads aside), and fp32
// values round to nearest, ties to even, as F16C's conversion rounds them.
#include "weight_format.hpp"

#include <gtest/gtest.h>
#if defined(__F16C__)
#include <immintrin.h>  // the hardware's conversions, the reference where the build has them
#endif

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>

namespace a06_kv_cache_decode::weight_format {
namespace {

std::uint32_t bits_of(float value) {
  std::uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

TEST(WeightFormat, EveryHalfWidensExactlyAndNarrowsBack) {
  for (std::uint32_t pattern = 0; pattern < 0x10000; ++pattern) {
    const auto bits = static_cast<std::uint16_t>(pattern);
    const float value = half_to_float(bits);
#if defined(__F16C__)
    // NaN payloads aside: the hardware quiets a signalling NaN, the kernels' widening keeps it.
    if (!std::isnan(value)) {
      ASSERT_EQ(bits_of(value), bits_of(_cvtsh_ss(bits))) << std::hex << pattern;
    }
#endif
    if (std::isnan(value)) {
      ASSERT_TRUE(std::isnan(half_to_float(float_to_half(value)))) << std::hex << pattern;
      continue;
    }
    ASSERT_EQ(float_to_half(value), bits) << std::hex << pattern;
  }
}

TEST(WeightFormat, EveryBfloat16WidensExactlyAndNarrowsBack) {
  for (std::uint32_t pattern = 0; pattern < 0x10000; ++pattern) {
    const auto bits = static_cast<std::uint16_t>(pattern);
    const float value = bfloat16_to_float(bits);
    ASSERT_EQ(bits_of(value), pattern << 16) << std::hex << pattern;
    if (std::isnan(value)) {
      ASSERT_TRUE(std::isnan(bfloat16_to_float(float_to_bfloat16(value))));
      continue;
    }
    ASSERT_EQ(float_to_bfloat16(value), bits) << std::hex << pattern;
  }
}

TEST(WeightFormat, Fp32RoundsToNearestTiesToEven) {
  // Halfway between 1 and fp16's next value (1 + 2^−10) goes to 1 (even);
  // halfway past 1 + 2^−10 goes up to 1 + 2^−9.
  EXPECT_EQ(float_to_half(1.0f + 0x1p-11f), 0x3c00);
  EXPECT_EQ(float_to_half(1.0f + 0x1p-10f + 0x1p-11f), 0x3c02);
  EXPECT_EQ(float_to_half(65519.0f), 0x7bff);  // the largest, 65504
  EXPECT_EQ(float_to_half(65520.0f), 0x7c00);  // infinity
  EXPECT_EQ(float_to_half(0x1p-25f), 0x0000);  // half the smallest subnormal: to even, 0
  EXPECT_EQ(float_to_half(0x1.8p-24f), 0x0002);
  EXPECT_EQ(float_to_half(-0.0f), 0x8000);
  EXPECT_EQ(float_to_bfloat16(1.0f + 0x1p-8f), 0x3f80);  // bf16's halfway: to even
  EXPECT_EQ(float_to_bfloat16(1.0f + 0x1p-8f + 0x1p-20f), 0x3f81);
#if defined(__F16C__)
  std::mt19937 engine(5);
  for (int i = 0; i < 200000; ++i) {
    const float value = std::ldexp(std::uniform_real_distribution<float>(-1.0f, 1.0f)(engine),
                                   std::uniform_int_distribution<int>(-30, 17)(engine));
    ASSERT_EQ(float_to_half(value), _cvtss_sh(value, _MM_FROUND_TO_NEAREST_INT)) << value;
  }
#endif
}

}  // namespace
}  // namespace a06_kv_cache_decode::weight_format
