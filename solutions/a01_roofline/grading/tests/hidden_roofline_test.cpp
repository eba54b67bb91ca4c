// Hidden tests, part 2: roofline.hpp, including limits and properties. Each
// expected value is the contract's formula written out here, never another of
// the student's answers; the *DrawnAtGradingTime tests, whose inputs come from
// the grading-time seed, gate the public tests' points (rubric.toml).
#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "a01_roofline/gpu_catalog.hpp"
#include "a01_roofline/roofline.hpp"
#include "rooflab/testing.hpp"

namespace a01_roofline {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Spread log-uniformly over [lo, hi].
double log_uniform(std::mt19937_64& engine, double lo, double hi) {
  return lo * std::pow(hi / lo, std::uniform_real_distribution<double>(0, 1)(engine));
}

// A GPU somewhere between a small inference card and beyond today's largest.
struct Gpu {
  double peak, bandwidth;
};
Gpu draw_gpu(std::mt19937_64& engine) {
  const double peak = log_uniform(engine, 1e13, 1e16);
  const double bandwidth = log_uniform(engine, 1e11, 2e13);
  return {peak, bandwidth};
}

double expected_matmul_intensity(double m, double k, double n, double e) {
  return 2 * m * k * n / (e * (m * k + k * n + m * n));
}

TEST(RooflineHidden, RidgePointOfEveryCatalogGpu) {
  for (const GpuSpec& gpu : gpu_catalog()) {
    EXPECT_REL_NEAR(ridge_point(gpu.peak_flops_per_s, gpu.bandwidth_bytes_per_s),
                    gpu.peak_flops_per_s / gpu.bandwidth_bytes_per_s, 1e-12)
        << gpu.id;
  }
}

TEST(RooflineHidden, BoundIsStrictlyBelowTheRidge) {
  // Exactly at the ridge the two roofs meet: not memory-bound.
  EXPECT_FALSE(is_memory_bound(100.0, 200e12, 2e12));
  EXPECT_TRUE(is_memory_bound(99.999, 200e12, 2e12));
}

TEST(RooflineHidden, AttainableIsContinuousAtTheRidge) {
  constexpr double peak = 989.4e12, bandwidth = 3.35e12;
  const double ridge = peak / bandwidth;
  EXPECT_REL_NEAR(attainable_flops_per_s(ridge, peak, bandwidth), peak, 1e-12);
  EXPECT_REL_NEAR(attainable_flops_per_s(ridge / 2, peak, bandwidth), peak / 2, 1e-12);
  EXPECT_REL_NEAR(attainable_flops_per_s(1e-3, 65e12, 320e9), 320e6, 1e-12);
}

TEST(RooflineHidden, AttainableIsMonotoneInIntensity) {
  // The roof climbs with intensity along the bandwidth line, then stays flat at
  // the peak: never falling, never above the peak.
  for (double intensity = 0.01; intensity < 1e5; intensity *= 1.7) {
    EXPECT_REL_NEAR(attainable_flops_per_s(intensity, 312e12, 2.039e12), std::min(312e12, 2.039e12 * intensity), 1e-12)
        << "intensity " << intensity;
  }
}

TEST(RooflineHidden, MatmulIntensityLimits) {
  // Matrix-vector (m = 1) tends to 2/bytes as k = n grow; square tends to n/(3·bytes/2).
  EXPECT_REL_NEAR(matmul_arithmetic_intensity(1, 1e6, 1e6, 2), 1.0, 1e-5);
  EXPECT_REL_NEAR(matmul_arithmetic_intensity(1, 1e6, 1e6, 1), 2.0, 1e-5);
  EXPECT_REL_NEAR(matmul_arithmetic_intensity(8192, 8192, 8192, 4), 8192.0 / 6.0, 1e-12);
  // m → ∞ with k = n fixed: 2kn / (bytes·(k + n)) = n / bytes for k = n.
  EXPECT_REL_NEAR(matmul_arithmetic_intensity(1e9, 4096, 4096, 2), 2048.0, 1e-3);
}

TEST(RooflineHidden, MatmulIntensityGrowsWithBatch) {
  // Each row of A reuses all of B: intensity climbs from about 1 towards n/bytes = 2048.
  for (double batch = 1; batch <= 4096; batch *= 2) {
    EXPECT_REL_NEAR(matmul_arithmetic_intensity(batch, 4096, 4096, 2), expected_matmul_intensity(batch, 4096, 4096, 2),
                    1e-12)
        << "batch " << batch;
  }
}

TEST(RooflineHidden, MatmulIntensityRectangular) {
  // (32×4096)·(4096×11008) in bf16
  const double flops = 2.0 * 32 * 4096 * 11008;
  const double bytes = 2.0 * (32.0 * 4096 + 4096.0 * 11008 + 32.0 * 11008);
  EXPECT_REL_NEAR(matmul_arithmetic_intensity(32, 4096, 11008, 2), flops / bytes, 1e-12);
}

TEST(RooflineHidden, InvalidInputsNamed) {
  {
    const rooflab::testing::ArgumentNames names{"peak_flops_per_s", "bandwidth_bytes_per_s"};
    EXPECT_INVALID_ARGUMENT(ridge_point(0, 1e12), "peak_flops_per_s");
    EXPECT_INVALID_ARGUMENT(ridge_point(1e12, kNaN), "bandwidth_bytes_per_s");
  }
  {
    const rooflab::testing::ArgumentNames names{"intensity", "peak_flops_per_s", "bandwidth_bytes_per_s"};
    EXPECT_INVALID_ARGUMENT(is_memory_bound(-1, 1e12, 1e12), "intensity");
    EXPECT_INVALID_ARGUMENT(attainable_flops_per_s(1, 1e12, 0), "bandwidth_bytes_per_s");
  }
  {
    const rooflab::testing::ArgumentNames names{"m", "k", "n", "bytes_per_element"};
    EXPECT_INVALID_ARGUMENT(matmul_arithmetic_intensity(1, kNaN, 1, 2), "k");
    EXPECT_INVALID_ARGUMENT(matmul_arithmetic_intensity(1, 1, -3, 2), "n");
  }
  {
    const rooflab::testing::ArgumentNames names{"flops", "bytes"};
    EXPECT_INVALID_ARGUMENT(arithmetic_intensity(1, kNaN), "bytes");
  }
}

TEST(RooflineHidden, ArithmeticIntensityOnInputsDrawnAtGradingTime) {
  std::mt19937_64 engine(rooflab::testing::seed());
  for (int trial = 0; trial < 25; ++trial) {
    const double flops = log_uniform(engine, 1e3, 1e18);
    const double bytes = log_uniform(engine, 1e3, 1e15);
    EXPECT_REL_NEAR(arithmetic_intensity(flops, bytes), flops / bytes, 1e-12)
        << "seed " << rooflab::testing::seed() << ", trial " << trial;
  }
}

TEST(RooflineHidden, RidgePointOnGpusDrawnAtGradingTime) {
  std::mt19937_64 engine(rooflab::testing::seed());
  for (int trial = 0; trial < 25; ++trial) {
    const Gpu gpu = draw_gpu(engine);
    EXPECT_REL_NEAR(ridge_point(gpu.peak, gpu.bandwidth), gpu.peak / gpu.bandwidth, 1e-12)
        << "seed " << rooflab::testing::seed() << ", trial " << trial;
  }
}

TEST(RooflineHidden, MemoryBoundOnInputsDrawnAtGradingTime) {
  std::mt19937_64 engine(rooflab::testing::seed());
  for (int trial = 0; trial < 25; ++trial) {
    const Gpu gpu = draw_gpu(engine);
    // At least 1% from the ridge on either side, so that rounding cannot decide the answer.
    const bool below = trial % 2 == 0;
    const double factor = below ? log_uniform(engine, 1e-3, 0.99) : log_uniform(engine, 1.01, 1e3);
    const double intensity = factor * gpu.peak / gpu.bandwidth;
    EXPECT_EQ(is_memory_bound(intensity, gpu.peak, gpu.bandwidth), below)
        << "intensity " << intensity << ", peak " << gpu.peak << ", bandwidth " << gpu.bandwidth << "; seed "
        << rooflab::testing::seed() << ", trial " << trial;
  }
}

TEST(RooflineHidden, AttainableOnInputsDrawnAtGradingTime) {
  std::mt19937_64 engine(rooflab::testing::seed());
  for (int trial = 0; trial < 25; ++trial) {
    const Gpu gpu = draw_gpu(engine);
    const double intensity = log_uniform(engine, 1e-2, 1e5);
    EXPECT_REL_NEAR(attainable_flops_per_s(intensity, gpu.peak, gpu.bandwidth),
                    std::min(gpu.peak, gpu.bandwidth * intensity), 1e-12)
        << "seed " << rooflab::testing::seed() << ", trial " << trial;
  }
}

TEST(RooflineHidden, MatmulIntensityOnShapesDrawnAtGradingTime) {
  std::mt19937_64 engine(rooflab::testing::seed());
  std::uniform_int_distribution<int> element(0, 3);
  for (int trial = 0; trial < 25; ++trial) {
    const double m = std::round(log_uniform(engine, 1, 65536));
    const double k = std::round(log_uniform(engine, 1, 65536));
    const double n = std::round(log_uniform(engine, 1, 65536));
    const double bytes = 0.5 * std::pow(2.0, element(engine));  // int4, int8, fp16 or fp32
    EXPECT_REL_NEAR(matmul_arithmetic_intensity(m, k, n, bytes), expected_matmul_intensity(m, k, n, bytes), 1e-12)
        << m << "×" << k << "×" << n << " at " << bytes << " bytes; seed " << rooflab::testing::seed() << ", trial "
        << trial;
  }
}

}  // namespace
}  // namespace a01_roofline
