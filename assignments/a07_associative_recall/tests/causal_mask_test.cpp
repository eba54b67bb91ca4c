// Public tests, part 1: the causal mask. Query i sees keys 0 … i (0 added to
// their scores) and no later one (−∞ added).
#include <cmath>
#include <limits>

#include "a07_associative_recall/attention.hpp"
#include "rooflab/testing.hpp"

namespace a07_associative_recall {
namespace {

TEST(CausalMask, ZeroOnAndBelowTheDiagonalMinusInfinityAbove) {
  for (const std::int64_t n : {1, 2, 3, 7, 17, 64}) {
    const std::vector<float> mask = causal_mask(n);
    ASSERT_EQ(mask.size(), static_cast<std::size_t>(n * n)) << "n = " << n << ": the mask is (n × n)";
    for (std::int64_t i = 0; i < n; ++i)
      for (std::int64_t j = 0; j < n; ++j) {
        const float expected = j > i ? -INFINITY : 0.0f;
        ASSERT_EQ(mask[static_cast<std::size_t>(i * n + j)], expected)
            << "n = " << n << ", query " << i << ", key " << j;
      }
  }
}

TEST(CausalMask, RejectsLengthsThatAreNotPositive) {
  const rooflab::testing::ArgumentNames names{"n"};
  EXPECT_INVALID_ARGUMENT(causal_mask(0), "n");
  EXPECT_INVALID_ARGUMENT(causal_mask(-1), "n");
  EXPECT_INVALID_ARGUMENT(causal_mask(std::numeric_limits<std::int64_t>::min()), "n");
}

}  // namespace
}  // namespace a07_associative_recall
