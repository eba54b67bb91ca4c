// Public tests, part 2: memory estimates, and measurements that the kernel's
// own count of the process's memory backs.
#include "a03_attention_memory/memory.hpp"

#include "rooflab/kernel_memory.hpp"
#include "rooflab/testing.hpp"

namespace a03_attention_memory {
namespace {

// memory.hpp's definition of each field, written out: what estimate_memory
// must return. Tests compare your numbers with these, never with each other.
MemoryEstimate expected_estimate(Method method, const AttentionShape& s, Dtype dtype) {
  const double e = dtype == Dtype::fp32 ? 4 : 2, bh = double(s.batch) * double(s.heads);
  const double n = double(s.seq_len), d = double(s.head_dim);
  MemoryEstimate m;
  m.inputs = e * 3 * bh * n * d;
  m.output = e * bh * n * d;
  if (method == Method::standard) m.scores = m.weights = e * bh * n * n;
  if (method == Method::linear || method == Method::linear_causal_recurrent) m.state = e * bh * (d * d + d);
  if (method == Method::linear_causal_cumsum) m.state = e * bh * n * (d * d + d);
  m.peak_extra = m.scores + m.weights + m.state + m.output;
  m.total = m.inputs + m.peak_extra;
  return m;
}

// A measurement counts what malloc hands out, rounded up to its granularity,
// plus small bookkeeping: it must be within 2 % + 64 KiB of the estimate. The
// kernel's count of the process during the call must back it: a number the
// code reports about itself earns nothing on its own.
void expect_measured_matches_estimate(Method method, const AttentionShape& shape) {
  const MemoryEstimate expected = expected_estimate(method, shape, Dtype::fp32);
  const rooflab::kernel_memory::Window window;
  const double measured = measure_peak_memory(method, shape, 42);
  EXPECT_NEAR(measured, expected.peak_extra, 0.02 * expected.peak_extra + 65536)
      << to_string(method) << ", seq_len " << shape.seq_len;
  EXPECT_KERNEL_COUNT_BACKS(window, measured, expected.inputs) << to_string(method);
}

TEST(EstimateMemory, StandardAttentionAt4096) {
  // The lab's headline: at N = 4096 one fp32 N×N matrix is 64 MiB, Q, K and V together 3 MiB.
  const MemoryEstimate estimate = estimate_memory(Method::standard, {1, 1, 4096, 64}, Dtype::fp32);
  EXPECT_EQ(estimate.inputs, 3.0 * 4096 * 64 * 4);
  EXPECT_EQ(estimate.scores, 4096.0 * 4096 * 4);
  EXPECT_EQ(estimate.weights, 4096.0 * 4096 * 4);
  EXPECT_EQ(estimate.output, 4096.0 * 64 * 4);
  EXPECT_EQ(estimate.state, 0.0);
  EXPECT_EQ(estimate.peak_extra, 2 * 4096.0 * 4096 * 4 + 4096.0 * 64 * 4);
  EXPECT_EQ(estimate.total, 3.0 * 4096 * 64 * 4 + 2 * 4096.0 * 4096 * 4 + 4096.0 * 64 * 4);
}

TEST(EstimateMemory, HalfPrecisionHalvesEveryTerm) {
  const AttentionShape shape{4, 8, 1024, 64};
  for (const Method method : {Method::standard, Method::linear, Method::linear_causal_cumsum}) {
    // fp16 and bf16 store 2 bytes per element, fp32 4: every field halves.
    EXPECT_EQ(estimate_memory(method, shape, Dtype::fp16).total,
              expected_estimate(method, shape, Dtype::fp32).total / 2)
        << to_string(method);
    EXPECT_EQ(estimate_memory(method, shape, Dtype::bf16).peak_extra,
              expected_estimate(method, shape, Dtype::fp32).peak_extra / 2)
        << to_string(method);
  }
}

TEST(EstimateMemory, LinearStateIsIndependentOfLength) {
  // S (d×d) and z (d) per (b, h), whatever N: (64² + 64) · 4 bytes at 1k and at 8k.
  EXPECT_EQ(estimate_memory(Method::linear, {1, 1, 1024, 64}, Dtype::fp32).state, (64.0 * 64 + 64) * 4);
  EXPECT_EQ(estimate_memory(Method::linear, {1, 1, 8192, 64}, Dtype::fp32).state, (64.0 * 64 + 64) * 4);
  // The cumulative sum keeps one S and z per prefix: N times as much.
  EXPECT_EQ(estimate_memory(Method::linear_causal_cumsum, {1, 1, 8192, 64}, Dtype::fp32).state,
            8192 * (64.0 * 64 + 64) * 4);
}

TEST(EstimateMemory, RejectsNonPositiveShapes) {
  const rooflab::testing::ArgumentNames names{"method", "batch", "heads", "seq_len", "head_dim", "dtype"};
  EXPECT_INVALID_ARGUMENT(estimate_memory(Method::standard, {0, 1, 8, 8}, Dtype::fp32), "batch");
  EXPECT_INVALID_ARGUMENT(estimate_memory(Method::standard, {1, 1, -8, 8}, Dtype::fp32), "seq_len");
  EXPECT_INVALID_ARGUMENT(estimate_memory(Method::linear, {1, 1, 8, 0}, Dtype::fp32), "head_dim");
  EXPECT_INVALID_ARGUMENT(estimate_memory(Method::linear, {1, -3, 8, 8}, Dtype::fp16), "heads");
}

TEST(MeasurePeakMemory, StandardMatchesTheEstimate) {
  ROOFLAB_SKIP_UNLESS_KERNEL_MEMORY();
  expect_measured_matches_estimate(Method::standard, {1, 2, 512, 32});
  expect_measured_matches_estimate(Method::standard, {1, 1, 1024, 64});
}

TEST(MeasurePeakMemory, LinearFormsMatchTheirEstimates) {
  ROOFLAB_SKIP_UNLESS_KERNEL_MEMORY();
  expect_measured_matches_estimate(Method::linear, {2, 2, 1024, 32});
  expect_measured_matches_estimate(Method::linear_causal_recurrent, {2, 2, 1024, 32});
  expect_measured_matches_estimate(Method::linear_causal_cumsum, {1, 1, 512, 32});
}

TEST(ProfileMemoryScaling, StandardGrowsFourfoldPerDoubling) {
  ROOFLAB_SKIP_UNLESS_KERNEL_MEMORY();
  const rooflab::kernel_memory::Window window;
  const auto points = profile_memory_scaling(Method::standard, {1, 1, 0, 32}, {256, 512, 1024}, 7);
  ASSERT_EQ(points.size(), 3u);
  for (std::size_t i = 0; i < points.size(); ++i) {
    const std::int64_t n = std::int64_t{256} << i;
    const double expected = expected_estimate(Method::standard, {1, 1, n, 32}, Dtype::fp32).peak_extra;
    EXPECT_EQ(points[i].seq_len, n);
    EXPECT_EQ(points[i].estimated_bytes, expected);
    // Twice the length, four times the N×N matrices.
    EXPECT_NEAR(points[i].measured_bytes, expected, 0.02 * expected + 65536) << "seq_len " << n;
    EXPECT_GT(points[i].seconds, 0);
  }
  // The largest point's call held the most at once.
  EXPECT_KERNEL_COUNT_BACKS(window, points[2].measured_bytes,
                            expected_estimate(Method::standard, {1, 1, 1024, 32}, Dtype::fp32).inputs);
}

}  // namespace
}  // namespace a03_attention_memory
