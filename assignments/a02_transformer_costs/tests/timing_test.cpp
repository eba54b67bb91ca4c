// Public tests, part 4: timing.hpp.
#include "a02_transformer_costs/timing.hpp"

#include "a02_transformer_costs/components.hpp"
#include "a02_transformer_costs/models.hpp"
#include "a02_transformer_costs/parameters.hpp"
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
  EXPECT_INVALID_ARGUMENT(roofline_time({1, 1}, Hardware{"broken", 0, 1}), "peak_flops_per_s");
}

TEST(CachedDecode, IsTheRatioOfRecomputeToCachedStep) {
  const Timing recompute = roofline_time(model_cost(gpt2_xl(), prefill(1, 1024)), lab_t4());
  const Timing cached = roofline_time(model_cost(gpt2_xl(), decode(1, 1024)), lab_t4());
  EXPECT_REL_NEAR(cached_decode_speedup(gpt2_xl(), 1, 1024, lab_t4()), recompute.time_s / cached.time_s, 1e-12);
  EXPECT_GT(cached_decode_speedup(gpt2_xl(), 1, 1024, lab_t4()), 5);
}

TEST(DecodeBreakdown, WeightsDominateBatchOneDecode) {
  const DecodeTime time = decode_time_breakdown(gpt2_xl(), 1024, lab_t4());
  EXPECT_REL_NEAR(time.weights_s, weight_bytes(gpt2_xl()) / 300e9, 1e-12);
  const Cost step = model_cost(gpt2_xl(), decode(1, 1024));
  EXPECT_REL_NEAR(time.weights_s + time.other_memory_s, step.bytes / 300e9, 1e-12);
  EXPECT_REL_NEAR(time.compute_s, step.flops / 65e12, 1e-12);
  EXPECT_REL_NEAR(time.step_s, time.weights_s + time.other_memory_s, 1e-12);
  EXPECT_GT(time.weights_s, 5 * time.other_memory_s);
}

TEST(Speculative, ExpectedTokensIsAGeometricSum) {
  EXPECT_REL_NEAR(expected_tokens_per_pass(0.8, 4), (1 - 0.32768) / 0.2, 1e-12);
  EXPECT_DOUBLE_EQ(expected_tokens_per_pass(1.0, 4), 5.0);
  EXPECT_DOUBLE_EQ(expected_tokens_per_pass(0.0, 4), 1.0);
  EXPECT_INVALID_ARGUMENT(expected_tokens_per_pass(1.5, 4), "acceptance_rate");
}

TEST(Speculative, SpeedupDividesByTheDraftCost) {
  EXPECT_REL_NEAR(speculative_speedup(0.8, 4, 0.05), 3.3616 / 1.2, 1e-12);
  EXPECT_REL_NEAR(speculative_speedup(0.8, 4, 0.0), 3.3616, 1e-12);
  EXPECT_INVALID_ARGUMENT(speculative_speedup(0.8, 4, -0.1), "draft_cost_ratio");
}

}  // namespace
}  // namespace a02_transformer_costs
