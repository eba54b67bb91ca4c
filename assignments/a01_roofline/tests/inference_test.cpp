// Public tests, part 4: inference.hpp.
#include "a01_roofline/inference.hpp"

#include "rooflab/testing.hpp"

namespace a01_roofline {
namespace {

ModelConfig seven_b() { return {"7b", 7e9, 32, 4096, 32, 32, 2}; }

TEST(DecodeStep, Batch1ReadsWeightsAndCache) {
  const DecodeStepCost cost = decode_step_cost(seven_b(), 1, 2048);
  EXPECT_REL_NEAR(cost.weight_bytes, 14e9, 1e-12);
  EXPECT_REL_NEAR(cost.kv_cache_bytes, 1073741824.0, 1e-12);
  EXPECT_REL_NEAR(cost.bytes, cost.weight_bytes + cost.kv_cache_bytes, 1e-12);
  // 2 × 7e9 + 32 layers × 32 heads × 2048 × (4·128 + 5)
  EXPECT_REL_NEAR(cost.flops, 14e9 + 32.0 * 32 * 2048 * 517, 1e-12);
  EXPECT_REL_NEAR(cost.intensity, cost.flops / cost.bytes, 1e-12);
}

TEST(DecodeStep, RejectsNonPositiveInputs) {
  EXPECT_INVALID_ARGUMENT(decode_step_cost(seven_b(), 0, 2048), "batch");
  EXPECT_INVALID_ARGUMENT(decode_step_cost(seven_b(), 1, -5), "kv_len");
}

TEST(InferenceAnalysis, SevenBillionOnA100IsMemoryBound) {
  const InferenceAnalysis analysis = analyze_inference(seven_b(), find_gpu("a100-sxm-80gb"), 1, 2048);
  EXPECT_TRUE(analysis.fits_in_memory);
  EXPECT_TRUE(analysis.memory_bound);
  EXPECT_REL_NEAR(analysis.ridge_point, 312e12 / 2.039e12, 1e-12);
  EXPECT_REL_NEAR(analysis.max_tokens_per_s, 2.039e12 / (14e9 + 1073741824.0), 1e-12);
  EXPECT_LT(analysis.compute_utilization, 0.01);
  // The catalog is provided; unknown ids are named in the error.
  EXPECT_INVALID_ARGUMENT(find_gpu("h900"), "h900");
}

}  // namespace
}  // namespace a01_roofline
