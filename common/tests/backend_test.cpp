#include "rooflab/backend.hpp"

#include <algorithm>

#include "rooflab/testing.hpp"

namespace {

using rooflab::Backend;

TEST(Backend, CpuAndThrustAlwaysCompiled) {
  const auto backends = rooflab::compiled_backends();
  EXPECT_NE(std::find(backends.begin(), backends.end(), Backend::cpu), backends.end());
  EXPECT_NE(std::find(backends.begin(), backends.end(), Backend::thrust), backends.end());
  EXPECT_TRUE(rooflab::unavailable_reason(Backend::cpu).empty());
  EXPECT_TRUE(rooflab::unavailable_reason(Backend::thrust).empty());
}

TEST(Backend, CudaListedExactlyWhenCompiled) {
  const auto backends = rooflab::compiled_backends();
  const bool listed = std::find(backends.begin(), backends.end(), Backend::cuda) != backends.end();
  EXPECT_EQ(listed, rooflab::cuda_compiled());
  if (!rooflab::cuda_compiled()) {
    EXPECT_EQ(rooflab::gpu_count(), 0);
  }
}

TEST(Backend, GpuPresent) {
  ROOFLAB_SKIP_UNLESS_AVAILABLE(Backend::cuda);
  EXPECT_GT(rooflab::gpu_count(), 0);
}

}  // namespace
