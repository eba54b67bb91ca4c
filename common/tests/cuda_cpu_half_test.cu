// CUDA's 16-bit floating-point types in the CPU runtime (<cuda_fp16.h>,
// <cuda_bf16.h>: rooflab/cuda_cpu_half.hpp), checked against a reference
// written another way: every value of a format from its fields with ldexp,
// in a table; a number rounded by finding its neighbours in that table and
// comparing it with their midpoint; and, for fp16 round to nearest, GCC's
// own _Float16. Every fp16 and bf16 value converts to float and back; floats,
// doubles and integers round as the reference rounds them in all four modes;
// add, sub, mul, div and fma are the exact result rounded once; and a kernel
// uses the types on the runtime, whose checks see their 2-byte accesses.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "cuda_cpu_testing.hpp"
#include "half_reference.hpp"

namespace {

using rooflab::cuda_cpu::launch;
using rooflab::cuda_cpu::LaunchRecord;
using rooflab::cuda_cpu::testing::device_copy;
using rooflab::cuda_cpu::testing::host_copy;
using rooflab::cuda_cpu::testing::kernel_error;
using ::testing::HasSubstr;
using namespace half_formats;  // the reference (half_reference.hpp)

static_assert(sizeof(__half) == 2 && alignof(__half) == 2);
static_assert(sizeof(__half2) == 4 && alignof(__half2) == 4);
static_assert(sizeof(__nv_bfloat16) == 2 && alignof(__nv_bfloat16) == 2);
static_assert(sizeof(__nv_bfloat162) == 4 && alignof(__nv_bfloat162) == 4);
static_assert(std::is_trivially_copyable_v<__half> && std::is_trivially_default_constructible_v<__half>);
static_assert(std::is_trivially_copyable_v<__nv_bfloat16> && std::is_trivially_default_constructible_v<__nv_bfloat16>);
static_assert(std::is_trivially_copyable_v<__half2> && std::is_trivially_copyable_v<__nv_bfloat162>);
static_assert(std::is_convertible_v<float, __half> && std::is_convertible_v<double, __half> &&
              std::is_convertible_v<int, __half> && std::is_convertible_v<__half, float>);
static_assert(!std::is_convertible_v<__nv_bfloat16, __half> && std::is_constructible_v<__half, __nv_bfloat16>);

std::uint16_t float16_bits(_Float16 value) {
  std::uint16_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}
_Float16 float16_from_bits(std::uint16_t bits) {
  _Float16 value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

// The CUDA calls of one format, for tests that run on both.
struct HalfCalls {
  using T = __half;
  using T2 = __half2;
  static const Reference& reference() { return half_reference(); }
  static T from_bits(std::uint16_t bits) { return __ushort_as_half(bits); }
  static std::uint16_t bits(T value) { return __half_as_ushort(value); }
  static float to_float(T value) { return __half2float(value); }
  static T from_double(double value) { return __double2half(value); }
  static T from_float(float value, Mode mode) {
    switch (mode) {
      case Mode::toward_zero:
        return __float2half_rz(value);
      case Mode::down:
        return __float2half_rd(value);
      case Mode::up:
        return __float2half_ru(value);
      default:
        return __float2half_rn(value);
    }
  }
  static T from_long_long(long long value, Mode mode) {
    switch (mode) {
      case Mode::toward_zero:
        return __ll2half_rz(value);
      case Mode::down:
        return __ll2half_rd(value);
      case Mode::up:
        return __ll2half_ru(value);
      default:
        return __ll2half_rn(value);
    }
  }
  static T from_unsigned_long_long(unsigned long long value, Mode mode) {
    switch (mode) {
      case Mode::toward_zero:
        return __ull2half_rz(value);
      case Mode::down:
        return __ull2half_rd(value);
      case Mode::up:
        return __ull2half_ru(value);
      default:
        return __ull2half_rn(value);
    }
  }
  static T from_int(int value, Mode mode) {
    switch (mode) {
      case Mode::toward_zero:
        return __int2half_rz(value);
      case Mode::down:
        return __int2half_rd(value);
      case Mode::up:
        return __int2half_ru(value);
      default:
        return __int2half_rn(value);
    }
  }
  static int to_int(T value, Mode mode) {
    switch (mode) {
      case Mode::toward_zero:
        return __half2int_rz(value);
      case Mode::down:
        return __half2int_rd(value);
      case Mode::up:
        return __half2int_ru(value);
      default:
        return __half2int_rn(value);
    }
  }
  static long long to_long_long_rz(T value) { return __half2ll_rz(value); }
  static unsigned to_unsigned_rn(T value) { return __half2uint_rn(value); }
  static short to_short_rz(T value) { return __half2short_rz(value); }
  static signed char to_char_rz(T value) { return __half2char_rz(value); }
  static unsigned char to_unsigned_char_rz(T value) { return __half2uchar_rz(value); }
  static T2 pair(float low, float high) { return __floats2half2_rn(low, high); }
  static float2 pair_to_float2(T2 value) { return __half22float2(value); }
};

struct Bfloat16Calls {
  using T = __nv_bfloat16;
  using T2 = __nv_bfloat162;
  static const Reference& reference() { return bfloat16_reference(); }
  static T from_bits(std::uint16_t bits) { return __ushort_as_bfloat16(bits); }
  static std::uint16_t bits(T value) { return __bfloat16_as_ushort(value); }
  static float to_float(T value) { return __bfloat162float(value); }
  static T from_double(double value) { return __double2bfloat16(value); }
  static T from_float(float value, Mode mode) {
    switch (mode) {
      case Mode::toward_zero:
        return __float2bfloat16_rz(value);
      case Mode::down:
        return __float2bfloat16_rd(value);
      case Mode::up:
        return __float2bfloat16_ru(value);
      default:
        return __float2bfloat16_rn(value);
    }
  }
  static T from_long_long(long long value, Mode mode) {
    switch (mode) {
      case Mode::toward_zero:
        return __ll2bfloat16_rz(value);
      case Mode::down:
        return __ll2bfloat16_rd(value);
      case Mode::up:
        return __ll2bfloat16_ru(value);
      default:
        return __ll2bfloat16_rn(value);
    }
  }
  static T from_unsigned_long_long(unsigned long long value, Mode mode) {
    switch (mode) {
      case Mode::toward_zero:
        return __ull2bfloat16_rz(value);
      case Mode::down:
        return __ull2bfloat16_rd(value);
      case Mode::up:
        return __ull2bfloat16_ru(value);
      default:
        return __ull2bfloat16_rn(value);
    }
  }
  static T from_int(int value, Mode mode) {
    switch (mode) {
      case Mode::toward_zero:
        return __int2bfloat16_rz(value);
      case Mode::down:
        return __int2bfloat16_rd(value);
      case Mode::up:
        return __int2bfloat16_ru(value);
      default:
        return __int2bfloat16_rn(value);
    }
  }
  static int to_int(T value, Mode mode) {
    switch (mode) {
      case Mode::toward_zero:
        return __bfloat162int_rz(value);
      case Mode::down:
        return __bfloat162int_rd(value);
      case Mode::up:
        return __bfloat162int_ru(value);
      default:
        return __bfloat162int_rn(value);
    }
  }
  static long long to_long_long_rz(T value) { return __bfloat162ll_rz(value); }
  static unsigned to_unsigned_rn(T value) { return __bfloat162uint_rn(value); }
  static short to_short_rz(T value) { return __bfloat162short_rz(value); }
  static signed char to_char_rz(T value) { return __bfloat162char_rz(value); }
  static unsigned char to_unsigned_char_rz(T value) { return __bfloat162uchar_rz(value); }
  static T2 pair(float low, float high) { return __floats2bfloat162_rn(low, high); }
  static float2 pair_to_float2(T2 value) { return __bfloat1622float2(value); }
};

// Whether `got` is the reference's `expected`, NaN for NaN.
template <class Calls>
bool same(std::uint16_t got, std::uint16_t expected) {
  if (expected == 0x7fff) return std::isnan(Calls::to_float(Calls::from_bits(got)));
  return got == expected;
}

// ---- every value converts to float exactly, and back ----

template <class Calls>
void every_value_converts_to_float_exactly_and_back() {
  const Reference& reference = Calls::reference();
  int mismatches = 0;
  for (unsigned bits = 0; bits <= 0xffff; ++bits) {
    const auto pattern = static_cast<std::uint16_t>(bits);
    const float value = Calls::to_float(Calls::from_bits(pattern));
    const double expected = reference.value(pattern);
    if (std::isnan(expected)) {
      mismatches += !std::isnan(value);
      for (Mode mode : kModes) mismatches += !std::isnan(Calls::to_float(Calls::from_float(value, mode)));
      mismatches += !std::isnan(Calls::to_float(Calls::from_double(value)));
      continue;
    }
    // Bits, not ==, so that -0 is told from +0.
    mismatches += float_bits(value) != float_bits(static_cast<float>(expected)) ||
                  static_cast<double>(static_cast<float>(expected)) != expected;
    for (Mode mode : kModes) mismatches += Calls::bits(Calls::from_float(value, mode)) != pattern;
    mismatches += Calls::bits(Calls::from_double(value)) != pattern;
    if (mismatches > 0 && mismatches < 5) ADD_FAILURE() << "pattern 0x" << std::hex << bits;
  }
  EXPECT_EQ(mismatches, 0);
}

TEST(HalfConversion, EveryHalfConvertsToFloatExactlyAndBack) {
  every_value_converts_to_float_exactly_and_back<HalfCalls>();
  // GCC's _Float16 agrees on every value.
  for (unsigned bits = 0; bits <= 0xffff; ++bits) {
    const float ours = __half2float(__ushort_as_half(static_cast<std::uint16_t>(bits)));
    const float gcc = static_cast<float>(float16_from_bits(static_cast<std::uint16_t>(bits)));
    if (std::isnan(gcc)) {
      ASSERT_TRUE(std::isnan(ours)) << bits;
    } else {
      ASSERT_EQ(float_bits(ours), float_bits(gcc)) << bits;
    }
  }
}

TEST(Bfloat16Conversion, EveryBfloat16ConvertsToFloatExactlyAndBack) {
  every_value_converts_to_float_exactly_and_back<Bfloat16Calls>();
}

// ---- floats round as the reference rounds them ----

// Between every two neighbouring values, their midpoint (a float, exactly)
// rounds to the even one to nearest, to the lower one toward zero and down,
// to the upper one up; and the floats either side of it round to nearest
// to the side they are on. The same, negated, with down and up swapped.
template <class Calls>
void midpoints_round_to_even_and_directed_modes_pick_their_side() {
  const Reference& reference = Calls::reference();
  int mismatches = 0;
  for (unsigned lower = 0; lower < reference.infinity(); ++lower) {
    const auto upper = static_cast<std::uint16_t>(lower + 1);
    const double upper_value = upper == reference.infinity() ? reference.beyond_max() : reference.value(upper);
    const double midpoint = (reference.value(static_cast<std::uint16_t>(lower)) + upper_value) / 2;
    const auto midpoint_float = static_cast<float>(midpoint);
    ASSERT_EQ(static_cast<double>(midpoint_float), midpoint);
    const std::uint16_t even = lower % 2 == 0 ? static_cast<std::uint16_t>(lower) : upper;
    for (const bool negative : {false, true}) {
      const std::uint16_t sign = negative ? kSign : 0;
      const float x = negative ? -midpoint_float : midpoint_float;
      const auto toward = [&](float direction) { return std::nextafter(x, direction); };
      const std::uint16_t low = sign | lower, high = sign | upper;
      mismatches += Calls::bits(Calls::from_float(x, Mode::nearest_even)) != (sign | even);
      mismatches += Calls::bits(Calls::from_float(x, Mode::toward_zero)) != low;
      mismatches += Calls::bits(Calls::from_float(x, Mode::down)) != (negative ? high : low);
      mismatches += Calls::bits(Calls::from_float(x, Mode::up)) != (negative ? low : high);
      mismatches += Calls::bits(Calls::from_float(toward(0.0f), Mode::nearest_even)) != low;
      mismatches += Calls::bits(Calls::from_float(toward(negative ? -INFINITY : INFINITY), Mode::nearest_even)) != high;
      if (mismatches > 0 && mismatches < 5) ADD_FAILURE() << "between 0x" << std::hex << lower << " and 0x" << upper;
    }
  }
  EXPECT_EQ(mismatches, 0);
}

TEST(HalfConversion, MidpointsRoundToEvenAndDirectedModesPickTheirSide) {
  midpoints_round_to_even_and_directed_modes_pick_their_side<HalfCalls>();
}

TEST(Bfloat16Conversion, MidpointsRoundToEvenAndDirectedModesPickTheirSide) {
  midpoints_round_to_even_and_directed_modes_pick_their_side<Bfloat16Calls>();
}

// Floats with random significands, `per_exponent` of each exponent in
// [first, last] and a few of every other, both signs, in all four modes.
template <class Calls>
void random_floats_round_as_the_reference(int first_exponent_field, int last_exponent_field, int per_exponent) {
  const Reference& reference = Calls::reference();
  std::mt19937 random(12345);
  std::uniform_int_distribution<std::uint32_t> significand(0, (1u << 23) - 1);
  long long checked = 0;
  int mismatches = 0;
  for (std::uint32_t field = 0; field <= 0xff; ++field) {
    const bool in_range =
        static_cast<int>(field) >= first_exponent_field && static_cast<int>(field) <= last_exponent_field;
    const int count = field == 0xff ? 64 : in_range ? per_exponent : 64;  // 0xff: infinity and NaNs
    for (int i = 0; i < count; ++i) {
      for (const std::uint32_t sign : {0u, 0x80000000u}) {
        const float x = float_from_bits(sign | field << 23 | (i == 0 ? 0 : significand(random)));
        for (Mode mode : kModes) {
          const std::uint16_t got = Calls::bits(Calls::from_float(x, mode));
          const std::uint16_t expected = reference.round(x, mode);
          ++checked;
          if (!same<Calls>(got, expected)) {
            if (++mismatches < 5)
              ADD_FAILURE() << std::hexfloat << x << " mode " << static_cast<int>(mode) << ": got 0x" << std::hex << got
                            << ", expected 0x" << expected;
          }
        }
      }
    }
  }
  EXPECT_EQ(mismatches, 0);
  EXPECT_GT(checked, 4'000'000);
}

TEST(HalfConversion, RandomFloatsRoundAsTheReferenceInEveryMode) {
  // Exponents from below half the smallest subnormal (2^-25) to beyond the
  // overflow threshold (65520).
  random_floats_round_as_the_reference<HalfCalls>(127 - 27, 127 + 17, 24000);
}

TEST(Bfloat16Conversion, RandomFloatsRoundAsTheReferenceInEveryMode) {
  // Every float exponent is one of bf16's, or below its subnormals.
  random_floats_round_as_the_reference<Bfloat16Calls>(0, 254, 4000);
}

TEST(HalfConversion, RoundToNearestAgreesWithGccFloat16OnRandomFloatsAndDoubles) {
  std::mt19937_64 random(777);
  int mismatches = 0;
  for (int i = 0; i < 1'000'000; ++i) {
    // Exponents from 2^-30 to 2^17, random significands, both signs.
    const auto exponent = static_cast<std::uint64_t>(1023 - 30 + static_cast<int>(random() % 48));
    const std::uint64_t bits = (random() & 0x800fffffffffffffull) | exponent << 52;
    double d;
    std::memcpy(&d, &bits, sizeof d);
    const auto f = static_cast<float>(d);
    mismatches += __half_as_ushort(__float2half(f)) != float16_bits(static_cast<_Float16>(f));
    mismatches += __half_as_ushort(__double2half(d)) != float16_bits(static_cast<_Float16>(d));
    mismatches += __half_as_ushort(__double2half(d)) != half_reference().round(d, Mode::nearest_even);
  }
  EXPECT_EQ(mismatches, 0);
}

TEST(Bfloat16Conversion, RandomDoublesRoundOnceAsTheReference) {
  std::mt19937_64 random(778);
  int mismatches = 0;
  for (int i = 0; i < 1'000'000; ++i) {
    const auto exponent = static_cast<std::uint64_t>(1023 - 140 + static_cast<int>(random() % 272));
    const std::uint64_t bits = (random() & 0x800fffffffffffffull) | exponent << 52;
    double d;
    std::memcpy(&d, &bits, sizeof d);
    mismatches += __bfloat16_as_ushort(__double2bfloat16(d)) != bfloat16_reference().round(d, Mode::nearest_even);
  }
  EXPECT_EQ(mismatches, 0);
}

TEST(HalfConversion, OverflowUnderflowZerosAndNan) {
  const auto bits = [](__half h) { return __half_as_ushort(h); };
  EXPECT_EQ(bits(__float2half(65504.0f)), 0x7bff);
  EXPECT_EQ(bits(__float2half(65519.99f)), 0x7bff);
  EXPECT_EQ(bits(__float2half(65520.0f)), 0x7c00);  // the midpoint to 2^16 rounds to even: infinity
  EXPECT_EQ(bits(__float2half(-1e9f)), 0xfc00);
  EXPECT_EQ(bits(__float2half_rz(1e9f)), 0x7bff);
  EXPECT_EQ(bits(__float2half_rz(-1e9f)), 0xfbff);
  EXPECT_EQ(bits(__float2half_rd(1e9f)), 0x7bff);
  EXPECT_EQ(bits(__float2half_rd(-1e9f)), 0xfc00);
  EXPECT_EQ(bits(__float2half_ru(1e9f)), 0x7c00);
  EXPECT_EQ(bits(__float2half_ru(-1e9f)), 0xfbff);
  EXPECT_EQ(bits(__float2half_rz(INFINITY)), 0x7c00);  // infinity is exact in every mode
  EXPECT_EQ(bits(__float2half_rd(-INFINITY)), 0xfc00);
  EXPECT_EQ(bits(__float2half(0x1p-24f)), 0x0001);  // the smallest subnormal
  EXPECT_EQ(bits(__float2half(0x1p-25f)), 0x0000);  // half of it: a tie, to the even zero
  EXPECT_EQ(bits(__float2half(0x1.000002p-25f)), 0x0001);
  EXPECT_EQ(bits(__float2half(0x3p-25f)), 0x0002);   // 1.5 subnormals: to the even 2
  EXPECT_EQ(bits(__float2half(-0x1p-30f)), 0x8000);  // underflow keeps the sign
  EXPECT_EQ(bits(__float2half_ru(0x1p-30f)), 0x0001);
  EXPECT_EQ(bits(__float2half_rd(-0x1p-30f)), 0x8001);
  EXPECT_EQ(bits(__float2half_rz(-0x1p-30f)), 0x8000);
  EXPECT_EQ(bits(__float2half(0x1.ff8p-15f)), 0x03ff);  // the largest subnormal
  EXPECT_EQ(bits(__float2half(0x1.ffcp-15f)), 0x0400);  // a tie, to the even smallest normal
  EXPECT_EQ(bits(__float2half(-0.0f)), 0x8000);
  EXPECT_EQ(bits(__float2half(0.0f)), 0x0000);
  EXPECT_TRUE(__hisnan(__float2half(NAN)));
  EXPECT_TRUE(__hisnan(__float2half_rz(-NAN)));
  // A double just above a midpoint rounds up: through a float it would
  // land on the midpoint, and to even.
  EXPECT_EQ(bits(__double2half(1.0 + 0x1p-11 + 0x1p-40)), 0x3c01);
  EXPECT_EQ(bits(__float2half(static_cast<float>(1.0 + 0x1p-11 + 0x1p-40))), 0x3c00);
  EXPECT_EQ(bits(CUDART_INF_FP16), 0x7c00);
  EXPECT_EQ(bits(CUDART_MAX_NORMAL_FP16), 0x7bff);
  EXPECT_EQ(bits(CUDART_ONE_FP16), bits(__float2half(1.0f)));
}

TEST(Bfloat16Conversion, OverflowUnderflowZerosAndNan) {
  const auto bits = [](__nv_bfloat16 h) { return __bfloat16_as_ushort(h); };
  EXPECT_EQ(bits(__float2bfloat16(1.0f)), 0x3f80);
  EXPECT_EQ(bits(__float2bfloat16(std::numeric_limits<float>::max())), 0x7f80);  // above the last midpoint
  EXPECT_EQ(bits(__float2bfloat16_rz(std::numeric_limits<float>::max())), 0x7f7f);
  EXPECT_EQ(bits(__float2bfloat16_rd(-std::numeric_limits<float>::max())), 0xff80);
  EXPECT_EQ(bits(__float2bfloat16_ru(-std::numeric_limits<float>::max())), 0xff7f);
  EXPECT_EQ(bits(__float2bfloat16(0x1.01p0f)), 0x3f80);  // a tie, to even
  EXPECT_EQ(bits(__float2bfloat16(0x1.03p0f)), 0x3f82);  // a tie, to even
  EXPECT_EQ(bits(__float2bfloat16_ru(0x1.0002p0f)), 0x3f81);
  EXPECT_EQ(bits(__float2bfloat16_rd(-0x1.0002p0f)), 0xbf81);
  EXPECT_EQ(bits(__float2bfloat16(0x1p-133f)), 0x0001);  // the smallest subnormal
  EXPECT_EQ(bits(__float2bfloat16(0x1p-134f)), 0x0000);  // half of it: to the even zero
  EXPECT_EQ(bits(__float2bfloat16_ru(0x1p-149f)), 0x0001);
  EXPECT_EQ(bits(__float2bfloat16_rd(-0x1p-149f)), 0x8001);
  EXPECT_EQ(bits(__float2bfloat16(-0x1p-149f)), 0x8000);
  EXPECT_TRUE(__hisnan(__float2bfloat16(NAN)));
  EXPECT_EQ(bits(__double2bfloat16(1.0 + 0x1p-8 + 0x1p-40)), 0x3f81);  // rounded once, from the double
  EXPECT_EQ(bits(CUDART_INF_BF16), 0x7f80);
  EXPECT_EQ(bits(CUDART_MAX_NORMAL_BF16), 0x7f7f);
}

// ---- integers ----

// An integer as an exact sum: the nearest double and the rest (exact, being
// at most half a double's ulp), as the reference takes it.
ExactSum integer_as_sum(__int128 value) {
  const auto high = static_cast<double>(value);
  return {high, static_cast<double>(value - static_cast<__int128>(high))};
}

template <class Calls>
void integers_round_once_as_the_reference() {
  const Reference& reference = Calls::reference();
  int mismatches = 0;
  for (int i = -70000; i <= 70000; ++i)
    for (Mode mode : kModes) mismatches += Calls::bits(Calls::from_int(i, mode)) != reference.round(i, mode);
  std::mt19937_64 random(99);
  for (int i = 0; i < 200'000; ++i) {
    // Random magnitudes of every width.
    const unsigned long long wide = random() >> (random() % 64);
    const long long signed_wide = static_cast<long long>(wide >> 1) * (i % 2 ? -1 : 1);
    const ExactSum unsigned_sum = integer_as_sum(wide), signed_sum = integer_as_sum(signed_wide);
    for (Mode mode : kModes) {
      mismatches += Calls::bits(Calls::from_unsigned_long_long(wide, mode)) !=
                    reference.round(unsigned_sum.high, unsigned_sum.low, mode);
      mismatches += Calls::bits(Calls::from_long_long(signed_wide, mode)) !=
                    reference.round(signed_sum.high, signed_sum.low, mode);
    }
  }
  const long long lowest = std::numeric_limits<long long>::min();
  mismatches += Calls::bits(Calls::from_long_long(lowest, Mode::nearest_even)) !=
                reference.round(static_cast<double>(lowest), Mode::nearest_even);
  EXPECT_EQ(mismatches, 0);
}

TEST(HalfConversion, IntegersRoundOnceAsTheReference) {
  integers_round_once_as_the_reference<HalfCalls>();
  EXPECT_EQ(__half_as_ushort(__int2half_rn(65519)), 0x7bff);
  EXPECT_EQ(__half_as_ushort(__int2half_rn(65520)), 0x7c00);
  EXPECT_EQ(__half_as_ushort(__ushort2half_rz(65535)), 0x7bff);
  EXPECT_EQ(__half_as_ushort(__int2half_rn(2049)), 0x6800);  // 2048 + 1: a tie, to even 2048
  EXPECT_EQ(__half_as_ushort(__int2half_rn(2051)), 0x6802);  // 2050 + 1: a tie, to even 2052
}

TEST(Bfloat16Conversion, IntegersRoundOnceAsTheReference) {
  integers_round_once_as_the_reference<Bfloat16Calls>();
  // 2^60 + 2^52 + 1 is just above the midpoint of 2^60 and 2^60 + 2^53: up.
  // Through a double (2^60 + 2^52, a tie) it would go to even, down.
  const long long just_above_a_midpoint = (1ll << 60) + (1ll << 52) + 1;
  EXPECT_EQ(__bfloat162float(__ll2bfloat16_rn(just_above_a_midpoint)), 0x1.02p60f);
  EXPECT_EQ(__bfloat162float(__ull2bfloat16_rn(~0ull)), 0x1p64f);
  EXPECT_EQ(__bfloat162float(__ull2bfloat16_rz(~0ull)), 0x1.fep63f);
}

// What a GPU's cvt gives for a float rounded to an integer type: the
// rounding in double, NaN 0, beyond the range its nearest end.
template <class Int>
Int reference_integer(double value, Mode mode) {
  if (std::isnan(value)) return 0;
  const double whole = mode == Mode::nearest_even  ? std::nearbyint(value)
                       : mode == Mode::toward_zero ? std::trunc(value)
                       : mode == Mode::down        ? std::floor(value)
                                                   : std::ceil(value);
  const double beyond = std::ldexp(1.0, std::numeric_limits<Int>::digits);  // max + 1
  if (whole >= beyond) return std::numeric_limits<Int>::max();
  if (whole < static_cast<double>(std::numeric_limits<Int>::min())) return std::numeric_limits<Int>::min();
  return static_cast<Int>(whole);
}

template <class Calls>
void every_value_converts_to_integers_as_a_gpu_does() {
  int mismatches = 0;
  for (unsigned bits = 0; bits <= 0xffff; ++bits) {
    const auto value = Calls::from_bits(static_cast<std::uint16_t>(bits));
    const double exact = Calls::reference().value(static_cast<std::uint16_t>(bits));
    for (Mode mode : kModes) mismatches += Calls::to_int(value, mode) != reference_integer<int>(exact, mode);
    mismatches += Calls::to_long_long_rz(value) != reference_integer<long long>(exact, Mode::toward_zero);
    mismatches += Calls::to_unsigned_rn(value) != reference_integer<unsigned>(exact, Mode::nearest_even);
    mismatches += Calls::to_short_rz(value) != reference_integer<short>(exact, Mode::toward_zero);
    mismatches += Calls::to_char_rz(value) != reference_integer<signed char>(exact, Mode::toward_zero);
    mismatches += Calls::to_unsigned_char_rz(value) != reference_integer<unsigned char>(exact, Mode::toward_zero);
    // The implicit conversions go toward zero, as CUDA's.
    const int implicit_int = value;
    const unsigned short implicit_unsigned_short = value;
    mismatches += implicit_int != reference_integer<int>(exact, Mode::toward_zero);
    mismatches += implicit_unsigned_short != reference_integer<unsigned short>(exact, Mode::toward_zero);
  }
  EXPECT_EQ(mismatches, 0);
}

TEST(HalfConversion, EveryHalfConvertsToIntegersAsAGpuDoes) {
  every_value_converts_to_integers_as_a_gpu_does<HalfCalls>();
  EXPECT_EQ(__half2int_rn(__float2half(2.5f)), 2);
  EXPECT_EQ(__half2int_rn(__float2half(-3.5f)), -4);
  EXPECT_EQ(__half2int_rz(__float2half(-3.75f)), -3);
  EXPECT_EQ(__half2int_rz(CUDART_INF_FP16), std::numeric_limits<int>::max());
  EXPECT_EQ(__half2int_rz(CUDART_NAN_FP16), 0);
  EXPECT_EQ(__half2short_rz(__float2half(60000.0f)), 32767);
  EXPECT_EQ(__half2uint_rn(__float2half(-7.0f)), 0u);
}

TEST(Bfloat16Conversion, EveryBfloat16ConvertsToIntegersAsAGpuDoes) {
  every_value_converts_to_integers_as_a_gpu_does<Bfloat16Calls>();
  EXPECT_EQ(__bfloat162ll_rz(CUDART_MAX_NORMAL_BF16), std::numeric_limits<long long>::max());
  EXPECT_EQ(__bfloat162ull_rz(__float2bfloat16(0x1p63f)), 1ull << 63);
}

TEST(HalfConversion, ConstructorsAndPairs) {
  const __half from_double = 0.1, from_float = 0.1f, from_int = 3, from_long_long = 1ll << 40;
  EXPECT_EQ(__half_as_ushort(from_double), 0x2e66);
  EXPECT_EQ(__half_as_ushort(from_float), 0x2e66);
  EXPECT_EQ(__half2float(from_int), 3.0f);
  EXPECT_EQ(__half_as_ushort(from_long_long), 0x7c00);
  EXPECT_EQ(__half_as_ushort(__half(__half_raw{0x3c00})), 0x3c00);
  EXPECT_EQ(static_cast<float>(__half(__float2bfloat16(1.5f))), 1.5f);
  EXPECT_EQ(__half_as_short(__short_as_half(-2)), -2);
  EXPECT_TRUE(static_cast<bool>(__float2half(-0.5f)));
  EXPECT_FALSE(static_cast<bool>(__float2half(-0.0f)));

  const __half2 pair = __floats2half2_rn(1.0f, -2.5f);
  EXPECT_EQ(__low2float(pair), 1.0f);
  EXPECT_EQ(__high2float(pair), -2.5f);
  EXPECT_EQ(__half2float(__low2half(pair)), 1.0f);
  EXPECT_EQ(__half2float(__high2half(pair)), -2.5f);
  const float2 both = __half22float2(__lowhigh2highlow(pair));
  EXPECT_EQ(both.x, -2.5f);
  EXPECT_EQ(both.y, 1.0f);
  const __half2 same_twice = __half2half2(__float2half(0.5f)), rounded_twice = __float2half2_rn(0.1f);
  EXPECT_EQ(__low2float(same_twice) + __high2float(same_twice), 1.0f);
  EXPECT_EQ(__half_as_ushort(rounded_twice.x), 0x2e66);
  EXPECT_EQ(__half_as_ushort(rounded_twice.y), 0x2e66);
  const __half2 built = __halves2half2(__float2half(3.0f), __float2half(4.0f));
  const __half2_raw raw = built;
  EXPECT_EQ(raw.x, 0x4200);
  EXPECT_EQ(raw.y, 0x4400);
}

TEST(Bfloat16Conversion, ConstructorsAndPairs) {
  const __nv_bfloat16 from_double = 0.1, from_float = 0.1f, from_int = -3;
  EXPECT_EQ(__bfloat16_as_ushort(from_double), 0x3dcd);
  EXPECT_EQ(__bfloat16_as_ushort(from_float), 0x3dcd);
  EXPECT_EQ(__bfloat162float(from_int), -3.0f);
  EXPECT_EQ(__bfloat162float(__nv_bfloat16(__float2half(65504.0f))), 65536.0f);
  const __nv_bfloat162 pair = __floats2bfloat162_rn(1.0f, 3.0f);
  EXPECT_EQ(__low2float(pair), 1.0f);
  EXPECT_EQ(__high2float(pair), 3.0f);
  EXPECT_EQ(__bfloat162float(__low2bfloat16(__lowhigh2highlow(pair))), 3.0f);
  EXPECT_EQ(__bfloat162float(__high2bfloat16(pair)), 3.0f);
  const float2 both = __bfloat1622float2(__halves2bfloat162(__float2bfloat16(5.0f), __float2bfloat16(6.0f)));
  EXPECT_EQ(both.x, 5.0f);
  EXPECT_EQ(both.y, 6.0f);
  const __nv_bfloat162 rounded_twice = __float2bfloat162_rn(0.1f);
  EXPECT_EQ(__bfloat16_as_ushort(rounded_twice.x), 0x3dcd);
  EXPECT_EQ(__bfloat16_as_ushort(rounded_twice.y), 0x3dcd);
}

// ---- arithmetic: the exact result, rounded once ----

// Random patterns (NaN and infinity included, as often as they come) for
// a, b and c: add, sub, mul, fma and div against the reference's rounding
// of the exact result, which a double holds as a product exactly, and as a
// sum exactly with TwoSum's error; a quotient's double never lies between a
// midpoint of a format of 11 bits or fewer and the exact quotient, which
// cannot be within 2^-24 of a midpoint without being on it.
template <class Calls>
void random_arithmetic_rounds_once() {
  using T = typename Calls::T;
  const Reference& reference = Calls::reference();
  std::mt19937 random(2024);
  int mismatches = 0;
  const auto check = [&](const char* what, T got, double high, double low) {
    if (!same<Calls>(Calls::bits(got), reference.round(high, low, Mode::nearest_even)) && ++mismatches < 5)
      ADD_FAILURE() << what << ": got 0x" << std::hex << Calls::bits(got) << ", expected 0x"
                    << reference.round(high, low, Mode::nearest_even);
  };
  for (int i = 0; i < 1'000'000; ++i) {
    const T a = Calls::from_bits(static_cast<std::uint16_t>(random())),
            b = Calls::from_bits(static_cast<std::uint16_t>(random())),
            c = Calls::from_bits(static_cast<std::uint16_t>(random()));
    const double x = Calls::to_float(a), y = Calls::to_float(b), z = Calls::to_float(c);
    const ExactSum sum = exact_sum(x, y), difference = exact_sum(x, -y), fused = exact_sum(x * y, z);
    check("__hadd", __hadd(a, b), sum.high, sum.low);
    check("+", a + b, sum.high, sum.low);
    check("__hsub", __hsub(a, b), difference.high, difference.low);
    check("__hmul", __hmul(a, b), x * y, 0.0);
    check("__hfma", __hfma(a, b, c), fused.high, fused.low);
    check("__hdiv", __hdiv(a, b), x / y, 0.0);
    check("/", a / b, x / y, 0.0);
  }
  EXPECT_EQ(mismatches, 0);
}

TEST(HalfArithmetic, RandomAddSubMulFmaDivRoundOnce) { random_arithmetic_rounds_once<HalfCalls>(); }

TEST(Bfloat16Arithmetic, RandomAddSubMulFmaDivRoundOnce) { random_arithmetic_rounds_once<Bfloat16Calls>(); }

// GCC's _Float16 computes + * / in float and rounds to fp16; float's 24
// bits make that the result rounded once, an independent second reference.
TEST(HalfArithmetic, AgreesWithGccFloat16) {
  std::mt19937 random(4048);
  int mismatches = 0;
  for (int i = 0; i < 1'000'000; ++i) {
    const auto a_bits = static_cast<std::uint16_t>(random()), b_bits = static_cast<std::uint16_t>(random());
    const _Float16 a = float16_from_bits(a_bits), b = float16_from_bits(b_bits);
    const __half ha = __ushort_as_half(a_bits), hb = __ushort_as_half(b_bits);
    const auto agree = [](__half ours, _Float16 gcc) {
      return std::isnan(static_cast<float>(gcc)) ? __hisnan(ours) : __half_as_ushort(ours) == float16_bits(gcc);
    };
    mismatches += !agree(__hadd(ha, hb), static_cast<_Float16>(a + b));
    mismatches += !agree(__hsub(ha, hb), static_cast<_Float16>(a - b));
    mismatches += !agree(__hmul(ha, hb), static_cast<_Float16>(a * b));
    mismatches += !agree(__hdiv(ha, hb), static_cast<_Float16>(a / b));
  }
  EXPECT_EQ(mismatches, 0);
}

TEST(Bfloat16Arithmetic, FmaRoundsOnceWhereADoubleSumWouldTie) {
  // 17/16 · 17/16 = 289/256, a midpoint of bf16 (8 bits): 2^-60 more
  // rounds it up to 290/256, 2^-60 less down to 288/256, though the sum
  // rounded to a double is the midpoint itself.
  const __nv_bfloat16 a = __float2bfloat16(17.0f / 16), tiny = __float2bfloat16(0x1p-60f);
  EXPECT_EQ(__bfloat162float(__hfma(a, a, tiny)), 290.0f / 256);
  EXPECT_EQ(__bfloat162float(__hfma(a, a, __hneg(tiny))), 288.0f / 256);
  EXPECT_EQ(__bfloat162float(__hfma(a, __hneg(a), tiny)), -288.0f / 256);
  EXPECT_EQ(__bfloat162float(__hfma(a, a, __float2bfloat16(0.0f))), 288.0f / 256);  // the tie, to even
}

TEST(HalfArithmetic, SignedZerosSubnormalsAndOverflow) {
  const auto bits = [](__half h) { return __half_as_ushort(h); };
  const __half zero = __float2half(0.0f), negative_zero = __float2half(-0.0f), one = __float2half(1.0f);
  EXPECT_EQ(bits(__hadd(zero, negative_zero)), 0x0000);
  EXPECT_EQ(bits(__hadd(negative_zero, negative_zero)), 0x8000);
  EXPECT_EQ(bits(__hsub(one, one)), 0x0000);
  EXPECT_EQ(bits(__hmul(negative_zero, one)), 0x8000);
  EXPECT_EQ(bits(__hmul(__ushort_as_half(0x0400), __float2half(0.5f))), 0x0200);  // into the subnormals
  EXPECT_EQ(bits(__hmul(__ushort_as_half(0x0001), __float2half(0.5f))), 0x0000);  // a tie, to even zero
  EXPECT_EQ(bits(__hmul(__ushort_as_half(0x0003), __float2half(0.5f))), 0x0002);  // 1.5: to even 2
  EXPECT_EQ(bits(__hadd(CUDART_MAX_NORMAL_FP16, __float2half(16.0f))), 0x7c00);   // 65520: to infinity
  EXPECT_EQ(bits(__hadd(CUDART_MAX_NORMAL_FP16, __float2half(15.0f))), 0x7bff);
  EXPECT_TRUE(__hisnan(__hsub(CUDART_INF_FP16, CUDART_INF_FP16)));
  EXPECT_TRUE(__hisnan(__hmul(zero, CUDART_INF_FP16)));
  EXPECT_EQ(__hisinf(__hdiv(one, negative_zero)), -1);
  EXPECT_EQ(__hisinf(__hdiv(one, zero)), 1);
  EXPECT_EQ(__hisinf(one), 0);
  EXPECT_EQ(bits(__hneg(zero)), 0x8000);
  EXPECT_EQ(bits(-one), 0xbc00);
  EXPECT_EQ(bits(__habs(__float2half(-2.0f))), 0x4000);
  __half counter = one;
  ++counter;
  counter += one;
  counter *= __float2half(2.0f);
  counter -= one;
  counter /= __float2half(5.0f);
  EXPECT_EQ(__half2float(counter--), 1.0f);
  EXPECT_EQ(__half2float(counter), 0.0f);
}

// ---- comparisons, max and min ----

template <class Calls>
void random_comparisons_follow_the_values() {
  std::mt19937 random(31);
  int mismatches = 0;
  for (int i = 0; i < 1'000'000; ++i) {
    // Half of the pairs equal or one apart, so that == and ±0 come often.
    const auto a_bits = static_cast<std::uint16_t>(random());
    const auto b_bits = static_cast<std::uint16_t>(i % 2 ? random() : (a_bits ^ (random() % 2 ? 0x8000 : 1)));
    const auto a = Calls::from_bits(a_bits), b = Calls::from_bits(b_bits);
    const double x = Calls::reference().value(a_bits), y = Calls::reference().value(b_bits);
    const bool unordered = std::isnan(x) || std::isnan(y);
    mismatches += __heq(a, b) != (x == y) || (a == b) != (x == y);
    mismatches += __hne(a, b) != (!unordered && x != y) || (a != b) != (x != y) || __hneu(a, b) != (x != y);
    mismatches += __hlt(a, b) != (x < y) || (a < b) != (x < y) || __hltu(a, b) != (unordered || x < y);
    mismatches += __hle(a, b) != (x <= y) || (a <= b) != (x <= y) || __hleu(a, b) != (unordered || x <= y);
    mismatches += __hgt(a, b) != (x > y) || (a > b) != (x > y) || __hgtu(a, b) != (unordered || x > y);
    mismatches += __hge(a, b) != (x >= y) || (a >= b) != (x >= y) || __hgeu(a, b) != (unordered || x >= y);
    mismatches += __hequ(a, b) != (unordered || x == y);
    mismatches += __hisnan(a) != std::isnan(x);
    // max and min: a NaN gives the other input; +0 is above -0.
    const auto max_bits = Calls::bits(__hmax(a, b)), min_bits = Calls::bits(__hmin(a, b));
    if (std::isnan(x) && std::isnan(y)) {
      mismatches += !__hisnan(__hmax(a, b)) || !__hisnan(__hmin(a, b));
    } else if (std::isnan(x) || std::isnan(y)) {
      const std::uint16_t number = std::isnan(x) ? b_bits : a_bits;
      mismatches += max_bits != number || min_bits != number;
      mismatches += !__hisnan(__hmax_nan(a, b)) || !__hisnan(__hmin_nan(a, b));
    } else if (x == 0 && y == 0) {
      mismatches += max_bits != (a_bits & b_bits) || min_bits != (a_bits | b_bits);
    } else {
      mismatches += max_bits != (x > y ? a_bits : b_bits) || min_bits != (x < y ? a_bits : b_bits);
      mismatches += Calls::bits(__hmax_nan(a, b)) != max_bits;
    }
  }
  EXPECT_EQ(mismatches, 0);
}

TEST(HalfArithmetic, RandomComparisonsMaxAndMinFollowTheValues) {
  random_comparisons_follow_the_values<HalfCalls>();
  const __half nan = CUDART_NAN_FP16, one = CUDART_ONE_FP16;
  EXPECT_FALSE(nan == nan);
  EXPECT_TRUE(nan != nan);
  EXPECT_FALSE(__hne(nan, one));
  EXPECT_EQ(__half2float(__hmax(nan, one)), 1.0f);
  EXPECT_EQ(__half2float(__hmin(one, nan)), 1.0f);
  EXPECT_EQ(__half_as_ushort(__hmax(CUDART_NEG_ZERO_FP16, CUDART_ZERO_FP16)), 0x0000);
  EXPECT_EQ(__half_as_ushort(__hmin(CUDART_ZERO_FP16, CUDART_NEG_ZERO_FP16)), 0x8000);
}

TEST(Bfloat16Arithmetic, RandomComparisonsMaxAndMinFollowTheValues) {
  random_comparisons_follow_the_values<Bfloat16Calls>();
  EXPECT_EQ(__bfloat162float(__hmax(CUDART_NAN_BF16, CUDART_ONE_BF16)), 1.0f);
  EXPECT_TRUE(__hisnan(__hmin(CUDART_NAN_BF16, CUDART_NAN_BF16)));
}

// ---- pairs: each lane as the scalar form ----

template <class Calls>
void pair_forms_work_lane_by_lane() {
  using T = typename Calls::T;
  using T2 = typename Calls::T2;
  std::mt19937 random(5);
  const auto any = [&] { return Calls::from_bits(static_cast<std::uint16_t>(random())); };
  const auto same_value = [](T got, T expected) {
    return Calls::bits(got) == Calls::bits(expected) ||
           (std::isnan(Calls::to_float(got)) && std::isnan(Calls::to_float(expected)));
  };
  const auto lanes = [&](T2 got, T expected_x, T expected_y) {
    return same_value(got.x, expected_x) && same_value(got.y, expected_y);
  };
  int mismatches = 0;
  for (int i = 0; i < 100'000; ++i) {
    const T2 a(any(), any()), b(any(), any()), c(any(), any());
    mismatches += !lanes(__hadd2(a, b), __hadd(a.x, b.x), __hadd(a.y, b.y));
    mismatches += !lanes(a + b, __hadd(a.x, b.x), __hadd(a.y, b.y));
    mismatches += !lanes(__hsub2(a, b), __hsub(a.x, b.x), __hsub(a.y, b.y));
    mismatches += !lanes(a - b, __hsub(a.x, b.x), __hsub(a.y, b.y));
    mismatches += !lanes(__hmul2(a, b), __hmul(a.x, b.x), __hmul(a.y, b.y));
    mismatches += !lanes(a * b, __hmul(a.x, b.x), __hmul(a.y, b.y));
    mismatches += !lanes(__h2div(a, b), __hdiv(a.x, b.x), __hdiv(a.y, b.y));
    mismatches += !lanes(a / b, __hdiv(a.x, b.x), __hdiv(a.y, b.y));
    mismatches += !lanes(__hfma2(a, b, c), __hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y));
    mismatches += !lanes(__hmax2(a, b), __hmax(a.x, b.x), __hmax(a.y, b.y));
    mismatches += !lanes(__hmin2(a, b), __hmin(a.x, b.x), __hmin(a.y, b.y));
    mismatches += !lanes(__hneg2(a), __hneg(a.x), __hneg(a.y));
    mismatches += !lanes(-a, __hneg(a.x), __hneg(a.y));
    mismatches += !lanes(__habs2(a), __habs(a.x), __habs(a.y));
    mismatches += !lanes(h2exp(a), hexp(a.x), hexp(a.y));
    mismatches += !lanes(h2exp2(a), hexp2(a.x), hexp2(a.y));
    mismatches += !lanes(h2rcp(a), hrcp(a.x), hrcp(a.y));
    mismatches += !lanes(h2sqrt(a), hsqrt(a.x), hsqrt(a.y));
    // Comparisons: 1.0 or 0.0 per lane, or whether both lanes compare true.
    const T one = 1.0f, zero = 0.0f;
    const auto truth = [&](bool lane) { return lane ? one : zero; };
    mismatches += !lanes(__hlt2(a, b), truth(__hlt(a.x, b.x)), truth(__hlt(a.y, b.y)));
    mismatches += !lanes(__hneu2(a, b), truth(__hneu(a.x, b.x)), truth(__hneu(a.y, b.y)));
    mismatches += __hbge2(a, b) != (__hge(a.x, b.x) && __hge(a.y, b.y));
    mismatches += __hbltu2(a, b) != (__hltu(a.x, b.x) && __hltu(a.y, b.y));
    mismatches += (a == b) != (__heq(a.x, b.x) && __heq(a.y, b.y));
    mismatches += (a != b) != (__hneu(a.x, b.x) && __hneu(a.y, b.y));
    mismatches += (a <= b) != (__hle(a.x, b.x) && __hle(a.y, b.y));
  }
  EXPECT_EQ(mismatches, 0);
}

TEST(HalfArithmetic, PairFormsWorkLaneByLane) { pair_forms_work_lane_by_lane<HalfCalls>(); }

TEST(Bfloat16Arithmetic, PairFormsWorkLaneByLane) { pair_forms_work_lane_by_lane<Bfloat16Calls>(); }

// ---- hexp, hlog, …: within an ulp of the exact result rounded ----

// hsqrt and hrcp are the exact result rounded once (float's 24 bits make
// its correctly rounded sqrt and reciprocal round once more without harm);
// hexp, hexp2, hlog and hrsqrt within one ulp of it, as a GPU's are.
template <class Calls>
void functions_are_within_an_ulp_of_the_exact_result() {
  const Reference& reference = Calls::reference();
  const auto ulps_apart = [&](std::uint16_t got, std::uint16_t expected) {
    if (expected == 0x7fff) return std::isnan(Calls::to_float(Calls::from_bits(got))) ? 0 : 99;
    if ((got ^ expected) & kSign) return got == (expected ^ kSign) && (expected & 0x7fff) == 0 ? 0 : 99;
    return std::abs((got & 0x7fff) - (expected & 0x7fff));
  };
  int worst_sqrt = 0, worst_rcp = 0, worst_others = 0;
  for (unsigned bits = 0; bits <= 0xffff; ++bits) {
    const auto pattern = static_cast<std::uint16_t>(bits);
    const auto a = Calls::from_bits(pattern);
    const double x = reference.value(pattern);
    const auto expected = [&](double exact) { return reference.round(exact, Mode::nearest_even); };
    worst_sqrt = std::max(worst_sqrt, ulps_apart(Calls::bits(hsqrt(a)), expected(std::sqrt(x))));
    worst_rcp = std::max(worst_rcp, ulps_apart(Calls::bits(hrcp(a)), expected(1 / x)));
    for (const int apart : {ulps_apart(Calls::bits(hexp(a)), expected(std::exp(x))),
                            ulps_apart(Calls::bits(hexp2(a)), expected(std::exp2(x))),
                            ulps_apart(Calls::bits(hlog(a)), expected(std::log(x))),
                            ulps_apart(Calls::bits(hrsqrt(a)), expected(1 / std::sqrt(x)))})
      worst_others = std::max(worst_others, apart);
  }
  EXPECT_EQ(worst_sqrt, 0);
  EXPECT_EQ(worst_rcp, 0);
  EXPECT_LE(worst_others, 1);
}

TEST(HalfArithmetic, FunctionsAreWithinAnUlpOfTheExactResult) {
  functions_are_within_an_ulp_of_the_exact_result<HalfCalls>();
}

TEST(Bfloat16Arithmetic, FunctionsAreWithinAnUlpOfTheExactResult) {
  functions_are_within_an_ulp_of_the_exact_result<Bfloat16Calls>();
}

// ---- in a kernel ----

// Each thread rounds its float to fp16 and bf16, stores both (2-byte
// stores of what a call returned), loads them back (2-byte loads), computes
// with them and stores a __half2 (a 4-byte store).
__global__ void half_arithmetic(const float* in, __half* halves, __nv_bfloat16* bfloats, __half2* pairs, float* out,
                                int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  halves[i] = __float2half(in[i]);
  bfloats[i] = __float2bfloat16(in[i]);
  pairs[i] = __hadd2(__halves2half2(halves[i], __float2half(2.0f)), __float2half2_rn(1.0f));  // (h + 1, 3)
  out[2 * i] = __half2float(__hmul(__low2half(pairs[i]), __high2half(pairs[i])));             // (h + 1) · 3
  out[2 * i + 1] = __bfloat162float(__hfma(bfloats[i], bfloats[i], bfloats[i]));              // b · b + b
}

__global__ void store_one_half(__half* halves, int index) { halves[index] = __float2half(1.0f); }

TEST(HalfKernel, ConvertsAndComputesOnTheRuntimeWithTwoByteAccesses) {
  constexpr int n = 256;
  std::vector<float> in(n);
  std::mt19937 random(8);
  std::uniform_real_distribution<float> value(-300.0f, 300.0f);
  for (float& x : in) x = value(random);
  float* device_in = device_copy(in);
  __half* halves = device_copy(std::vector<__half>(n));
  __nv_bfloat16* bfloats = device_copy(std::vector<__nv_bfloat16>(n));
  __half2* pairs = device_copy(std::vector<__half2>(n));
  float* out = device_copy(std::vector<float>(2 * n));
  rooflab::cuda_cpu::take_launch_records();
  launch("half_arithmetic", half_arithmetic, dim3(n / 128), dim3(128), 0, device_in, halves, bfloats, pairs, out, n);

  const std::vector<__half> got_halves = host_copy(halves, n);
  const std::vector<__nv_bfloat16> got_bfloats = host_copy(bfloats, n);
  const std::vector<float> got = host_copy(out, 2 * n);
  const Reference &fp16 = half_reference(), &bf16 = bfloat16_reference();
  const auto rounded = [](const Reference& format, double exact_high, double exact_low = 0.0) {
    return format.value(format.round(exact_high, exact_low, Mode::nearest_even));
  };
  for (int i = 0; i < n; ++i) {
    const std::uint16_t h = fp16.round(in[i], Mode::nearest_even);
    EXPECT_EQ(__half_as_ushort(got_halves[i]), h) << i;
    EXPECT_EQ(got[2 * i], rounded(fp16, rounded(fp16, fp16.value(h) + 1) * 3)) << i;
    const std::uint16_t b = bf16.round(in[i], Mode::nearest_even);
    EXPECT_EQ(__bfloat16_as_ushort(got_bfloats[i]), b) << i;
    const ExactSum fused = exact_sum(bf16.value(b) * bf16.value(b), bf16.value(b));
    EXPECT_EQ(got[2 * i + 1], rounded(bf16, fused.high, fused.low)) << i;
  }
  // 8 warps, each storing 32 neighbouring halves (64 bytes: 2 sectors), as
  // many bf16 (2 sectors), 32 pairs (4 sectors) and two floats of every 8
  // bytes (8 sectors each): 5 requests.
  const auto records = rooflab::cuda_cpu::take_launch_records();
  ASSERT_EQ(records.size(), 1u);
  const LaunchRecord& record = records.back();
  EXPECT_EQ(record.memory.global_store_requests, 8u * 5);
  EXPECT_EQ(record.memory.global_store_sectors, 8u * (2 + 2 + 4 + 8 + 8));
  EXPECT_EQ(record.memory.dram_write_bytes, n * (2u + 2u + 4u + 8u));

  // One past the end of the halves: a 2-byte write the runtime refuses.
  const std::string error =
      kernel_error([&] { launch("store_one_half", store_one_half, dim3(1), dim3(1), 0, halves, n); });
  EXPECT_THAT(error, HasSubstr("kernel store_one_half: invalid write of 2 bytes"));
  EXPECT_THAT(error, HasSubstr("past its end"));
  cudaFree(device_in);
  cudaFree(halves);
  cudaFree(bfloats);
  cudaFree(pairs);
  cudaFree(out);
}

}  // namespace
