// Public tests, part 5: the next token's probabilities (greedy, temperature,
// top-k, top-p), drawing a token from them, and speculative decoding's
// accept/reject rule, on small hand-checked cases.
#include "a06_kv_cache_decode/sampling.hpp"

#include <cmath>
#include <numeric>

#include "rooflab/testing.hpp"

namespace a06_kv_cache_decode {
namespace {

// Token 2 is the most likely, 0 and 4 tie for second.
const std::vector<float> kLogits{1.0f, -1.0f, 3.0f, 0.0f, 1.0f};

// softmax(logits / temperature) over the ids in `kept`, 0 elsewhere.
std::vector<double> softmax_over(const std::vector<float>& logits, double temperature,
                                 const std::vector<std::size_t>& kept) {
  std::vector<double> p(logits.size(), 0.0);
  double total = 0;
  for (std::size_t v : kept) total += (p[v] = std::exp(logits[v] / temperature));
  for (double& value : p) value /= total;
  return p;
}

void expect_probabilities(const std::vector<double>& actual, const std::vector<double>& expected) {
  ASSERT_EQ(actual.size(), expected.size());
  for (std::size_t v = 0; v < expected.size(); ++v) {
    if (expected[v] == 0)
      EXPECT_EQ(actual[v], 0.0) << "token " << v << " is cut: its probability is exactly 0";
    else
      EXPECT_NEAR(actual[v], expected[v], 1e-12) << "token " << v;
  }
}

TEST(Sampling, GreedyPutsEverythingOnTheLargestLogitTheLowestIdOnATie) {
  expect_probabilities(next_token_probabilities(kLogits, {}), {0, 0, 1, 0, 0});
  expect_probabilities(next_token_probabilities({2.0f, 5.0f, 5.0f}, {}), {0, 1, 0});
}

TEST(Sampling, TemperatureIsASoftmaxOfTheScaledLogits) {
  for (double temperature : {0.5, 1.0, 2.0})
    expect_probabilities(next_token_probabilities(kLogits, {temperature, 0, 1}),
                         softmax_over(kLogits, temperature, {0, 1, 2, 3, 4}));
  // Logits far from zero: shift by the largest before exp, or this overflows.
  const std::vector<float> large{1000.0f, 999.0f};
  expect_probabilities(next_token_probabilities(large, {1.0, 0, 1}),
                       {1 / (1 + std::exp(-1.0)), 1 / (1 + std::exp(1.0))});
}

TEST(Sampling, TopKKeepsTheKMostLikelyTheLowerIdFirstAmongEquals) {
  // 2, then 0 before 4 (equal logits): k = 2 keeps 2 and 0.
  expect_probabilities(next_token_probabilities(kLogits, {1.0, 2, 1}), softmax_over(kLogits, 1.0, {2, 0}));
  expect_probabilities(next_token_probabilities(kLogits, {1.0, 9, 1}), softmax_over(kLogits, 1.0, {0, 1, 2, 3, 4}));
}

TEST(Sampling, TopPKeepsTheSmallestSetThatReachesP) {
  const std::vector<double> all = softmax_over(kLogits, 1.0, {0, 1, 2, 3, 4});
  // Token 2 alone has about 0.74: p = 0.5 keeps it alone, p = 0.8 adds 0.
  expect_probabilities(next_token_probabilities(kLogits, {1.0, 0, 0.5}), {0, 0, 1, 0, 0});
  expect_probabilities(next_token_probabilities(kLogits, {1.0, 0, 0.8}), softmax_over(kLogits, 1.0, {2, 0}));
  EXPECT_GT(all[2], 0.5);
  EXPECT_LT(all[2], 0.8);
  EXPECT_GT(all[2] + all[0], 0.8);
  // After top-k: the nucleus of the k kept, renormalised.
  expect_probabilities(next_token_probabilities(kLogits, {1.0, 3, 0.9}), softmax_over(kLogits, 1.0, {2, 0, 4}));
}

TEST(Sampling, DrawTokenIsTheInverseTransform) {
  const std::vector<double> p{0.25, 0, 0.5, 0.25};
  EXPECT_EQ(draw_token(p, 0.0), 0);
  EXPECT_EQ(draw_token(p, 0.2499), 0);
  EXPECT_EQ(draw_token(p, 0.25), 2);  // token 1 has no probability: never drawn
  EXPECT_EQ(draw_token(p, 0.7499), 2);
  EXPECT_EQ(draw_token(p, 0.75), 3);
  // u past the rounded total (0.3 + 0.3 + 0.3 < 0.9): the last token with any.
  std::vector<double> short_of_one(3, 0.3);
  short_of_one.push_back(0.0);
  EXPECT_EQ(draw_token(short_of_one, 0.95), 2);
}

TEST(SpeculativeRule, KeepsAProposalTheTargetLikesAtLeastAsMuchAsTheDraft) {
  const std::vector<double> p{0.5, 0.3, 0.2}, q{0.2, 0.3, 0.5};
  // p(0)/q(0) = 2.5: always kept, whatever accept_u.
  const ProposalCheck kept = check_proposal(p, q, 0, 0.999, 0.5);
  EXPECT_TRUE(kept.accepted);
  EXPECT_EQ(kept.token, 0);
  // p(2)/q(2) = 0.4: kept when accept_u < 0.4.
  EXPECT_TRUE(check_proposal(p, q, 2, 0.39, 0.5).accepted);
  EXPECT_FALSE(check_proposal(p, q, 2, 0.41, 0.5).accepted);
}

TEST(SpeculativeRule, ARejectedProposalIsReplacedFromTheResidual) {
  const std::vector<double> p{0.5, 0.3, 0.2}, q{0.2, 0.3, 0.5};
  // max(0, p − q) = (0.3, 0, 0): the replacement is token 0, whatever residual_u.
  for (double u : {0.0, 0.5, 0.999}) {
    const ProposalCheck replaced = check_proposal(p, q, 2, 0.9, u);
    EXPECT_FALSE(replaced.accepted);
    EXPECT_EQ(replaced.token, 0) << "residual_u " << u;
  }
  // Residual (0.1, 0.3, 0) / 0.4: token 0 below residual_u 0.25, token 1 above.
  const std::vector<double> p2{0.3, 0.5, 0.2}, q2{0.2, 0.2, 0.6};
  EXPECT_EQ(check_proposal(p2, q2, 2, 0.9, 0.2).token, 0);
  EXPECT_EQ(check_proposal(p2, q2, 2, 0.9, 0.3).token, 1);
}

TEST(SpeculativeRule, GreedyIsTheOneHotCase) {
  const std::vector<double> target{0, 1, 0}, draft_agrees{0, 1, 0}, draft_differs{1, 0, 0};
  EXPECT_TRUE(check_proposal(target, draft_agrees, 1, 0.999, 0.5).accepted);
  const ProposalCheck differs = check_proposal(target, draft_differs, 0, 0.0, 0.999);
  EXPECT_FALSE(differs.accepted);
  EXPECT_EQ(differs.token, 1);  // the target's argmax
}

TEST(Sampling, RejectsBadInputs) {
  const rooflab::testing::ArgumentNames names{"logits", "temperature", "top_k",    "top_p",    "probabilities", "u",
                                              "target", "draft",       "proposal", "accept_u", "residual_u"};
  EXPECT_INVALID_ARGUMENT(next_token_probabilities({}, {}), "logits");
  EXPECT_INVALID_ARGUMENT(next_token_probabilities({1.0f, std::nanf("")}, {1.0, 0, 1}), "logits");
  EXPECT_INVALID_ARGUMENT(next_token_probabilities(kLogits, {-1.0, 0, 1}), "temperature");
  EXPECT_INVALID_ARGUMENT(next_token_probabilities(kLogits, {INFINITY, 0, 1}), "temperature");
  EXPECT_INVALID_ARGUMENT(next_token_probabilities(kLogits, {1.0, -2, 1}), "top_k");
  EXPECT_INVALID_ARGUMENT(next_token_probabilities(kLogits, {1.0, 0, 0}), "top_p");
  EXPECT_INVALID_ARGUMENT(next_token_probabilities(kLogits, {1.0, 0, 1.5}), "top_p");
  EXPECT_INVALID_ARGUMENT(draw_token({}, 0.5), "probabilities");
  EXPECT_INVALID_ARGUMENT(draw_token({0.5, -0.1}, 0.5), "probabilities");
  EXPECT_INVALID_ARGUMENT(draw_token({0, 0}, 0.5), "probabilities");
  EXPECT_INVALID_ARGUMENT(draw_token({1}, 1.0), "u");
  EXPECT_INVALID_ARGUMENT(draw_token({1}, -0.1), "u");
  const std::vector<double> p{0.5, 0.5}, q{1, 0};
  EXPECT_INVALID_ARGUMENT(check_proposal({}, {}, 0, 0.5, 0.5), "target");
  EXPECT_INVALID_ARGUMENT(check_proposal({0.5, std::nan("")}, q, 0, 0.5, 0.5), "target");
  EXPECT_INVALID_ARGUMENT(check_proposal(p, {1}, 0, 0.5, 0.5), "draft");
  EXPECT_INVALID_ARGUMENT(check_proposal(p, {1, -1}, 0, 0.5, 0.5), "draft");
  EXPECT_INVALID_ARGUMENT(check_proposal(p, q, 2, 0.5, 0.5), "proposal");
  EXPECT_INVALID_ARGUMENT(check_proposal(p, q, 1, 0.5, 0.5), "proposal");  // q gives it nothing
  EXPECT_INVALID_ARGUMENT(check_proposal(p, q, 0, 1.0, 0.5), "accept_u");
  EXPECT_INVALID_ARGUMENT(check_proposal(p, q, 0, 0.5, -0.5), "residual_u");
}

}  // namespace
}  // namespace a06_kv_cache_decode
