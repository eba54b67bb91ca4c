// Public tests, part 1 and 4: standard attention on every compiled backend.
#include "a03_attention_memory/standard_attention.hpp"

#include <cmath>

#include "rooflab/attention_reference.hpp"
#include "rooflab/attention_testing.hpp"
#include "rooflab/testing.hpp"

namespace a03_attention_memory {
namespace {

using rooflab::Backend;

class StandardAttention : public ::testing::TestWithParam<Backend> {
 protected:
  void SetUp() override { ROOFLAB_SKIP_UNLESS_AVAILABLE(GetParam()); }
  AttentionResult run(const Tensor4& q, const Tensor4& k, const Tensor4& v, bool causal) {
    return standard_attention_on(GetParam(), q, k, v, causal);
  }
};

TEST_P(StandardAttention, MatchesTheReference) {
  const Tensor4 q = rooflab::random_normal(2, 3, 37, 16, 1), k = rooflab::random_normal(2, 3, 37, 16, 2),
                v = rooflab::random_normal(2, 3, 37, 16, 3);
  for (const bool causal : {false, true}) {
    // fp32 against the fp64 reference, within rooflab::testing::kFp32.
    EXPECT_TRUE(
        rooflab::testing::MatchesAttentionReference(run(q, k, v, causal).output, nullptr, q, k, v, {causal, {}}));
  }
}

TEST_P(StandardAttention, WeightsAreRowsOfASoftmax) {
  const Tensor4 q = rooflab::random_normal(1, 2, 20, 8, 4), k = rooflab::random_normal(1, 2, 20, 8, 5),
                v = rooflab::random_normal(1, 2, 20, 8, 6);
  const AttentionResult result = run(q, k, v, /*causal=*/true);
  ASSERT_EQ(result.weights.shape, (std::array<std::int64_t, 4>{1, 2, 20, 20}));
  for (std::int64_t bh = 0; bh < 2; ++bh)
    for (std::int64_t i = 0; i < 20; ++i) {
      double sum = 0;
      for (std::int64_t j = 0; j < 20; ++j) {
        const float p = result.weights.row(bh, i)[j];
        if (j > i) {
          EXPECT_EQ(p, 0.0f) << "causal weight above the diagonal at (" << i << ", " << j << ")";
        }
        EXPECT_GE(p, 0.0f);
        sum += p;
      }
      EXPECT_NEAR(sum, 1.0, 1e-5) << "row " << i;
    }
}

TEST_P(StandardAttention, KeysMayOutnumberQueries) {
  const Tensor4 q = rooflab::random_normal(1, 1, 5, 8, 7), k = rooflab::random_normal(1, 1, 40, 8, 8),
                v = rooflab::random_normal(1, 1, 40, 12, 9);
  EXPECT_TRUE(rooflab::testing::MatchesAttentionReference(run(q, k, v, false).output, nullptr, q, k, v));
}

TEST_P(StandardAttention, LargeLogitsDoNotOverflow) {
  // Scores in the thousands: exp() of them overflows fp32 unless the row max is
  // subtracted first. Whole-number q and k with d = 4 make every score exact.
  const Tensor4 q = rooflab::random_whole_numbers(1, 1, 16, 4, 10, 60.0f),
                k = rooflab::random_whole_numbers(1, 1, 16, 4, 11, 60.0f), v = rooflab::random_normal(1, 1, 16, 4, 12);
  EXPECT_ALL_CLOSE(run(q, k, v, false).output.data, rooflab::reference::attention(q, k, v).output, 1e-4, 1e-3);
}

TEST_P(StandardAttention, RejectsMismatchedInputs) {
  const Tensor4 q = rooflab::random_normal(1, 2, 8, 4, 1), v = rooflab::random_normal(1, 2, 8, 4, 2);
  const rooflab::testing::ArgumentNames names{"q", "k", "v", "causal"};
  EXPECT_INVALID_ARGUMENT(run(q, rooflab::random_normal(1, 2, 8, 5, 3), v, false), "k");
  EXPECT_INVALID_ARGUMENT(run(q, q, rooflab::random_normal(1, 2, 9, 4, 3), false), "v");
  EXPECT_INVALID_ARGUMENT(run(q, rooflab::random_normal(1, 2, 9, 4, 3), rooflab::random_normal(1, 2, 9, 4, 3), true),
                          "causal");
  Tensor4 broken = q;
  broken.data.pop_back();
  EXPECT_INVALID_ARGUMENT(run(broken, q, v, false), "q");
}

INSTANTIATE_TEST_SUITE_P(Backends, StandardAttention, ::testing::ValuesIn(rooflab::compiled_backends()),
                         rooflab::testing::BackendName{});

}  // namespace
}  // namespace a03_attention_memory
