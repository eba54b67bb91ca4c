// The sampler (decode/sampler.hpp): greedy takes the largest logit, the lower
// id on a tie; draws follow the distribution (a chi-square test on a fixed
// seed); a seed gives the same tokens every time; bad options are named. What
// temperature, top-k and top-p do to the distribution is a06's part 5, tested
// there (solutions/a06_kv_cache_decode/tests/sampling_test.cpp).
#include "sampler.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

namespace rooflab::decode {
namespace {

const std::vector<float> kLogits{1.0f, 3.0f, 0.5f, 3.0f, -2.0f, 2.0f};

TEST(Sampler, GreedyTakesTheLargestLogitAndTheLowerIdOnATie) {
  Sampler greedy({});
  EXPECT_EQ(greedy.next(kLogits.data(), 6), 1);
  const std::vector<double> p = greedy.distribution(kLogits.data(), 6);
  EXPECT_EQ(p, (std::vector<double>{0, 1, 0, 0, 0, 0}));
}

TEST(Sampler, SplitMix64IsTheReferenceSequence) {
  // splitmix64 from state 0: the generator's published first outputs.
  SplitMix64 random(0);
  EXPECT_EQ(random.next(), 0xe220a8397b1dcdafULL);
  EXPECT_EQ(random.next(), 0x6e789e6aa1b965f4ULL);
  for (int i = 0; i < 1000; ++i) {
    const double u = random.uniform();
    ASSERT_GE(u, 0.0);
    ASSERT_LT(u, 1.0);
  }
}

// 60,000 draws on one seed against the distribution: chi-square with 5
// degrees of freedom under 20.5 (p = 0.001). The seed is fixed, so the test
// gives one answer every run; a sampler drawing from another distribution
// (the logits unscaled, the cut ignored) lands far above it.
TEST(Sampler, DrawsFollowTheDistribution) {
  for (const SamplingOptions options : {SamplingOptions{0.7, 0, 1, 11}, SamplingOptions{1.3, 4, 0.95, 12}}) {
    Sampler sampler(options);
    const std::vector<double> p = sampler.distribution(kLogits.data(), 6);
    std::vector<int> counts(6, 0);
    constexpr int kDraws = 60000;
    for (int i = 0; i < kDraws; ++i) ++counts[static_cast<std::size_t>(sampler.next(kLogits.data(), 6))];
    double chi2 = 0;
    for (std::size_t v = 0; v < 6; ++v) {
      if (p[v] == 0) {
        EXPECT_EQ(counts[v], 0) << "token " << v << " is outside the cut";
        continue;
      }
      const double expected = p[v] * kDraws;
      chi2 += (counts[v] - expected) * (counts[v] - expected) / expected;
    }
    EXPECT_LT(chi2, 20.5) << "temperature " << options.temperature;
  }
}

TEST(Sampler, ASeedGivesTheSameTokensEveryTime) {
  const auto draw = [](std::uint64_t seed) {
    Sampler sampler({1.0, 0, 1, seed});
    std::vector<std::int64_t> tokens;
    for (int i = 0; i < 64; ++i) tokens.push_back(sampler.next(kLogits.data(), 6));
    return tokens;
  };
  EXPECT_EQ(draw(5), draw(5));
  EXPECT_NE(draw(5), draw(6));
}

std::string error_of(const SamplingOptions& options) {
  try {
    Sampler sampler(options);
  } catch (const std::invalid_argument& error) {
    return error.what();
  }
  return "";
}

TEST(Sampler, BadOptionsAndNanLogitsAreNamed) {
  EXPECT_EQ(error_of({-1, 0, 1, 0}).rfind("temperature:", 0), 0u);
  EXPECT_EQ(error_of({1, -3, 1, 0}).rfind("top_k:", 0), 0u);
  EXPECT_EQ(error_of({1, 0, 0, 0}).rfind("top_p:", 0), 0u);
  EXPECT_EQ(error_of({1, 0, 1.5, 0}).rfind("top_p:", 0), 0u);
  std::vector<float> nan = kLogits;
  nan[2] = std::nanf("");
  Sampler sampler({1.0, 0, 1, 0});
  EXPECT_THROW(sampler.next(nan.data(), 6), std::invalid_argument);
}

}  // namespace
}  // namespace rooflab::decode
