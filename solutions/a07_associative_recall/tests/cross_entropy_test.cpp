// Public tests, part 4: cross-entropy and its gradient, against the fp64
// formula and against central finite differences of the fp64 loss, for
// ordinary logits and for logits of ±1e4, where exp() overflows unless each
// row's maximum is taken out first.
#include <limits>
#include <random>

#include "recall_testing.hpp"

namespace a07_associative_recall {
namespace {

using rooflab::testing::kFp32;

std::vector<float> random_logits(std::int64_t rows, std::int64_t vocab, float scale, std::uint64_t seed) {
  const Tensor4 values = rooflab::random_normal(1, 1, rows, vocab, seed, scale);
  return values.data;
}

std::vector<double> widened(const std::vector<float>& x) { return {x.begin(), x.end()}; }

void expect_matches_reference(const std::vector<float>& logits, std::int64_t vocab,
                              const std::vector<std::int64_t>& targets, double loss_atol = kFp32.atol,
                              const rooflab::testing::Tolerance& gradient = kFp32) {
  const CrossEntropy got = cross_entropy(logits, vocab, targets);
  const double expected = reference::cross_entropy_loss(widened(logits), vocab, targets);
  EXPECT_NEAR(got.loss, expected, loss_atol + kFp32.rtol * std::fabs(expected)) << "loss";
  const auto rows = static_cast<std::int64_t>(targets.size());
  EXPECT_TRUE(rooflab::testing::AllCloseIn("d_logits", "reference", got.d_logits,
                                           reference::cross_entropy_gradient(widened(logits), vocab, targets),
                                           gradient.atol, gradient.rtol, {{rows, vocab}, {"row", "class"}}));
}

TEST(CrossEntropy, MatchesTheReference) {
  expect_matches_reference(random_logits(5, 7, 2.0f, 1), 7, {0, 6, 3, 3, 1});
  expect_matches_reference(random_logits(64, 32, 1.0f, 2), 32, std::vector<std::int64_t>(64, 20));
  expect_matches_reference({0.5f}, 1, {0});  // one class: loss 0, gradient 0
}

TEST(CrossEntropy, GradientMatchesFiniteDifferences) {
  const std::int64_t vocab = 6;
  const std::vector<std::int64_t> targets{2, 0, 5};
  const std::vector<float> logits = random_logits(3, vocab, 1.5f, 3);
  const CrossEntropy got = cross_entropy(logits, vocab, targets);
  const std::vector<double> expected = reference::central_differences(
      widened(logits), [&](const std::vector<double>& z) { return reference::cross_entropy_loss(z, vocab, targets); });
  EXPECT_TRUE(rooflab::testing::AllCloseIn("d_logits", "finite differences", got.d_logits, expected,
                                           checks::kGradient.atol, checks::kGradient.rtol,
                                           {{3, vocab}, {"row", "class"}}));
}

TEST(CrossEntropy, LogitsOfTenThousandStayFiniteAndRight) {
  // Whole numbers, exact in fp32, so that the only error left is the softmax's.
  const std::vector<float> logits{1e4f,  -1e4f, 9998.0f,  0.0f,   //
                                  -1e4f, -1e4f, -9999.0f, -1e4f,  //
                                  1e4f,  1e4f,  1e4f,     1e4f,   //
                                  -1e4f, 1e4f,  0.0f,     5.0f};
  const std::vector<std::int64_t> targets{2, 3, 1, 0};  // the last row's target is 2e4 below its maximum
  const CrossEntropy got = cross_entropy(logits, 4, targets);
  EXPECT_TRUE(std::isfinite(got.loss)) << "loss = " << got.loss;
  for (std::size_t i = 0; i < got.d_logits.size(); ++i)
    ASSERT_TRUE(std::isfinite(got.d_logits[i])) << "d_logits[" << i << "] = " << got.d_logits[i];
  expect_matches_reference(logits, 4, targets, checks::kExtremeLossAtol, checks::kExtremeGradient);
}

TEST(CrossEntropy, RejectsBadInputs) {
  const rooflab::testing::ArgumentNames names{"vocab", "logits", "targets"};
  const std::vector<float> logits = random_logits(2, 3, 1.0f, 4);
  EXPECT_INVALID_ARGUMENT(cross_entropy(logits, 0, {0, 1}), "vocab");
  EXPECT_INVALID_ARGUMENT(cross_entropy({}, -3, {0}), "vocab");
  EXPECT_INVALID_ARGUMENT(cross_entropy(logits, 3, {}), "targets");
  EXPECT_INVALID_ARGUMENT(cross_entropy(logits, 3, {0, 3}), "targets");
  EXPECT_INVALID_ARGUMENT(cross_entropy(logits, 3, {-1, 0}), "targets");
  EXPECT_INVALID_ARGUMENT(cross_entropy(logits, 3, {0}), "logits");  // 6 values for 1 row of 3
  EXPECT_INVALID_ARGUMENT(cross_entropy(logits, 2, {0, 1}), "logits");
  std::vector<float> bad = logits;
  bad[4] = std::numeric_limits<float>::quiet_NaN();
  EXPECT_INVALID_ARGUMENT(cross_entropy(bad, 3, {0, 1}), "logits");
  bad[4] = -INFINITY;
  EXPECT_INVALID_ARGUMENT(cross_entropy(bad, 3, {0, 1}), "logits");
}

}  // namespace
}  // namespace a07_associative_recall
