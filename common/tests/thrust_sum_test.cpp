#include "rooflab/thrust_sum.hpp"

#include <numeric>
#include <vector>

#include "rooflab/testing.hpp"

namespace {

using rooflab::Backend;

class ThrustSum : public ::testing::TestWithParam<Backend> {};

TEST_P(ThrustSum, MatchesStdAccumulate) {
  ROOFLAB_SKIP_UNLESS_AVAILABLE(GetParam());
  std::vector<double> values(100000);
  std::iota(values.begin(), values.end(), 1.0);
  EXPECT_DOUBLE_EQ(rooflab::thrust_sum(values, GetParam()), 100000.0 * 100001.0 / 2.0);
}

TEST_P(ThrustSum, EmptyIsZero) {
  ROOFLAB_SKIP_UNLESS_AVAILABLE(GetParam());
  EXPECT_EQ(rooflab::thrust_sum(std::vector<double>{}, GetParam()), 0.0);
}

// Thrust backends are always instantiated; cuda skips visibly where it cannot run.
INSTANTIATE_TEST_SUITE_P(Backends, ThrustSum, ::testing::Values(Backend::thrust, Backend::cuda),
                         rooflab::testing::BackendName{});

TEST(ThrustSumDispatch, CpuIsNotAThrustBackend) {
  EXPECT_THROW(rooflab::thrust_sum(std::vector<double>{}, Backend::cpu), std::invalid_argument);
}

}  // namespace
