// Hidden tests, part 4: inference.hpp. Each expected value is the contract's
// definition written out here, never another of the student's answers, so an
// analysis whose fields agree with each other but not with the model fails;
// the *DrawnAtGradingTime tests, whose models and GPUs come from the
// grading-time seed, gate the public tests' points (rubric.toml).
#include <algorithm>
#include <cmath>
#include <random>
#include <string>

#include "a01_roofline/inference.hpp"
#include "rooflab/testing.hpp"

namespace a01_roofline {
namespace {

ModelConfig llama_70b_gqa() { return {"70b-gqa", 70e9, 80, 8192, 64, 8, 2}; }
ModelConfig seven_b() { return {"7b", 7e9, 32, 4096, 32, 32, 2}; }

// inference.hpp's decode step, written out: the weights once per step, one
// cache per request, 2 FLOPs per parameter per token plus attention over the
// cache with every query head.
DecodeStepCost expected_step(const ModelConfig& m, double batch, double kv_len) {
  const double head_dim = m.d_model / m.num_heads;
  DecodeStepCost step;
  step.weight_bytes = m.num_params * m.bytes_per_param;
  step.kv_cache_bytes = batch * kv_len * m.num_layers * 2 * m.num_kv_heads * head_dim * m.bytes_per_param;
  step.bytes = step.weight_bytes + step.kv_cache_bytes;
  step.flops = 2 * batch * m.num_params + m.num_layers * batch * m.num_heads * kv_len * (4 * head_dim + 5);
  step.intensity = step.flops / step.bytes;
  return step;
}

// InferenceAnalysis's fields as docs/01_memory_bound_inference.md defines them.
InferenceAnalysis expected_analysis(const ModelConfig& m, const GpuSpec& gpu, double batch, double context_len) {
  const DecodeStepCost step = expected_step(m, batch, context_len);
  const double peak = gpu.peak_flops_per_s, bandwidth = gpu.bandwidth_bytes_per_s;
  InferenceAnalysis a;
  a.weight_bytes = step.weight_bytes;
  a.kv_cache_bytes = step.kv_cache_bytes;
  a.fits_in_memory = step.bytes <= gpu.memory_bytes;
  a.step_flops = step.flops;
  a.step_bytes = step.bytes;
  a.decode_intensity = step.intensity;
  a.ridge_point = peak / bandwidth;
  a.memory_bound = step.intensity < peak / bandwidth;
  a.step_time_memory_s = step.bytes / bandwidth;
  a.step_time_compute_s = step.flops / peak;
  a.max_tokens_per_s = batch / std::max(a.step_time_memory_s, a.step_time_compute_s);
  a.compute_utilization = std::min(peak, bandwidth * step.intensity) / peak;
  return a;
}

void expect_step(const DecodeStepCost& got, const DecodeStepCost& want, const std::string& where) {
  EXPECT_REL_NEAR(got.weight_bytes, want.weight_bytes, 1e-12) << where;
  EXPECT_REL_NEAR(got.kv_cache_bytes, want.kv_cache_bytes, 1e-12) << where;
  EXPECT_REL_NEAR(got.bytes, want.bytes, 1e-12) << where;
  EXPECT_REL_NEAR(got.flops, want.flops, 1e-12) << where;
  EXPECT_REL_NEAR(got.intensity, want.intensity, 1e-12) << where;
}

void expect_analysis(const InferenceAnalysis& got, const InferenceAnalysis& want, const std::string& where) {
  EXPECT_REL_NEAR(got.weight_bytes, want.weight_bytes, 1e-12) << where;
  EXPECT_REL_NEAR(got.kv_cache_bytes, want.kv_cache_bytes, 1e-12) << where;
  EXPECT_EQ(got.fits_in_memory, want.fits_in_memory) << where;
  EXPECT_REL_NEAR(got.step_flops, want.step_flops, 1e-12) << where;
  EXPECT_REL_NEAR(got.step_bytes, want.step_bytes, 1e-12) << where;
  EXPECT_REL_NEAR(got.decode_intensity, want.decode_intensity, 1e-12) << where;
  EXPECT_REL_NEAR(got.ridge_point, want.ridge_point, 1e-12) << where;
  EXPECT_EQ(got.memory_bound, want.memory_bound) << where;
  EXPECT_REL_NEAR(got.step_time_memory_s, want.step_time_memory_s, 1e-12) << where;
  EXPECT_REL_NEAR(got.step_time_compute_s, want.step_time_compute_s, 1e-12) << where;
  EXPECT_REL_NEAR(got.max_tokens_per_s, want.max_tokens_per_s, 1e-12) << where;
  EXPECT_REL_NEAR(got.compute_utilization, want.compute_utilization, 1e-12) << where;
}

double pick(std::mt19937_64& engine, int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(engine); }

double log_uniform(std::mt19937_64& engine, double lo, double hi) {
  return lo * std::pow(hi / lo, std::uniform_real_distribution<double>(0, 1)(engine));
}

// A model with whole heads of 16 to 256 dimensions, MHA or GQA, stored in
// int4, int8, fp16 or fp32.
ModelConfig draw_model(std::mt19937_64& engine) {
  ModelConfig model;
  model.name = "drawn";
  model.num_params = std::round(log_uniform(engine, 1e8, 1e12));
  model.num_layers = pick(engine, 1, 128);
  model.num_heads = pick(engine, 1, 128);
  model.d_model = model.num_heads * pick(engine, 16, 256);
  model.num_kv_heads = pick(engine, 1, static_cast<int>(model.num_heads));
  model.bytes_per_param = 0.5 * std::pow(2.0, pick(engine, 0, 3));
  return model;
}

std::string describe(const ModelConfig& m, double batch, double kv_len) {
  return "model {" + std::to_string(m.num_params) + " params, " + std::to_string(m.num_layers) + " layers, d_model " +
         std::to_string(m.d_model) + ", " + std::to_string(m.num_heads) + " heads, " + std::to_string(m.num_kv_heads) +
         " kv heads, " + std::to_string(m.bytes_per_param) + " bytes}, batch " + std::to_string(batch) + ", length " +
         std::to_string(kv_len) + "; seed " + std::to_string(rooflab::testing::seed());
}

TEST(InferenceHidden, DecodeStepGqa) {
  const DecodeStepCost cost = decode_step_cost(llama_70b_gqa(), 8, 4096);
  EXPECT_REL_NEAR(cost.weight_bytes, 140e9, 1e-12);
  EXPECT_REL_NEAR(cost.kv_cache_bytes, 8.0 * 4096 * 80 * 2 * 8 * 128 * 2, 1e-12);
  // Attention FLOPs use all 64 query heads even though only 8 KV heads are stored.
  EXPECT_REL_NEAR(cost.flops, 2.0 * 8 * 70e9 + 80.0 * 8 * 64 * 4096 * (4 * 128 + 5), 1e-12);
}

TEST(InferenceHidden, IntensityGrowsWithBatch) {
  // The batch shares one read of the weights, so intensity climbs with it
  // (about batch FLOPs per byte while the weights dominate the bytes).
  for (double batch = 1; batch <= 512; batch *= 2) {
    EXPECT_REL_NEAR(decode_step_cost(seven_b(), batch, 1024).intensity, expected_step(seven_b(), batch, 1024).intensity,
                    1e-12)
        << "batch " << batch;
  }
}

TEST(InferenceHidden, LongContextErodesTheBatchGain) {
  // With a long cache the per-request KV reads dominate and intensity stops growing.
  const double short_context = expected_step(seven_b(), 64, 128).intensity;
  const double long_context = expected_step(seven_b(), 64, 32768).intensity;
  ASSERT_LT(long_context, short_context / 10) << "test bug: the example no longer shows the erosion";
  EXPECT_REL_NEAR(decode_step_cost(seven_b(), 64, 128).intensity, short_context, 1e-12);
  EXPECT_REL_NEAR(decode_step_cost(seven_b(), 64, 32768).intensity, long_context, 1e-12);
}

TEST(InferenceHidden, AnalysisH100LargeBatchBecomesComputeBound) {
  const ModelConfig model = seven_b();
  const GpuSpec& h100 = find_gpu("h100-sxm-fp16");
  const InferenceAnalysis small = analyze_inference(model, h100, 1, 128);
  const InferenceAnalysis large = analyze_inference(model, h100, 4096, 16);
  EXPECT_TRUE(small.memory_bound);
  EXPECT_FALSE(large.memory_bound);
  // Compute-bound: the tensor cores run flat out and the FLOPs set the pace.
  EXPECT_REL_NEAR(large.compute_utilization, 1.0, 1e-12);
  const DecodeStepCost small_step = expected_step(model, 1, 128), large_step = expected_step(model, 4096, 16);
  EXPECT_REL_NEAR(large.max_tokens_per_s, 4096.0 / (large_step.flops / 989.4e12), 1e-12);
  EXPECT_REL_NEAR(small.max_tokens_per_s, 1.0 / (small_step.bytes / 3.35e12), 1e-12);
  expect_analysis(small, expected_analysis(model, h100, 1, 128), "batch 1, 128 tokens");
  expect_analysis(large, expected_analysis(model, h100, 4096, 16), "batch 4096, 16 tokens");
}

TEST(InferenceHidden, AnalysisFieldsMatchTheirDefinitions) {
  const InferenceAnalysis a = analyze_inference(llama_70b_gqa(), find_gpu("h200-sxm"), 16, 8192);
  const DecodeStepCost step = expected_step(llama_70b_gqa(), 16, 8192);
  EXPECT_REL_NEAR(a.decode_intensity, step.flops / step.bytes, 1e-12);
  EXPECT_REL_NEAR(a.step_time_memory_s, step.bytes / 4.8e12, 1e-12);
  EXPECT_REL_NEAR(a.step_time_compute_s, step.flops / 989.4e12, 1e-12);
  EXPECT_REL_NEAR(a.ridge_point, 989.4e12 / 4.8e12, 1e-12);
  // Memory-bound, so the tensor cores get intensity / ridge of their peak.
  EXPECT_REL_NEAR(a.compute_utilization, (step.flops / step.bytes) / (989.4e12 / 4.8e12), 1e-12);
  EXPECT_FALSE(a.fits_in_memory);  // 140 GB of weights + 43 GB of cache > 141 GB
  expect_analysis(a, expected_analysis(llama_70b_gqa(), find_gpu("h200-sxm"), 16, 8192), "70B on H200");
}

TEST(InferenceHidden, FitsOnlyWhileWeightsPlusCacheFit) {
  // 7B fp16 on a 16 GB T4 at 2048 tokens: 14 GB + 1.07 GB per request.
  EXPECT_TRUE(analyze_inference(seven_b(), find_gpu("t4"), 1, 2048).fits_in_memory);
  EXPECT_FALSE(analyze_inference(seven_b(), find_gpu("t4"), 2, 2048).fits_in_memory);
}

TEST(InferenceHidden, InvalidModelAndGpuNamed) {
  {
    const rooflab::testing::ArgumentNames names{"num_params",   "num_layers",      "d_model", "num_heads",
                                                "num_kv_heads", "bytes_per_param", "batch",   "kv_len"};
    ModelConfig model = seven_b();
    model.num_kv_heads = 0;
    EXPECT_INVALID_ARGUMENT(decode_step_cost(model, 1, 1), "num_kv_heads");
    model = seven_b();
    model.num_params = -7e9;
    EXPECT_INVALID_ARGUMENT(decode_step_cost(model, 1, 1), "num_params");
  }
  {
    const rooflab::testing::ArgumentNames names{
        "num_params",   "num_layers",      "d_model",          "num_heads",
        "num_kv_heads", "bytes_per_param", "peak_flops_per_s", "bandwidth_bytes_per_s",
        "memory_bytes", "batch",           "context_len"};
    GpuSpec gpu = find_gpu("l4");
    gpu.memory_bytes = 0;
    EXPECT_INVALID_ARGUMENT(analyze_inference(seven_b(), gpu, 1, 1), "memory_bytes");
    EXPECT_INVALID_ARGUMENT(analyze_inference(seven_b(), find_gpu("l4"), 1, 0), "context_len");
    EXPECT_INVALID_ARGUMENT(analyze_inference(seven_b(), find_gpu("l4"), -1, 10), "batch");
  }
}

TEST(InferenceHidden, DecodeStepOnModelsDrawnAtGradingTime) {
  std::mt19937_64 engine(rooflab::testing::seed());
  for (int trial = 0; trial < 25; ++trial) {
    const ModelConfig model = draw_model(engine);
    const double batch = pick(engine, 1, 1024), kv_len = pick(engine, 1, 131072);
    expect_step(decode_step_cost(model, batch, kv_len), expected_step(model, batch, kv_len),
                describe(model, batch, kv_len) + ", trial " + std::to_string(trial));
  }
}

TEST(InferenceHidden, AnalysisOnDeploymentsDrawnAtGradingTime) {
  std::mt19937_64 engine(rooflab::testing::seed());
  for (int trial = 0; trial < 25; ++trial) {
    const ModelConfig model = draw_model(engine);
    const double batch = pick(engine, 1, 1024), context_len = pick(engine, 1, 131072);
    GpuSpec gpu{"drawn", "drawn", "fp16", 0, 0, 0};
    gpu.peak_flops_per_s = log_uniform(engine, 1e13, 1e16);
    gpu.bandwidth_bytes_per_s = log_uniform(engine, 1e11, 2e13);
    gpu.memory_bytes = log_uniform(engine, 1e10, 1e12);
    const InferenceAnalysis want = expected_analysis(model, gpu, batch, context_len);
    // Too close to either boundary, rounding rather than the model would decide the answer.
    if (std::fabs(want.step_bytes / gpu.memory_bytes - 1) < 1e-9 ||
        std::fabs(want.decode_intensity / want.ridge_point - 1) < 1e-9)
      continue;
    expect_analysis(analyze_inference(model, gpu, batch, context_len), want,
                    describe(model, batch, context_len) + ", GPU {" + std::to_string(gpu.peak_flops_per_s) +
                        " FLOP/s, " + std::to_string(gpu.bandwidth_bytes_per_s) + " B/s, " +
                        std::to_string(gpu.memory_bytes) + " B}, trial " + std::to_string(trial));
  }
}

}  // namespace
}  // namespace a01_roofline
