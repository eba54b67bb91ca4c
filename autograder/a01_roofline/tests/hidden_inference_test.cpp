// Hidden tests, part 4: inference.hpp.
#include "a01_roofline/inference.hpp"
#include "rooflab/testing.hpp"

namespace a01_roofline {
namespace {

ModelConfig llama_70b_gqa() { return {"70b-gqa", 70e9, 80, 8192, 64, 8, 2}; }
ModelConfig seven_b() { return {"7b", 7e9, 32, 4096, 32, 32, 2}; }

TEST(InferenceHidden, DecodeStepGqa) {
  const DecodeStepCost cost = decode_step_cost(llama_70b_gqa(), 8, 4096);
  EXPECT_REL_NEAR(cost.weight_bytes, 140e9, 1e-12);
  EXPECT_REL_NEAR(cost.kv_cache_bytes, 8.0 * 4096 * 80 * 2 * 8 * 128 * 2, 1e-12);
  // Attention FLOPs use all 64 query heads even though only 8 KV heads are stored.
  EXPECT_REL_NEAR(cost.flops, 2.0 * 8 * 70e9 + 80.0 * 8 * 64 * 4096 * (4 * 128 + 5), 1e-12);
}

TEST(InferenceHidden, IntensityGrowsWithBatch) {
  double previous = 0;
  for (double batch = 1; batch <= 512; batch *= 2) {
    const double now = decode_step_cost(seven_b(), batch, 1024).intensity;
    EXPECT_GT(now, previous) << "batch " << batch;
    previous = now;
  }
}

TEST(InferenceHidden, LongContextErodesTheBatchGain) {
  // With a long cache the per-request KV reads dominate and intensity stops growing.
  const double short_context = decode_step_cost(seven_b(), 64, 128).intensity;
  const double long_context = decode_step_cost(seven_b(), 64, 32768).intensity;
  EXPECT_LT(long_context, short_context);
}

TEST(InferenceHidden, AnalysisH100LargeBatchBecomesComputeBound) {
  const ModelConfig model = seven_b();
  const GpuSpec& h100 = find_gpu("h100-sxm-fp16");
  const InferenceAnalysis small = analyze_inference(model, h100, 1, 128);
  const InferenceAnalysis large = analyze_inference(model, h100, 4096, 16);
  EXPECT_TRUE(small.memory_bound);
  EXPECT_FALSE(large.memory_bound);
  EXPECT_REL_NEAR(large.compute_utilization, 1.0, 1e-12);
  EXPECT_REL_NEAR(large.max_tokens_per_s, 4096.0 / large.step_time_compute_s, 1e-12);
  EXPECT_REL_NEAR(small.max_tokens_per_s, 1.0 / small.step_time_memory_s, 1e-12);
}

TEST(InferenceHidden, AnalysisFieldsAreConsistent) {
  const InferenceAnalysis a = analyze_inference(llama_70b_gqa(), find_gpu("h200-sxm"), 16, 8192);
  EXPECT_REL_NEAR(a.decode_intensity, a.step_flops / a.step_bytes, 1e-12);
  EXPECT_REL_NEAR(a.step_time_memory_s, a.step_bytes / 4.8e12, 1e-12);
  EXPECT_REL_NEAR(a.step_time_compute_s, a.step_flops / 989.4e12, 1e-12);
  EXPECT_REL_NEAR(a.ridge_point, 989.4e12 / 4.8e12, 1e-12);
  EXPECT_REL_NEAR(a.compute_utilization, a.decode_intensity / a.ridge_point, 1e-12);
  EXPECT_FALSE(a.fits_in_memory);  // 140 GB of weights + 43 GB of cache > 141 GB
}

TEST(InferenceHidden, FitsOnlyWhileWeightsPlusCacheFit) {
  // 7B fp16 on a 16 GB T4 at 2048 tokens: 14 GB + 1.07 GB per request.
  EXPECT_TRUE(analyze_inference(seven_b(), find_gpu("t4"), 1, 2048).fits_in_memory);
  EXPECT_FALSE(analyze_inference(seven_b(), find_gpu("t4"), 2, 2048).fits_in_memory);
}

TEST(InferenceHidden, InvalidModelAndGpuNamed) {
  ModelConfig model = seven_b();
  model.num_kv_heads = 0;
  EXPECT_INVALID_ARGUMENT(decode_step_cost(model, 1, 1), "num_kv_heads");
  model = seven_b();
  model.num_params = -7e9;
  EXPECT_INVALID_ARGUMENT(decode_step_cost(model, 1, 1), "num_params");
  GpuSpec gpu = find_gpu("l4");
  gpu.memory_bytes = 0;
  EXPECT_INVALID_ARGUMENT(analyze_inference(seven_b(), gpu, 1, 1), "memory_bytes");
  EXPECT_INVALID_ARGUMENT(analyze_inference(seven_b(), find_gpu("l4"), 1, 0), "context_len");
  EXPECT_INVALID_ARGUMENT(analyze_inference(seven_b(), find_gpu("l4"), -1, 10), "batch");
}

}  // namespace
}  // namespace a01_roofline
