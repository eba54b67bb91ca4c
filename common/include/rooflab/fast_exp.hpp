// exp(x) for x <= 0 in a form the compiler vectorizes: libm's expf is a call
// per element, which costs more than the rest of a softmax. Used where a
// softmax subtracts its running max first, so every argument is <= 0.
//
// exp(x) = 2^k · exp(r) with k = round(x / ln 2) and r = x − k·ln 2 in
// [−ln2/2, ln2/2]; exp(r) by its Taylor series to r⁶ (relative error below
// 2e-7), and 2^k written straight into the exponent bits. Below −87, exp
// underflows fp32: the result is 0, as it is for −∞.
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>

namespace rooflab {

namespace detail {
// exp(r) with r = x − k·ln 2, for a float or every lane of a float vector:
// ln 2 split in two for accuracy, then the Taylor series to r⁶.
template <class T>
T exp_reduced(T x, T k) {
  const T r = (x - k * 0.693359375f) + k * 2.12194440e-4f;
  T p = T{} + 1.0f / 720;
  p = p * r + 1.0f / 120;
  p = p * r + 1.0f / 24;
  p = p * r + 1.0f / 6;
  p = p * r + 0.5f;
  p = p * r + 1.0f;
  return p * r + 1.0f;
}
}  // namespace detail

inline float exp_nonpositive(float x) {
  const float clamped = std::max(x, -87.0f);
  const float k = std::floor(clamped * 1.44269504f + 0.5f);
  const float two_to_k = std::bit_cast<float>((static_cast<std::int32_t>(k) + 127) << 23);
  return x < -87.0f ? 0.0f : detail::exp_reduced(clamped, k) * two_to_k;
}

// The same exp, every lane of a GCC/Clang float vector at once (V is e.g.
// `float __attribute__((vector_size(64)))`). The scalar form above does not
// vectorise in GCC (its float-to-int conversion may trap); here adding
// 1.5·2²³ rounds x / ln 2 to an integer that lands in the low mantissa bits,
// giving k as a float and, from the bits, as an integer, with no conversion.
template <class V>
V exp_nonpositive_lanes(V x) {
  using Ints = decltype(x < x);          // the signed integer vector of V's width
  constexpr float kRound = 12582912.0f;  // 1.5·2²³
  const V clamped = x < -87.0f ? V{} - 87.0f : x;
  const V shifted = clamped * 1.44269504f + kRound;
  const V k = shifted - kRound;
  const Ints two_to_k = ((std::bit_cast<Ints>(shifted) - std::bit_cast<std::int32_t>(kRound)) + 127) << 23;
  return x < -87.0f ? V{} : detail::exp_reduced(clamped, k) * std::bit_cast<V>(two_to_k);
}

}  // namespace rooflab
