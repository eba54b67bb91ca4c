// Public tests, part 4: timing.hpp.
#include "a02_transformer_costs/timing.hpp"

#include "a02_transformer_costs/models.hpp"
#include "rooflab/testing.hpp"

namespace a02_transformer_costs {
namespace {

TEST(RooflineTime, TheSlowerOfComputeAndMemory) {
  const Timing timing = roofline_time({6.5e12, 600e9}, lab_t4());
  EXPECT_REL_NEAR(timing.compute_s, 0.1, 1e-12);
  EXPECT_REL_NEAR(timing.memory_s, 2.0, 1e-12);
  EXPECT_REL_NEAR(timing.time_s, 2.0, 1e-12);
  EXPECT_TRUE(timing.memory_bound);
  EXPECT_FALSE(roofline_time({65e12, 3e9}, lab_t4()).memory_bound);
}

TEST(RooflineTime, RejectsNonPositiveHardware) {
  const rooflab::testing::ArgumentNames names{"flops", "bytes", "peak_flops_per_s", "bandwidth_bytes_per_s"};
  EXPECT_INVALID_ARGUMENT(roofline_time({1, 1}, Hardware{"broken", 0, 1}), "peak_flops_per_s");
  EXPECT_INVALID_ARGUMENT(roofline_time({1, 1}, Hardware{"broken", 1, -1}), "bandwidth_bytes_per_s");
}

// GPT-2 XL on the lab's T4, from the component tests' formulas: a 1024-token
// prefill is 3.514 TFLOP and 21.78 GB (memory-bound, 72.59 ms against 54.06 ms
// of compute); one cached decode step at 1024 is 3.430 GFLOP and 3.439 GB
// (memory-bound, 11.46 ms).
constexpr double kPrefillFlops = 3513702809600, kPrefillBytes = 21777323136;
constexpr double kDecodeFlops = 3430121600, kDecodeBytes = 3438903714;

TEST(CachedDecode, IsTheRatioOfRecomputeToCachedStep) {
  constexpr double recompute_s = kPrefillBytes / 300e9, cached_s = kDecodeBytes / 300e9;
  static_assert(recompute_s > kPrefillFlops / 65e12 && cached_s > kDecodeFlops / 65e12, "both memory-bound");
  static_assert(recompute_s > 5 * cached_s, "the cache saves more than 5x here");
  EXPECT_REL_NEAR(cached_decode_speedup(gpt2_xl(), 1, 1024, lab_t4()), recompute_s / cached_s, 1e-9);
}

TEST(DecodeBreakdown, WeightsDominateBatchOneDecode) {
  // 48 layers of 4D² + 2DF linear weights with biases, and the V×D LM head, in fp16.
  const double D = 1600, F = 6400, V = 50257;
  const double weights_s = 2 * (48 * (4 * D * D + 4 * D + 2 * D * F + F + D) + V * D) / 300e9;
  const DecodeTime time = decode_time_breakdown(gpt2_xl(), 1024, lab_t4());
  EXPECT_REL_NEAR(time.weights_s, weights_s, 1e-12);
  EXPECT_NEAR(time.other_memory_s, kDecodeBytes / 300e9 - weights_s, 1e-12);
  EXPECT_REL_NEAR(time.compute_s, kDecodeFlops / 65e12, 1e-9);
  EXPECT_REL_NEAR(time.step_s, kDecodeBytes / 300e9, 1e-9);
  // The lesson: at batch 1 the weights are 90 % of a decode step's bytes.
  static_assert(2 * (48 * (4 * 1600.0 * 1600 + 4 * 1600 + 2 * 1600 * 6400 + 6400 + 1600) + 50257.0 * 1600) >
                0.9 * kDecodeBytes);
}

TEST(Speculative, ExpectedTokensIsAGeometricSum) {
  EXPECT_REL_NEAR(expected_tokens_per_pass(0.8, 4), (1 - 0.32768) / 0.2, 1e-12);
  EXPECT_DOUBLE_EQ(expected_tokens_per_pass(1.0, 4), 5.0);
  EXPECT_DOUBLE_EQ(expected_tokens_per_pass(0.0, 4), 1.0);
}

TEST(Speculative, SpeedupDividesByTheDraftCost) {
  EXPECT_REL_NEAR(speculative_speedup(0.8, 4, 0.05), 3.3616 / 1.2, 1e-12);
  EXPECT_REL_NEAR(speculative_speedup(0.8, 4, 0.0), 3.3616, 1e-12);
}

TEST(Speculative, RejectsBadInputs) {
  const rooflab::testing::ArgumentNames names{"acceptance_rate", "draft_tokens", "draft_cost_ratio"};
  EXPECT_INVALID_ARGUMENT(expected_tokens_per_pass(1.5, 4), "acceptance_rate");
  EXPECT_INVALID_ARGUMENT(speculative_speedup(0.8, 4, -0.1), "draft_cost_ratio");
}

}  // namespace
}  // namespace a02_transformer_costs
