// The one comparison of an attention result with the fp64 reference
// (rooflab/attention_reference.hpp), shared by every attention lab's tests:
// the output's shape, its values, and the per-row log-sum-exp where the
// function returns one.
//   EXPECT_TRUE(rooflab::testing::MatchesAttentionReference(result.output, &result.lse, q, k, v, {causal, {}}));
#pragma once

#include <gtest/gtest.h>

#include <array>
#include <vector>

#include "rooflab/attention_reference.hpp"
#include "rooflab/tensor.hpp"
#include "rooflab/testing.hpp"

namespace rooflab::testing {

inline ::testing::AssertionResult MatchesAttentionReference(const Tensor4& output, const std::vector<float>* lse,
                                                            const Tensor4& q, const Tensor4& k, const Tensor4& v,
                                                            const reference::Mask& mask = {},
                                                            Tolerance tolerance = kFp32) {
  const std::array<std::int64_t, 4> shape{q.batch(), q.heads(), q.rows(), v.cols()};
  if (output.shape != shape)
    return ::testing::AssertionFailure() << "the output's shape is (" << output.shape[0] << ", " << output.shape[1]
                                         << ", " << output.shape[2] << ", " << output.shape[3] << "), not (" << shape[0]
                                         << ", " << shape[1] << ", " << shape[2] << ", " << shape[3] << ")";
  const reference::Attention expected = reference::attention(q, k, v, mask);
  if (auto close = AllClose("output", "the fp64 reference's output", "", "", output.data, expected.output,
                            tolerance.atol, tolerance.rtol);
      !close)
    return close;
  if (lse)
    return AllClose("lse", "the fp64 reference's lse", "", "", *lse, expected.lse, tolerance.atol, tolerance.rtol);
  return ::testing::AssertionSuccess();
}

}  // namespace rooflab::testing
