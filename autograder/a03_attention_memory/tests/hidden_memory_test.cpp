// Hidden tests: memory estimates for random shapes and dtypes, written out by
// hand, and measurements that agree with them.
#include <random>

#include "a03_attention_memory/a03_attention_memory.hpp"
#include "rooflab/testing.hpp"

namespace a03_attention_memory {
namespace {

TEST(MemoryHidden, EstimatesForRandomShapes) {
  std::mt19937_64 engine(rooflab::testing::seed());
  std::uniform_int_distribution<std::int64_t> small(1, 16), length(1, 100000), dim(1, 256);
  for (int trial = 0; trial < 20; ++trial) {
    const AttentionShape s{small(engine), small(engine), length(engine), dim(engine)};
    const Dtype dtype = trial % 3 == 0 ? Dtype::fp32 : (trial % 3 == 1 ? Dtype::fp16 : Dtype::bf16);
    const double e = dtype == Dtype::fp32 ? 4 : 2;
    const double bh = double(s.batch) * s.heads, n = double(s.seq_len), d = double(s.head_dim);
    const MemoryEstimate standard = estimate_memory(Method::standard, s, dtype);
    EXPECT_REL_NEAR(standard.total, e * (3 * bh * n * d + 2 * bh * n * n + bh * n * d), 1e-12);
    EXPECT_REL_NEAR(estimate_memory(Method::linear, s, dtype).peak_extra, e * (bh * (d * d + d) + bh * n * d), 1e-12);
    EXPECT_REL_NEAR(estimate_memory(Method::linear_causal_recurrent, s, dtype).state, e * bh * (d * d + d), 1e-12);
    EXPECT_REL_NEAR(estimate_memory(Method::linear_causal_cumsum, s, dtype).state, e * bh * n * (d * d + d), 1e-12);
  }
}

TEST(MemoryHidden, CumsumOvertakesStandardOnceDSquaredExceedsN) {
  // Per (b, h): the cumsum stores N(d² + d), standard 2N²; d = 64, N = 1024 gives 4160 vs 2048 per row.
  const AttentionShape shape{2, 4, 1024, 64};
  EXPECT_GT(estimate_memory(Method::linear_causal_cumsum, shape, Dtype::fp32).peak_extra,
            estimate_memory(Method::standard, shape, Dtype::fp32).peak_extra);
  const AttentionShape long_shape{2, 4, 16384, 64};
  EXPECT_LT(estimate_memory(Method::linear_causal_cumsum, long_shape, Dtype::fp32).peak_extra,
            estimate_memory(Method::standard, long_shape, Dtype::fp32).peak_extra);
}

TEST(MemoryHidden, MeasurementsMatchEstimates) {
  for (const Method method :
       {Method::standard, Method::linear, Method::linear_causal_cumsum, Method::linear_causal_recurrent}) {
    const AttentionShape shape{2, 3, 384, 24};
    const double estimated = estimate_memory(method, shape, Dtype::fp32).peak_extra;
    EXPECT_NEAR(measure_peak_memory(method, shape, rooflab::testing::seed()), estimated, 0.02 * estimated + 65536)
        << "method " << static_cast<int>(method);
  }
}

TEST(MemoryHidden, ProfileKeepsOrderAndSlopes) {
  const auto standard = profile_memory_scaling(Method::standard, {1, 2, 0, 16}, {600, 300, 1200}, 9);
  ASSERT_EQ(standard.size(), 3u);
  EXPECT_EQ(standard[0].seq_len, 600);
  EXPECT_EQ(standard[1].seq_len, 300);
  EXPECT_NEAR(standard[2].measured_bytes / standard[0].measured_bytes, 4.0, 0.25);
  const auto linear = profile_memory_scaling(Method::linear_causal_recurrent, {1, 2, 0, 16}, {1000, 4000}, 9);
  ASSERT_EQ(linear.size(), 2u);
  EXPECT_NEAR(linear[1].measured_bytes / linear[0].measured_bytes, 4.0, 0.3);  // the output, linear in N
}

}  // namespace
}  // namespace a03_attention_memory
