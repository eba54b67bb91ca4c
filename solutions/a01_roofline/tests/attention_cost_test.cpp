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
  // Every (request, head) pair attends on its own: 4 × 8 = 32 times one head's work.
  const double one = 128.0 * 128 * (4 * 64 + 5);
  EXPECT_REL_NEAR(attention_flops({1, 1, 128, 128, 64}), one, 1e-12);
  EXPECT_REL_NEAR(attention_flops({4, 8, 128, 128, 64}), 32.0 * one, 1e-12);
}

TEST(AttentionFlops, RejectsNonPositiveInputs) {
  const rooflab::testing::ArgumentNames names{"batch", "num_heads", "seq_len_q", "seq_len_kv", "head_dim"};
  EXPECT_INVALID_ARGUMENT(attention_flops({1, 1, 1, 0, 64}), "seq_len_kv");
}

TEST(AttentionBreakdown, D128N4096Fp16) {
  const double n = 4096, d = 128, e = 2;
  const AttentionBreakdown cost = attention_breakdown(n, d, e);
  EXPECT_REL_NEAR(cost.scores.flops, 2 * n * n * d, 1e-12);
  EXPECT_REL_NEAR(cost.scores.bytes, e * (2 * n * d + n * n), 1e-12);
  // 5 FLOPs per score over 2 bytes read and 2 written.
  EXPECT_REL_NEAR(cost.softmax.intensity, 1.25, 1e-12);
  // The total is the sum of the three steps: 4n²d + 5n² FLOPs over e(4nd + 4n²) bytes.
  EXPECT_REL_NEAR(cost.total.flops, 2 * n * n * d + 5 * n * n + 2 * n * n * d, 1e-12);
  EXPECT_REL_NEAR(cost.total.bytes, e * ((2 * n * d + n * n) + 2 * n * n + (n * n + 2 * n * d)), 1e-12);
  // n(4d + 5) / (4e(n + d)) = 4096·517 / (8·4224)
  EXPECT_REL_NEAR(cost.total.intensity, 4096.0 * 517.0 / (8.0 * 4224.0), 1e-12);
}

TEST(AttentionBreakdown, RejectsNonPositiveInputs) {
  const rooflab::testing::ArgumentNames names{"seq_len", "head_dim", "bytes_per_element"};
  EXPECT_INVALID_ARGUMENT(attention_breakdown(4096, 0, 2), "head_dim");
}

}  // namespace
}  // namespace a01_roofline
