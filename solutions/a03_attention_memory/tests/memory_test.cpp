// Public tests, part 2: memory estimates, and measurements that agree with them.
#include "a03_attention_memory/memory.hpp"

#include "rooflab/testing.hpp"

namespace a03_attention_memory {
namespace {

// A measurement counts what malloc hands out, rounded up to its granularity,
// plus small bookkeeping: it must be within 2 % + 64 KiB of the estimate.
void expect_measured_matches_estimate(Method method, const AttentionShape& shape) {
  const double estimated = estimate_memory(method, shape, Dtype::fp32).peak_extra;
  const double measured = measure_peak_memory(method, shape, 42);
  EXPECT_NEAR(measured, estimated, 0.02 * estimated + 65536) << "seq_len " << shape.seq_len;
}

TEST(EstimateMemory, StandardAttentionAt4096) {
  // The lab's headline: at N = 4096 one fp32 N×N matrix is 64 MiB, Q, K and V together 3 MiB.
  const MemoryEstimate estimate = estimate_memory(Method::standard, {1, 1, 4096, 64}, Dtype::fp32);
  EXPECT_EQ(estimate.inputs, 3.0 * 4096 * 64 * 4);
  EXPECT_EQ(estimate.scores, 4096.0 * 4096 * 4);
  EXPECT_EQ(estimate.weights, estimate.scores);
  EXPECT_EQ(estimate.output, 4096.0 * 64 * 4);
  EXPECT_EQ(estimate.state, 0.0);
  EXPECT_EQ(estimate.peak_extra, 2 * estimate.scores + estimate.output);
  EXPECT_EQ(estimate.total, estimate.inputs + estimate.peak_extra);
}

TEST(EstimateMemory, HalfPrecisionHalvesEveryTerm) {
  const AttentionShape shape{4, 8, 1024, 64};
  for (const Method method : {Method::standard, Method::linear, Method::linear_causal_cumsum}) {
    const MemoryEstimate fp32 = estimate_memory(method, shape, Dtype::fp32);
    EXPECT_EQ(estimate_memory(method, shape, Dtype::fp16).total, fp32.total / 2);
    EXPECT_EQ(estimate_memory(method, shape, Dtype::bf16).peak_extra, fp32.peak_extra / 2);
  }
}

TEST(EstimateMemory, LinearStateIsIndependentOfLength) {
  const MemoryEstimate at_1k = estimate_memory(Method::linear, {1, 1, 1024, 64}, Dtype::fp32);
  const MemoryEstimate at_8k = estimate_memory(Method::linear, {1, 1, 8192, 64}, Dtype::fp32);
  EXPECT_EQ(at_1k.state, (64.0 * 64 + 64) * 4);
  EXPECT_EQ(at_8k.state, at_1k.state);
  EXPECT_EQ(estimate_memory(Method::linear_causal_cumsum, {1, 1, 8192, 64}, Dtype::fp32).state,
            8192 * (64.0 * 64 + 64) * 4);
}

TEST(EstimateMemory, RejectsNonPositiveShapes) {
  EXPECT_INVALID_ARGUMENT(estimate_memory(Method::standard, {0, 1, 8, 8}, Dtype::fp32), "batch");
  EXPECT_INVALID_ARGUMENT(estimate_memory(Method::standard, {1, 1, -8, 8}, Dtype::fp32), "seq_len");
  EXPECT_INVALID_ARGUMENT(estimate_memory(Method::linear, {1, 1, 8, 0}, Dtype::fp32), "head_dim");
}

TEST(MeasurePeakMemory, StandardMatchesTheEstimate) {
  expect_measured_matches_estimate(Method::standard, {1, 2, 512, 32});
  expect_measured_matches_estimate(Method::standard, {1, 1, 1024, 64});
}

TEST(MeasurePeakMemory, LinearFormsMatchTheirEstimates) {
  expect_measured_matches_estimate(Method::linear, {2, 2, 1024, 32});
  expect_measured_matches_estimate(Method::linear_causal_recurrent, {2, 2, 1024, 32});
  expect_measured_matches_estimate(Method::linear_causal_cumsum, {1, 1, 512, 32});
}

TEST(ProfileMemoryScaling, StandardGrowsFourfoldPerDoubling) {
  const auto points = profile_memory_scaling(Method::standard, {1, 1, 0, 32}, {256, 512, 1024}, 7);
  ASSERT_EQ(points.size(), 3u);
  for (std::size_t i = 0; i < points.size(); ++i) {
    EXPECT_EQ(points[i].seq_len, std::int64_t{256} << i);
    EXPECT_EQ(points[i].estimated_bytes,
              estimate_memory(Method::standard, {1, 1, points[i].seq_len, 32}, Dtype::fp32).peak_extra);
    EXPECT_GT(points[i].seconds, 0);
  }
  EXPECT_NEAR(points[2].measured_bytes / points[1].measured_bytes, 4.0, 0.2);
}

}  // namespace
}  // namespace a03_attention_memory
