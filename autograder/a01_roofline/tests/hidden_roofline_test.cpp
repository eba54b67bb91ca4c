// Hidden tests, part 2: roofline.hpp, including limits and properties.
#include <limits>

#include "a01_roofline/gpu_catalog.hpp"
#include "a01_roofline/roofline.hpp"
#include "rooflab/testing.hpp"

namespace a01_roofline {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

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
  const double ridge = ridge_point(989.4e12, 3.35e12);
  EXPECT_REL_NEAR(attainable_flops_per_s(ridge, 989.4e12, 3.35e12), 989.4e12, 1e-12);
  EXPECT_REL_NEAR(attainable_flops_per_s(ridge / 2, 989.4e12, 3.35e12), 989.4e12 / 2, 1e-12);
  EXPECT_REL_NEAR(attainable_flops_per_s(1e-3, 65e12, 320e9), 320e6, 1e-12);
}

TEST(RooflineHidden, AttainableIsMonotoneInIntensity) {
  double previous = 0;
  for (double intensity = 0.01; intensity < 1e5; intensity *= 1.7) {
    const double now = attainable_flops_per_s(intensity, 312e12, 2.039e12);
    EXPECT_GE(now, previous);
    EXPECT_LE(now, 312e12);
    previous = now;
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
  double previous = 0;
  for (double batch = 1; batch <= 4096; batch *= 2) {
    const double now = matmul_arithmetic_intensity(batch, 4096, 4096, 2);
    EXPECT_GT(now, previous);
    previous = now;
  }
}

TEST(RooflineHidden, MatmulIntensityRectangular) {
  // (32×4096)·(4096×11008) in bf16
  const double flops = 2.0 * 32 * 4096 * 11008;
  const double bytes = 2.0 * (32.0 * 4096 + 4096.0 * 11008 + 32.0 * 11008);
  EXPECT_REL_NEAR(matmul_arithmetic_intensity(32, 4096, 11008, 2), flops / bytes, 1e-12);
}

TEST(RooflineHidden, InvalidInputsNamed) {
  EXPECT_INVALID_ARGUMENT(ridge_point(0, 1e12), "peak_flops_per_s");
  EXPECT_INVALID_ARGUMENT(ridge_point(1e12, kNaN), "bandwidth_bytes_per_s");
  EXPECT_INVALID_ARGUMENT(is_memory_bound(-1, 1e12, 1e12), "intensity");
  EXPECT_INVALID_ARGUMENT(attainable_flops_per_s(1, 1e12, 0), "bandwidth_bytes_per_s");
  EXPECT_INVALID_ARGUMENT(matmul_arithmetic_intensity(1, kNaN, 1, 2), "k");
  EXPECT_INVALID_ARGUMENT(matmul_arithmetic_intensity(1, 1, -3, 2), "n");
  EXPECT_INVALID_ARGUMENT(arithmetic_intensity(1, kNaN), "bytes");
}

}  // namespace
}  // namespace a01_roofline
