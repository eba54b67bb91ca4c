// Hidden tests: cross-entropy on rows, vocabularies, targets and logit scales
// drawn from the grader's seed, up to logits of ±1e4.
#include <algorithm>
#include <cmath>
#include <random>

#include "../../tests/recall_testing.hpp"

namespace a07_associative_recall {
namespace {

using rooflab::testing::kFp32;
using rooflab::testing::pick;
using rooflab::testing::Tolerance;

struct Drawn {
  std::vector<float> logits;
  std::int64_t vocab;
  std::vector<std::int64_t> targets;
};

Drawn draw(std::mt19937_64& engine, std::int64_t max_rows, std::int64_t max_vocab, float scale, bool whole) {
  Drawn x{{}, pick(engine, 1, max_vocab), {}};
  const std::int64_t rows = pick(engine, 1, max_rows);
  for (std::int64_t r = 0; r < rows; ++r) x.targets.push_back(pick(engine, 0, x.vocab - 1));
  x.logits = rooflab::random_normal(1, 1, rows, x.vocab, engine(), scale).data;
  if (whole)
    for (float& z : x.logits) z = std::clamp(std::nearbyint(z), -1e4f, 1e4f);
  return x;
}

std::vector<double> widened(const std::vector<float>& x) { return {x.begin(), x.end()}; }

void expect_matches_reference(const Drawn& x, double loss_atol, const Tolerance& gradient) {
  const std::string what = std::to_string(x.targets.size()) + " rows of " + std::to_string(x.vocab);
  const CrossEntropy got = cross_entropy(x.logits, x.vocab, x.targets);
  const double expected = reference::cross_entropy_loss(widened(x.logits), x.vocab, x.targets);
  EXPECT_NEAR(got.loss, expected, loss_atol + kFp32.rtol * std::fabs(expected)) << what;
  EXPECT_TRUE(rooflab::testing::AllCloseIn(
      "d_logits", "reference", got.d_logits, reference::cross_entropy_gradient(widened(x.logits), x.vocab, x.targets),
      gradient.atol, gradient.rtol, {{static_cast<std::int64_t>(x.targets.size()), x.vocab}, {"row", "class"}}))
      << what;
}

TEST(HiddenCrossEntropy, SeededLogitsMatchTheReference) {
  std::mt19937_64 engine(rooflab::testing::seed() ^ 0xce01ull);
  for (const float scale : {0.1f, 1.0f, 8.0f})
    expect_matches_reference(draw(engine, 100, 300, scale, false), kFp32.atol, kFp32);
}

TEST(HiddenCrossEntropy, SeededGradientMatchesFiniteDifferences) {
  std::mt19937_64 engine(rooflab::testing::seed() ^ 0xce02ull);
  const Drawn x = draw(engine, 6, 12, 2.0f, false);
  const CrossEntropy got = cross_entropy(x.logits, x.vocab, x.targets);
  const std::vector<double> expected = reference::central_differences(
      widened(x.logits),
      [&](const std::vector<double>& z) { return reference::cross_entropy_loss(z, x.vocab, x.targets); });
  EXPECT_TRUE(rooflab::testing::AllCloseIn("d_logits", "finite differences", got.d_logits, expected,
                                           checks::kGradient.atol, checks::kGradient.rtol,
                                           {{static_cast<std::int64_t>(x.targets.size()), x.vocab}, {"row", "class"}}));
}

TEST(HiddenCrossEntropy, SeededLogitsOfTenThousandStayFiniteAndRight) {
  // Whole numbers up to ±1e4, exact in fp32 (tolerances: recall_testing.hpp).
  std::mt19937_64 engine(rooflab::testing::seed() ^ 0xce03ull);
  for (int draw_number = 0; draw_number < 3; ++draw_number) {
    const Drawn x = draw(engine, 64, 40, 6000.0f, true);
    const CrossEntropy got = cross_entropy(x.logits, x.vocab, x.targets);
    ASSERT_TRUE(std::isfinite(got.loss)) << "loss = " << got.loss;
    for (std::size_t i = 0; i < got.d_logits.size(); ++i)
      ASSERT_TRUE(std::isfinite(got.d_logits[i])) << "d_logits[" << i << "] = " << got.d_logits[i];
    expect_matches_reference(x, checks::kExtremeLossAtol, checks::kExtremeGradient);
  }
}

}  // namespace
}  // namespace a07_associative_recall
