// Public tests, part 4: inference.hpp.
#include "a01_roofline/inference.hpp"

#include "rooflab/testing.hpp"

namespace a01_roofline {
namespace {

ModelConfig seven_b() { return {"7b", 7e9, 32, 4096, 32, 32, 2}; }

TEST(DecodeStep, Batch1ReadsWeightsAndCache) {
  const DecodeStepCost cost = decode_step_cost(seven_b(), 1, 2048);
  // 7e9 × 2 bytes of weights; 2048 × 32 layers × 2 × 32 heads × 128 × 2 bytes of cache.
  const double weights = 14e9, cache = 1073741824.0;
  // 2 × 7e9 + 32 layers × 32 heads × 2048 × (4·128 + 5)
  const double flops = 14e9 + 32.0 * 32 * 2048 * 517;
  EXPECT_REL_NEAR(cost.weight_bytes, weights, 1e-12);
  EXPECT_REL_NEAR(cost.kv_cache_bytes, cache, 1e-12);
  EXPECT_REL_NEAR(cost.bytes, weights + cache, 1e-12);
  EXPECT_REL_NEAR(cost.flops, flops, 1e-12);
  EXPECT_REL_NEAR(cost.intensity, flops / (weights + cache), 1e-12);
}

TEST(DecodeStep, RejectsNonPositiveInputs) {
  const rooflab::testing::ArgumentNames names{"num_params",   "num_layers",      "d_model", "num_heads",
                                              "num_kv_heads", "bytes_per_param", "batch",   "kv_len"};
  EXPECT_INVALID_ARGUMENT(decode_step_cost(seven_b(), 0, 2048), "batch");
  EXPECT_INVALID_ARGUMENT(decode_step_cost(seven_b(), 1, -5), "kv_len");
}

TEST(InferenceAnalysis, SevenBillionOnA100IsMemoryBound) {
  const InferenceAnalysis analysis = analyze_inference(seven_b(), find_gpu("a100-sxm-80gb"), 1, 2048);
  constexpr double bytes = 14e9 + 1073741824.0, flops = 14e9 + 32.0 * 32 * 2048 * 517;
  constexpr double utilization = 2.039e12 * (flops / bytes) / 312e12;
  // About 1 FLOP per byte against a ridge near 153: the tensor cores idle over 99% of the time.
  static_assert(utilization < 0.01);
  EXPECT_TRUE(analysis.fits_in_memory);
  EXPECT_TRUE(analysis.memory_bound);
  EXPECT_REL_NEAR(analysis.ridge_point, 312e12 / 2.039e12, 1e-12);
  EXPECT_REL_NEAR(analysis.max_tokens_per_s, 2.039e12 / bytes, 1e-12);
  EXPECT_REL_NEAR(analysis.compute_utilization, utilization, 1e-12);
  {
    // The catalog is provided; its error names the unknown id itself.
    const rooflab::testing::ArgumentNames names{"h900"};
    EXPECT_INVALID_ARGUMENT(find_gpu("h900"), "h900");
  }
}

}  // namespace
}  // namespace a01_roofline
