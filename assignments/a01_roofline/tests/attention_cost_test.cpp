// Public tests, part 3: attention_cost.hpp.
#include "a01_roofline/attention_cost.hpp"

#include "rooflab/testing.hpp"

namespace a01_roofline {
namespace {

TEST(AttentionFlops, OneHeadOneQuery) {
  // 1 × 1 × 1 × 10 scores × (2·64 + 5 + 2·64)
  EXPECT_REL_NEAR(attention_flops({1, 1, 1, 10, 64}), 2610.0, 1e-12);
}

TEST(AttentionFlops, ScalesWithBatchAndHeads) {
  const double one = attention_flops({1, 1, 128, 128, 64});
  EXPECT_REL_NEAR(attention_flops({4, 8, 128, 128, 64}), 32.0 * one, 1e-12);
}

TEST(AttentionFlops, RejectsNonPositiveInputs) {
  EXPECT_INVALID_ARGUMENT(attention_flops({1, 1, 1, 0, 64}), "seq_len_kv");
}

TEST(AttentionBreakdown, D128N4096Fp16) {
  const AttentionBreakdown cost = attention_breakdown(4096, 128, 2);
  EXPECT_REL_NEAR(cost.scores.flops, 2.0 * 4096 * 4096 * 128, 1e-12);
  EXPECT_REL_NEAR(cost.scores.bytes, 2.0 * (2.0 * 4096 * 128 + 4096.0 * 4096), 1e-12);
  EXPECT_REL_NEAR(cost.softmax.intensity, 1.25, 1e-12);
  EXPECT_REL_NEAR(cost.total.flops, cost.scores.flops + cost.softmax.flops + cost.output.flops, 1e-12);
  EXPECT_REL_NEAR(cost.total.intensity, cost.total.flops / cost.total.bytes, 1e-12);
  // n(4d + 5) / (4e(n + d)) = 4096·517 / (8·4224)
  EXPECT_REL_NEAR(cost.total.intensity, 4096.0 * 517.0 / (8.0 * 4224.0), 1e-12);
}

TEST(AttentionBreakdown, RejectsNonPositiveInputs) {
  EXPECT_INVALID_ARGUMENT(attention_breakdown(4096, 0, 2), "head_dim");
}

}  // namespace
}  // namespace a01_roofline
