// The measured FMA peak (rooflab/fma_peak.hpp) is a real rate: positive, and
// below what the build's vectors could do at two FMA units per core and
// 6 GHz, the most any x86 core reaches; the vector width is the build's.
#include "rooflab/fma_peak.hpp"

#include <gtest/gtest.h>

namespace rooflab {
namespace {

TEST(FmaPeak, IsARateTheCoresCouldReach) {
  const FmaPeak peak = measure_fma_peak(2, 200'000);
#if defined(__AVX512F__)
  EXPECT_EQ(peak.lanes, 16);
#elif defined(__AVX__)
  EXPECT_EQ(peak.lanes, 8);
#endif
  EXPECT_GE(peak.threads, 1);
  const double ceiling = 2.0 /* FMA units */ * 2.0 /* FLOPs */ * peak.lanes * 6e9 * peak.threads;
  EXPECT_GT(peak.flops_per_s, 1e8);
  EXPECT_LT(peak.flops_per_s, ceiling);
}

}  // namespace
}  // namespace rooflab
