// Public tests, part 3: attention backward. dq, dk and dv must be the
// gradients of L = Σ d_output ⊙ attention(q, k, v, mask), which central
// finite differences of the fp64 reference measure directly (no formula of
// yours or ours in between). The probabilities backward receives are the
// reference's, so these tests do not depend on your forward pass.
#include "recall_testing.hpp"

namespace a07_associative_recall {
namespace {

using checks::expect_backward_matches_finite_differences;
using checks::shape_text;

void expect_matches(std::int64_t b, std::int64_t h, std::int64_t n, std::int64_t d, std::int64_t dv,
                    const std::vector<float>& mask, const std::string& mask_name, std::uint64_t seed) {
  const Tensor4 q = rooflab::random_normal(b, h, n, d, seed), k = rooflab::random_normal(b, h, n, d, seed + 1),
                v = rooflab::random_normal(b, h, n, dv, seed + 2),
                d_output = rooflab::random_normal(b, h, n, dv, seed + 3);
  expect_backward_matches_finite_differences(q, k, v, mask, d_output, shape_text(q, v, mask_name));
}

TEST(AttentionBackward, CausalMaskMatchesFiniteDifferences) {
  expect_matches(1, 2, 6, 4, 3, reference::causal(6), "causal", 1);
  expect_matches(2, 1, 9, 5, 5, reference::causal(9), "causal", 2);  // d not a multiple of 8
  expect_matches(1, 1, 1, 3, 2, reference::causal(1), "causal", 3);  // one token: dq = dk = 0, dv = d_output
}

TEST(AttentionBackward, RandomAdditiveMasksMatchFiniteDifferences) {
  expect_matches(2, 2, 7, 6, 4, reference::random_additive(7, 4), "random additive", 4);
  expect_matches(1, 3, 12, 8, 8, reference::random_additive(12, 5), "random additive", 5);
}

TEST(AttentionBackward, NoMaskMatchesFiniteDifferences) {
  expect_matches(1, 2, 8, 4, 4, std::vector<float>(64, 0.0f), "all-zero", 6);
}

TEST(AttentionBackward, RejectsBadInputs) {
  const rooflab::testing::ArgumentNames names{"n", "q", "k", "v", "mask", "probs", "d_output"};
  const Tensor4 q = rooflab::random_normal(2, 2, 5, 4, 1), k = rooflab::random_normal(2, 2, 5, 4, 2),
                v = rooflab::random_normal(2, 2, 5, 3, 3);
  const Tensor4 probs = reference::probs_as_float(reference::attention(q, k, v, reference::causal(5)), q);
  const Tensor4 d_output = rooflab::random_normal(2, 2, 5, 3, 4);
  Tensor4 short_q = q;
  short_q.data.pop_back();
  EXPECT_INVALID_ARGUMENT(attention_backward(short_q, k, v, probs, d_output), "q");
  EXPECT_INVALID_ARGUMENT(attention_backward(q, rooflab::random_normal(2, 2, 5, 6, 2), v, probs, d_output), "k");
  EXPECT_INVALID_ARGUMENT(attention_backward(q, k, rooflab::random_normal(2, 1, 5, 3, 3), probs, d_output), "v");
  EXPECT_INVALID_ARGUMENT(attention_backward(q, k, v, rooflab::zeros(2, 2, 5, 4), d_output), "probs");
  EXPECT_INVALID_ARGUMENT(attention_backward(q, k, v, rooflab::zeros(2, 1, 5, 5), d_output), "probs");
  Tensor4 short_probs = probs;
  short_probs.data.pop_back();
  EXPECT_INVALID_ARGUMENT(attention_backward(q, k, v, short_probs, d_output), "probs");
  EXPECT_INVALID_ARGUMENT(attention_backward(q, k, v, probs, rooflab::zeros(2, 2, 5, 4)), "d_output");
  EXPECT_INVALID_ARGUMENT(attention_backward(q, k, v, probs, rooflab::zeros(2, 2, 4, 3)), "d_output");
}

}  // namespace
}  // namespace a07_associative_recall
