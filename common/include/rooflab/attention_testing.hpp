// The one comparison of an attention result with the fp64 reference
// (rooflab/attention_reference.hpp), shared by every attention lab's tests:
// the output's shape, its values, and the per-row log-sum-exp where the
// function returns one.
//   EXPECT_TRUE(rooflab::testing::MatchesAttentionReference(result.output, &result.lse, q, k, v, {causal, {}}));
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "rooflab/attention_reference.hpp"
#include "rooflab/tensor.hpp"
#include "rooflab/testing.hpp"

namespace rooflab::testing {

// x rounded to the nearest fp16 value, ties to even (as a GPU's __float2half):
// 11 significant bits, spaced 2^-24 apart below fp16's smallest normal 2^-14.
// For |x| within fp16's range (below 65504).
inline float round_to_fp16(float x) {
  if (x == 0.0f || !std::isfinite(x)) return x;
  int exponent = 0;
  std::frexp(x, &exponent);  // x = f · 2^exponent with 0.5 <= |f| < 1
  const int bits = 11 - std::max(exponent, -13);
  return static_cast<float>(std::ldexp(std::nearbyint(std::ldexp(double{x}, bits)), -bits));
}

// The tensor whose every value went through round_to_fp16: the inputs a
// tensor-core kernel actually multiplies.
inline Tensor4 rounded_to_fp16(Tensor4 tensor) {
  for (float& x : tensor.data) x = round_to_fp16(x);
  return tensor;
}

// x rounded to the nearest bf16 value, ties to even (as __float2bfloat16): 8
// significant bits, fp32's exponent range. For finite x.
inline float round_to_bf16(float x) {
  std::uint32_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  bits += 0x7fffu + (bits >> 16 & 1u);
  bits &= 0xffff0000u;
  float rounded;
  std::memcpy(&rounded, &bits, sizeof rounded);
  return rounded;
}
inline Tensor4 rounded_to_bf16(Tensor4 tensor) {
  for (float& x : tensor.data) x = round_to_bf16(x);
  return tensor;
}

// Success when `output` has attention's shape for these inputs, (B, H, N, dv):
// the first check of every comparison with the reference.
inline ::testing::AssertionResult HasAttentionOutputShape(const Tensor4& output, const Tensor4& q, const Tensor4& v) {
  const std::array<std::int64_t, 4> shape{q.batch(), q.heads(), q.rows(), v.cols()};
  if (output.shape == shape) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "the output's shape is (" << output.shape[0] << ", " << output.shape[1]
                                       << ", " << output.shape[2] << ", " << output.shape[3] << "), not (" << shape[0]
                                       << ", " << shape[1] << ", " << shape[2] << ", " << shape[3] << ")";
}

inline ::testing::AssertionResult MatchesAttentionReference(const Tensor4& output, const std::vector<float>* lse,
                                                            const Tensor4& q, const Tensor4& k, const Tensor4& v,
                                                            const reference::Mask& mask = {},
                                                            Tolerance tolerance = kFp32) {
  if (auto shaped = HasAttentionOutputShape(output, q, v); !shaped) return shaped;
  const std::array<std::int64_t, 4> shape = output.shape;  // checked above
  const reference::Attention expected = reference::attention(q, k, v, mask);
  // Failures name (batch, head, query row, output column), from the shape above.
  const TensorAxes output_axes{{shape.begin(), shape.end()}, {"b", "h", "i", "c"}};
  if (auto close = AllCloseIn("output", "the fp64 reference's output", output.data, expected.output, tolerance.atol,
                              tolerance.rtol, output_axes);
      !close)
    return close;
  if (lse)
    return AllCloseIn("lse", "the fp64 reference's lse", *lse, expected.lse, tolerance.atol, tolerance.rtol,
                      {{shape[0], shape[1], shape[2]}, {"b", "h", "i"}});
  return ::testing::AssertionSuccess();
}

// Success when the first `blind` query rows of every (batch, head) see no key
// (causal with more queries than keys): their lse is −∞ and their output 0.
// One failure names the first row that is not, and how many are not.
inline ::testing::AssertionResult RowsSeeNoKey(const Tensor4& output, const std::vector<float>& lse,
                                               std::int64_t blind) {
  const std::int64_t heads = output.batch() * output.heads(), rows = output.rows();
  if (lse.size() != static_cast<std::size_t>(heads * rows))
    return ::testing::AssertionFailure() << "lse has " << lse.size() << " values, not " << heads * rows;
  std::int64_t wrong = 0, first_bh = 0, first_i = 0;
  for (std::int64_t bh = 0; bh < heads; ++bh)
    for (std::int64_t i = 0; i < std::min(blind, rows); ++i) {
      const float* row = output.row(bh, i);
      const bool zero = std::all_of(row, row + output.cols(), [](float x) { return x == 0.0f; });
      if (lse[static_cast<std::size_t>(bh * rows + i)] == -INFINITY && zero) continue;
      if (wrong++ == 0) first_bh = bh, first_i = i;
    }
  if (wrong == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << wrong << " of the " << heads * std::min(blind, rows)
                                       << " rows that see no key have an lse other than -inf or an output other "
                                          "than 0, first (b·h="
                                       << first_bh << ", i=" << first_i
                                       << "): lse = " << lse[static_cast<std::size_t>(first_bh * rows + first_i)];
}

}  // namespace rooflab::testing
