#include "rooflab/validate.hpp"

#include <limits>

#include "rooflab/testing.hpp"

namespace {

constexpr double inf = std::numeric_limits<double>::infinity();
constexpr double nan = std::numeric_limits<double>::quiet_NaN();

TEST(Validate, PositiveAcceptsPositiveFinite) {
  EXPECT_NO_THROW(rooflab::require_positive(1e-300, "x"));
  EXPECT_NO_THROW(rooflab::require_positive(1e300, "x"));
}

TEST(Validate, PositiveRejectsAndNamesTheArgument) {
  for (double bad : {0.0, -1.0, inf, -inf, nan}) {
    EXPECT_INVALID_ARGUMENT(rooflab::require_positive(bad, "num_params"), "num_params");
  }
}

TEST(Validate, NonNegativeAcceptsZero) {
  EXPECT_NO_THROW(rooflab::require_non_negative(0.0, "x"));
  EXPECT_INVALID_ARGUMENT(rooflab::require_non_negative(-1e-9, "bytes"), "bytes");
  EXPECT_INVALID_ARGUMENT(rooflab::require_non_negative(nan, "bytes"), "bytes");
}

TEST(Validate, HelperDetectsWrongArgumentName) {
  EXPECT_FALSE(rooflab::testing::ThrowsInvalidArgumentNaming([] { rooflab::require_positive(-1, "alpha"); }, "beta"));
  EXPECT_FALSE(rooflab::testing::ThrowsInvalidArgumentNaming([] {}, "alpha"));
}

}  // namespace
