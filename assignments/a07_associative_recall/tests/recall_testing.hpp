// What the a07 tests share: tolerances, and the checks that run your
// attention forward and backward on one input and compare them with the
// fp64 yardstick of recall_reference.hpp.
#pragma once

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "a07_associative_recall/a07_associative_recall.hpp"
#include "recall_reference.hpp"
#include "rooflab/testing.hpp"

namespace a07_associative_recall::checks {

using rooflab::testing::kFp32;
using rooflab::testing::Tolerance;

// Gradients in fp32 against central differences in fp64 (themselves good to
// about 1e-9): room for fp32's rounding of O(1) values summed over a few dozen
// terms, and for the probabilities backward receives, the reference's rounded
// to fp32. A missing term or factor (1/√d, the softmax's row sum) is off by
// far more.
inline constexpr Tolerance kGradient{5e-5, 5e-4};

// Cross-entropy of logits up to ±1e4: fp32 arithmetic may round m + log Σ exp
// (m the row's maximum) to half a unit in the last place of 1e4, 4.9e-4, which
// moves the loss by as much and each probability by that share of itself.
inline constexpr double kExtremeLossAtol = 1e-3;
inline constexpr Tolerance kExtremeGradient{1e-5, 1e-3};

inline rooflab::testing::TensorAxes axes(const Tensor4& like) {
  return {{like.shape.begin(), like.shape.end()}, {"b", "h", "i", "c"}};
}

inline rooflab::testing::TensorAxes probs_axes(const Tensor4& q) {
  return {{q.batch(), q.heads(), q.rows(), q.rows()}, {"b", "h", "i", "j"}};
}

inline std::string shape_text(const Tensor4& q, const Tensor4& v, const std::string& mask) {
  return "B=" + std::to_string(q.batch()) + ", H=" + std::to_string(q.heads()) + ", N=" + std::to_string(q.rows()) +
         ", d=" + std::to_string(q.cols()) + ", dv=" + std::to_string(v.cols()) + ", " + mask + " mask";
}

// attention_forward's output and probabilities against the fp64 reference,
// and every key the mask hides at probability exactly 0 (exp(−∞) = 0).
inline void expect_forward_matches_reference(const Tensor4& q, const Tensor4& k, const Tensor4& v,
                                             const std::vector<float>& mask, const std::string& what) {
  SCOPED_TRACE(what);
  const AttentionForward got = attention_forward(q, k, v, mask);
  const reference::Attention expected = reference::attention(q, k, v, mask);
  const std::array<std::int64_t, 4> output_shape{q.batch(), q.heads(), q.rows(), v.cols()};
  const std::array<std::int64_t, 4> probs_shape{q.batch(), q.heads(), q.rows(), q.rows()};
  ASSERT_EQ(got.output.shape, output_shape) << "output must be (B, H, N, dv)";
  ASSERT_EQ(got.probs.shape, probs_shape) << "probs must be (B, H, N, N)";
  EXPECT_TRUE(rooflab::testing::AllCloseIn("output", "reference", got.output.data, expected.output, kFp32.atol,
                                           kFp32.rtol, axes(got.output)));
  EXPECT_TRUE(rooflab::testing::AllCloseIn("probs", "reference", got.probs.data, expected.probs, kFp32.atol, kFp32.rtol,
                                           probs_axes(q)));
  const std::int64_t n = q.rows();
  for (std::int64_t bh = 0; bh < q.matrices(); ++bh)
    for (std::int64_t e = 0; e < n * n; ++e)
      if (mask[reference::at(e)] == -INFINITY && got.probs.row(bh, 0)[e] != 0.0f) {
        ADD_FAILURE() << "probs(bh=" << bh << ", i=" << e / n << ", j=" << e % n << ") = " << got.probs.row(bh, 0)[e]
                      << " but the mask hides that key: it must be exactly 0";
        return;
      }
}

// attention_backward's dq, dk and dv against central differences of
// L = Σ d_output ⊙ attention(q, k, v, mask), given the reference's
// probabilities (so that backward is graded apart from your forward).
inline void expect_backward_matches_finite_differences(const Tensor4& q, const Tensor4& k, const Tensor4& v,
                                                       const std::vector<float>& mask, const Tensor4& d_output,
                                                       const std::string& what) {
  SCOPED_TRACE(what);
  const Tensor4 probs = reference::probs_as_float(reference::attention(q, k, v, mask), q);
  const AttentionGradients got = attention_backward(q, k, v, probs, d_output);
  const reference::Gradients expected = reference::finite_difference_gradients(q, k, v, mask, d_output);
  ASSERT_EQ(got.dq.shape, q.shape) << "dq must have q's shape";
  ASSERT_EQ(got.dk.shape, k.shape) << "dk must have k's shape";
  ASSERT_EQ(got.dv.shape, v.shape) << "dv must have v's shape";
  const auto close = [](const char* name, const Tensor4& actual, const std::vector<double>& finite_differences) {
    return rooflab::testing::AllCloseIn(name, "finite differences", actual.data, finite_differences, kGradient.atol,
                                        kGradient.rtol, axes(actual));
  };
  EXPECT_TRUE(close("dq", got.dq, expected.dq));
  EXPECT_TRUE(close("dk", got.dk, expected.dk));
  EXPECT_TRUE(close("dv", got.dv, expected.dv));
}

// fp32 state against the fp64 reference. An fp32 implementation holds β1 and
// β2 to 6e-8, so 1 − β2 (1e-4 at β2 = 0.9999) may be off by 3e-4 of itself:
// v may differ by a relative 1e-3 and each update by a few parts in 1e4 of
// the learning rate. Forgetting the bias correction or a square root is off by
// far more.
inline void expect_adam_state_matches(const std::vector<float>& params, const std::vector<float>& m,
                                      const std::vector<float>& v, const reference::AdamState& expected,
                                      const AdamConfig& config, double grad_scale, std::int64_t step) {
  const rooflab::testing::TensorAxes layout{{static_cast<std::int64_t>(params.size())}, {"i"}};
  EXPECT_TRUE(rooflab::testing::AllCloseIn("params", "reference", params, expected.params,
                                           1e-6 + 2e-3 * config.learning_rate, 1e-6, layout))
      << "after step " << step;
  EXPECT_TRUE(rooflab::testing::AllCloseIn("m", "reference", m, expected.m, 1e-6 * grad_scale, 1e-4, layout))
      << "after step " << step;
  EXPECT_TRUE(
      rooflab::testing::AllCloseIn("v", "reference", v, expected.v, 1e-6 * grad_scale * grad_scale, 1e-3, layout))
      << "after step " << step;
}

// What the causality tests compare: rows 0 … t of every (b, h) matrix of x.
inline std::vector<float> rows_through(const Tensor4& x, std::int64_t t) {
  std::vector<float> rows;
  for (std::int64_t bh = 0; bh < x.matrices(); ++bh) rows.insert(rows.end(), x.row(bh, 0), x.row(bh, t + 1));
  return rows;
}

// x with every row after t replaced by fresh values: the later tokens perturbed.
inline Tensor4 with_later_rows_redrawn(Tensor4 x, std::int64_t t, std::uint64_t seed) {
  const Tensor4 fresh = rooflab::random_normal(x.batch(), x.heads(), x.rows(), x.cols(), seed, 3.0f);
  for (std::int64_t bh = 0; bh < x.matrices(); ++bh)
    std::copy(fresh.row(bh, t + 1), fresh.row(bh, x.rows()), x.row(bh, t + 1));
  return x;
}

}  // namespace a07_associative_recall::checks
