// Public tests, part 2: roofline.hpp.
#include "a01_roofline/roofline.hpp"

#include "rooflab/testing.hpp"

namespace a01_roofline {
namespace {

constexpr double kH100Peak = 989.4e12;
constexpr double kH100Bandwidth = 3.35e12;

TEST(ArithmeticIntensity, FlopsPerByte) { EXPECT_REL_NEAR(arithmetic_intensity(1e12, 4e9), 250.0, 1e-12); }

TEST(ArithmeticIntensity, RejectsNonPositiveInputs) {
  const rooflab::testing::ArgumentNames names{"flops", "bytes"};
  EXPECT_INVALID_ARGUMENT(arithmetic_intensity(1.0, 0.0), "bytes");
  EXPECT_INVALID_ARGUMENT(arithmetic_intensity(-1.0, 1.0), "flops");
}

TEST(RidgePoint, H100Fp16) { EXPECT_REL_NEAR(ridge_point(kH100Peak, kH100Bandwidth), 295.34328358, 1e-8); }

TEST(MemoryBound, BelowTheRidgeOnly) {
  EXPECT_TRUE(is_memory_bound(1.0, kH100Peak, kH100Bandwidth));
  EXPECT_FALSE(is_memory_bound(1000.0, kH100Peak, kH100Bandwidth));
}

TEST(Attainable, MinOfRoofs) {
  EXPECT_REL_NEAR(attainable_flops_per_s(10.0, kH100Peak, kH100Bandwidth), 33.5e12, 1e-12);
  EXPECT_REL_NEAR(attainable_flops_per_s(1000.0, kH100Peak, kH100Bandwidth), kH100Peak, 1e-12);
}

TEST(MatmulIntensity, MatrixVectorIsAboutOneInFp16) {
  // (1×4096)·(4096×4096): 2·4096² / (2·(4096 + 4096² + 4096))
  EXPECT_REL_NEAR(matmul_arithmetic_intensity(1, 4096, 4096, 2), 0.99951195705, 1e-9);
}

TEST(MatmulIntensity, SquareFp16) {
  // 2n³ / (2·3n²) = n/3
  EXPECT_REL_NEAR(matmul_arithmetic_intensity(4096, 4096, 4096, 2), 4096.0 / 3.0, 1e-12);
}

TEST(MatmulIntensity, RejectsNonPositiveInputs) {
  const rooflab::testing::ArgumentNames names{"m", "k", "n", "bytes_per_element"};
  EXPECT_INVALID_ARGUMENT(matmul_arithmetic_intensity(0, 1, 1, 2), "m");
  EXPECT_INVALID_ARGUMENT(matmul_arithmetic_intensity(1, 1, 1, 0), "bytes_per_element");
}

}  // namespace
}  // namespace a01_roofline
