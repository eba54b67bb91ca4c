// Hidden tests, part 3: attention_cost.hpp.
#include "a01_roofline/attention_cost.hpp"
#include "rooflab/testing.hpp"

namespace a01_roofline {
namespace {

TEST(AttentionHidden, FlopsOfADecodeStep) {
  // One new token (seq_q = 1) of 16 requests, 40 heads of 128, attending to 4096 cached positions.
  EXPECT_REL_NEAR(attention_flops({16, 40, 1, 4096, 128}), 16.0 * 40 * 4096 * (4 * 128 + 5), 1e-12);
}

TEST(AttentionHidden, FlopsCrossAttentionShapes) {
  EXPECT_REL_NEAR(attention_flops({2, 8, 77, 4096, 64}), 2.0 * 8 * 77 * 4096 * (4 * 64 + 5), 1e-12);
}

TEST(AttentionHidden, BreakdownStepsForSmallShape) {
  const AttentionBreakdown cost = attention_breakdown(128, 64, 4);
  EXPECT_REL_NEAR(cost.scores.flops, 2.0 * 128 * 128 * 64, 1e-12);
  EXPECT_REL_NEAR(cost.scores.bytes, 4.0 * (2 * 128 * 64 + 128 * 128), 1e-12);
  EXPECT_REL_NEAR(cost.softmax.flops, 5.0 * 128 * 128, 1e-12);
  EXPECT_REL_NEAR(cost.softmax.bytes, 4.0 * 2 * 128 * 128, 1e-12);
  EXPECT_REL_NEAR(cost.output.flops, 2.0 * 128 * 128 * 64, 1e-12);
  EXPECT_REL_NEAR(cost.output.bytes, 4.0 * (128 * 128 + 2 * 128 * 64), 1e-12);
  EXPECT_REL_NEAR(cost.output.intensity, cost.output.flops / cost.output.bytes, 1e-12);
}

TEST(AttentionHidden, SoftmaxIsTheLeastIntenseStep) {
  for (double n : {256.0, 4096.0, 65536.0}) {
    const AttentionBreakdown cost = attention_breakdown(n, 128, 2);
    EXPECT_LT(cost.softmax.intensity, cost.scores.intensity);
    EXPECT_LT(cost.softmax.intensity, cost.output.intensity);
  }
}

TEST(AttentionHidden, TotalIntensityApproachesItsLimit) {
  // n(4d + 5) / (4e(n + d)) → (4d + 5) / (4e) as n → ∞; for d = 128, fp16: 64.625.
  EXPECT_REL_NEAR(attention_breakdown(1e9, 128, 2).total.intensity, 64.625, 1e-6);
  EXPECT_LT(attention_breakdown(4096, 128, 2).total.intensity, 64.625);
}

TEST(AttentionHidden, InvalidInputsNamed) {
  EXPECT_INVALID_ARGUMENT(attention_flops({0, 1, 1, 1, 1}), "batch");
  EXPECT_INVALID_ARGUMENT(attention_flops({1, -2, 1, 1, 1}), "num_heads");
  EXPECT_INVALID_ARGUMENT(attention_flops({1, 1, 0, 1, 1}), "seq_len_q");
  EXPECT_INVALID_ARGUMENT(attention_breakdown(0, 64, 2), "seq_len");
  EXPECT_INVALID_ARGUMENT(attention_breakdown(64, 64, 0), "bytes_per_element");
}

}  // namespace
}  // namespace a01_roofline
