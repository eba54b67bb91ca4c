// Hidden tests, part 3: attention_cost.hpp. Each expected value is the
// contract's formula written out here, never another of the student's
// answers; the *DrawnAtGradingTime tests, whose shapes come from the
// grading-time seed, gate the public tests' points (rubric.toml).
#include <cmath>
#include <random>
#include <string>

#include "a01_roofline/attention_cost.hpp"
#include "rooflab/testing.hpp"

namespace a01_roofline {
namespace {

// attention_cost.hpp's table for one head of length n, dimension d, e bytes per element.
AttentionBreakdown expected_breakdown(double n, double d, double e) {
  AttentionBreakdown cost;
  cost.scores = {2 * n * n * d, e * (2 * n * d + n * n), 0};
  cost.softmax = {5 * n * n, e * 2 * n * n, 0};
  cost.output = {2 * n * n * d, e * (n * n + 2 * n * d), 0};
  cost.total = {4 * n * n * d + 5 * n * n, e * (4 * n * d + 4 * n * n), 0};
  for (StepCost* step : {&cost.scores, &cost.softmax, &cost.output, &cost.total})
    step->intensity = step->flops / step->bytes;
  return cost;
}

void expect_step(const StepCost& got, const StepCost& want, const std::string& what) {
  EXPECT_REL_NEAR(got.flops, want.flops, 1e-12) << what;
  EXPECT_REL_NEAR(got.bytes, want.bytes, 1e-12) << what;
  EXPECT_REL_NEAR(got.intensity, want.intensity, 1e-12) << what;
}

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
  EXPECT_REL_NEAR(cost.output.intensity, (2.0 * 128 * 128 * 64) / (4.0 * (128 * 128 + 2 * 128 * 64)), 1e-12);
}

TEST(AttentionHidden, SoftmaxIsTheLeastIntenseStep) {
  // Softmax does 5 FLOPs per score for 2e bytes of it, 5/(2e) FLOP/byte at any
  // length; each matmul does 2d FLOPs per score, 2nd/(e(n + 2d)) FLOP/byte,
  // 64 already at n = 256, d = 128 in fp16.
  for (double n : {256.0, 4096.0, 65536.0}) {
    const AttentionBreakdown cost = attention_breakdown(n, 128, 2);
    const AttentionBreakdown want = expected_breakdown(n, 128, 2);
    const std::string at = " at n = " + std::to_string(n);
    EXPECT_REL_NEAR(cost.softmax.intensity, 1.25, 1e-12) << at;
    EXPECT_REL_NEAR(cost.scores.intensity, want.scores.intensity, 1e-12) << at;
    EXPECT_REL_NEAR(cost.output.intensity, want.output.intensity, 1e-12) << at;
  }
}

TEST(AttentionHidden, TotalIntensityApproachesItsLimit) {
  // n(4d + 5) / (4e(n + d)) → (4d + 5) / (4e) as n → ∞; for d = 128, fp16: 64.625.
  EXPECT_REL_NEAR(attention_breakdown(1e9, 128, 2).total.intensity, 64.625, 1e-6);
  // Still well below it at n = 8192.
  constexpr double at_8192 = 8192.0 * 517 / (8.0 * (8192 + 128));
  static_assert(at_8192 < 64.625 * 0.99);
  EXPECT_REL_NEAR(attention_breakdown(8192, 128, 2).total.intensity, at_8192, 1e-12);
}

TEST(AttentionHidden, InvalidInputsNamed) {
  {
    const rooflab::testing::ArgumentNames names{"batch", "num_heads", "seq_len_q", "seq_len_kv", "head_dim"};
    EXPECT_INVALID_ARGUMENT(attention_flops({0, 1, 1, 1, 1}), "batch");
    EXPECT_INVALID_ARGUMENT(attention_flops({1, -2, 1, 1, 1}), "num_heads");
    EXPECT_INVALID_ARGUMENT(attention_flops({1, 1, 0, 1, 1}), "seq_len_q");
  }
  {
    const rooflab::testing::ArgumentNames names{"seq_len", "head_dim", "bytes_per_element"};
    EXPECT_INVALID_ARGUMENT(attention_breakdown(0, 64, 2), "seq_len");
    EXPECT_INVALID_ARGUMENT(attention_breakdown(64, 64, 0), "bytes_per_element");
  }
}

TEST(AttentionHidden, FlopsOnShapesDrawnAtGradingTime) {
  std::mt19937_64 engine(rooflab::testing::seed());
  const auto pick = [&](int lo, int hi) { return double(std::uniform_int_distribution<int>(lo, hi)(engine)); };
  for (int trial = 0; trial < 25; ++trial) {
    const double batch = pick(1, 64), heads = pick(1, 128), seq_q = pick(1, 4096), seq_kv = pick(1, 131072),
                 head_dim = pick(1, 256);
    EXPECT_REL_NEAR(attention_flops({batch, heads, seq_q, seq_kv, head_dim}),
                    batch * heads * seq_q * seq_kv * (4 * head_dim + 5), 1e-12)
        << "seed " << rooflab::testing::seed() << ", trial " << trial;
  }
}

TEST(AttentionHidden, BreakdownOnShapesDrawnAtGradingTime) {
  std::mt19937_64 engine(rooflab::testing::seed());
  const auto pick = [&](int lo, int hi) { return double(std::uniform_int_distribution<int>(lo, hi)(engine)); };
  for (int trial = 0; trial < 25; ++trial) {
    const double n = pick(1, 200000), d = pick(1, 512);
    const double e = 0.5 * std::pow(2.0, pick(0, 3));  // int4, int8, fp16 or fp32
    const AttentionBreakdown cost = attention_breakdown(n, d, e);
    const AttentionBreakdown want = expected_breakdown(n, d, e);
    const std::string at = " of n = " + std::to_string(n) + ", d = " + std::to_string(d) +
                           ", e = " + std::to_string(e) + "; seed " + std::to_string(rooflab::testing::seed()) +
                           ", trial " + std::to_string(trial);
    expect_step(cost.scores, want.scores, "scores" + at);
    expect_step(cost.softmax, want.softmax, "softmax" + at);
    expect_step(cost.output, want.output, "output" + at);
    expect_step(cost.total, want.total, "total" + at);
  }
}

}  // namespace
}  // namespace a01_roofline
