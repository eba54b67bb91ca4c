// Provided: the 16-bit weight formats of transformer.hpp's WeightFormat, one
// value at a time: widening to fp32 (exact) and rounding fp32 to nearest,
// ties to even. transformer.cpp widens whole vectors its own way; these are
// the reference both agree with (tools/tests/weight_format_test.cpp checks
// every one of the 65,536 bit patterns).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

namespace a06_kv_cache_decode::weight_format {

// Inline: the kernels' scalar paths call them once per weight.
inline float float_of(std::uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

inline float half_to_float(std::uint16_t bits) {
  const std::uint32_t sign = static_cast<std::uint32_t>(bits & 0x8000u) << 16;
  const std::uint32_t exponent = (bits >> 10) & 0x1fu, mantissa = bits & 0x3ffu;
  if (exponent == 0x1f) return float_of(sign | 0x7f800000u | (mantissa << 13));  // inf, NaN (payload kept)
  if (exponent != 0) return float_of(sign | ((exponent + 112) << 23) | (mantissa << 13));
  // Zero and subnormals: mantissa · 2^−24, exact in fp32.
  const float magnitude = std::ldexp(static_cast<float>(mantissa), -24);
  return sign ? -magnitude : magnitude;
}

inline float bfloat16_to_float(std::uint16_t bits) { return float_of(static_cast<std::uint32_t>(bits) << 16); }

std::uint16_t float_to_half(float value);
std::uint16_t float_to_bfloat16(float value);

}  // namespace a06_kv_cache_decode::weight_format
