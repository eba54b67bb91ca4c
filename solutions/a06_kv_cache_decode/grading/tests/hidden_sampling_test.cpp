// Hidden tests, part 5: the next token's probabilities on logits, options and
// vocabularies drawn from the grader's seed (ties included), draw_token at
// drawn uniforms, and speculative decoding's rule on drawn distributions. The
// expected answers are computed here, in the verdict process, by its own code;
// and the rule's output, over many drawn proposals, must be distributed as
// the target (a chi-square test the verdict runs itself).
#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <sstream>

#include "a06_kv_cache_decode/a06_kv_cache_decode.hpp"
#include "rooflab/testing.hpp"

namespace a06_kv_cache_decode {
namespace {

using rooflab::testing::pick;

double uniform(std::mt19937_64& engine) { return std::uniform_real_distribution<double>(0.0, 1.0)(engine); }

// ---- the verdict's own answers ----

// Ids from most to least likely, the lower id first among equal logits.
std::vector<std::size_t> by_likelihood(const std::vector<float>& logits) {
  std::vector<std::pair<float, std::size_t>> keyed;
  for (std::size_t v = 0; v < logits.size(); ++v) keyed.emplace_back(-logits[v], v);
  std::sort(keyed.begin(), keyed.end());
  std::vector<std::size_t> order;
  for (const auto& [key, v] : keyed) order.push_back(v);
  return order;
}

std::vector<double> expected_probabilities(const std::vector<float>& logits, const Sampling& sampling) {
  const std::vector<std::size_t> order = by_likelihood(logits);
  std::vector<double> p(logits.size(), 0.0);
  if (sampling.temperature == 0) {
    p[order.front()] = 1;
    return p;
  }
  std::size_t kept =
      sampling.top_k > 0 ? std::min(order.size(), static_cast<std::size_t>(sampling.top_k)) : order.size();
  std::vector<double> weight(kept);
  for (std::size_t i = 0; i < kept; ++i)
    weight[i] = std::exp((static_cast<double>(logits[order[i]]) - logits[order[0]]) / sampling.temperature);
  double total = std::accumulate(weight.begin(), weight.end(), 0.0);
  if (sampling.top_p < 1) {
    double running = 0;
    std::size_t prefix = 0;
    while (prefix < kept && running < sampling.top_p) running += weight[prefix++] / total;
    kept = std::max<std::size_t>(prefix, 1);
    total = std::accumulate(weight.begin(), weight.begin() + static_cast<std::ptrdiff_t>(kept), 0.0);
  }
  for (std::size_t i = 0; i < kept; ++i) p[order[i]] = weight[i] / total;
  return p;
}

std::int64_t expected_draw(const std::vector<double>& p, double u) {
  double running = 0;
  std::int64_t last = -1;
  for (std::size_t v = 0; v < p.size(); ++v) {
    if (p[v] <= 0) continue;
    last = static_cast<std::int64_t>(v);
    running += p[v];
    if (u < running) return last;
  }
  return last;
}

ProposalCheck expected_check(const std::vector<double>& p, const std::vector<double>& q, std::int64_t x,
                             double accept_u, double residual_u) {
  const auto i = static_cast<std::size_t>(x);
  if (accept_u < std::min(1.0, p[i] / q[i])) return {true, x};
  std::vector<double> r(p.size());
  double total = 0;
  for (std::size_t v = 0; v < p.size(); ++v) total += (r[v] = std::max(0.0, p[v] - q[v]));
  if (total <= 0) return {false, expected_draw(p, residual_u)};
  for (double& value : r) value /= total;
  return {false, expected_draw(r, residual_u)};
}

// ---- what the tests draw ----

std::vector<float> drawn_logits(std::mt19937_64& engine, std::int64_t vocab) {
  const double scale = std::vector<double>{0.5, 2.0, 8.0}[static_cast<std::size_t>(pick(engine, 0, 2))];
  const bool ties = pick(engine, 0, 2) == 0;  // whole numbers: many equal logits
  std::normal_distribution<double> normal(0.0, scale);
  std::vector<float> logits(static_cast<std::size_t>(vocab));
  for (float& logit : logits) logit = static_cast<float>(ties ? std::round(normal(engine)) : normal(engine));
  return logits;
}

Sampling drawn_sampling(std::mt19937_64& engine, std::int64_t vocab) {
  Sampling sampling;
  if (pick(engine, 0, 4) == 0) return sampling;  // greedy
  sampling.temperature = std::exp(std::uniform_real_distribution<double>(std::log(0.1), std::log(4.0))(engine));
  if (pick(engine, 0, 1) == 0) sampling.top_k = pick(engine, 1, vocab + 3);
  if (pick(engine, 0, 1) == 0) sampling.top_p = std::uniform_real_distribution<double>(0.05, 1.0)(engine);
  return sampling;
}

// A distribution over `vocab` tokens, some of them 0; now and then one-hot.
std::vector<double> drawn_distribution(std::mt19937_64& engine, std::int64_t vocab) {
  std::vector<double> p(static_cast<std::size_t>(vocab), 0.0);
  if (pick(engine, 0, 5) == 0) {
    p[static_cast<std::size_t>(pick(engine, 0, vocab - 1))] = 1;
    return p;
  }
  for (double& value : p) value = pick(engine, 0, 3) == 0 ? 0.0 : uniform(engine);
  p[static_cast<std::size_t>(pick(engine, 0, vocab - 1))] += 0.1;  // never all zero
  const double total = std::accumulate(p.begin(), p.end(), 0.0);
  for (double& value : p) value /= total;
  return p;
}

std::string describe(const Sampling& sampling, std::int64_t vocab) {
  std::ostringstream out;
  out << "vocab " << vocab << ", temperature " << sampling.temperature << ", top_k " << sampling.top_k << ", top_p "
      << sampling.top_p;
  return out.str();
}

TEST(HiddenSampling, RandomLogitsOptionsAndVocabularies) {
  std::mt19937_64 engine(rooflab::testing::seed() ^ 0x5a3bull);
  for (int trial = 0; trial < 150; ++trial) {
    const std::int64_t vocab = pick(engine, 0, 3) == 0 ? pick(engine, 1, 4) : pick(engine, 5, 400);
    const std::vector<float> logits = drawn_logits(engine, vocab);
    const Sampling sampling = drawn_sampling(engine, vocab);
    const std::vector<double> expected = expected_probabilities(logits, sampling);
    const auto got = ROOFLAB_CALL_OR_FAIL("next_token_probabilities", next_token_probabilities(logits, sampling));
    if (!got) return;
    ASSERT_EQ(got->size(), expected.size()) << describe(sampling, vocab);
    for (std::size_t v = 0; v < expected.size(); ++v) {
      if (expected[v] == 0)
        ASSERT_EQ((*got)[v], 0.0) << describe(sampling, vocab) << ": token " << v << " is cut, its probability is 0";
      else
        ASSERT_NEAR((*got)[v], expected[v], 1e-9 + 1e-9 * expected[v]) << describe(sampling, vocab) << ": token " << v;
    }
  }
}

TEST(HiddenSampling, DrawTokenAtRandomUniforms) {
  std::mt19937_64 engine(rooflab::testing::seed() ^ 0xd4a3ull);
  for (int trial = 0; trial < 300; ++trial) {
    const std::vector<double> p = drawn_distribution(engine, pick(engine, 1, 50));
    const double u = uniform(engine);
    const auto got = ROOFLAB_CALL_OR_FAIL("draw_token", draw_token(p, u));
    if (!got) return;
    ASSERT_EQ(*got, expected_draw(p, u)) << "u " << u << " over " << p.size() << " tokens";
  }
}

TEST(HiddenSpeculative, RuleOnRandomDistributions) {
  std::mt19937_64 engine(rooflab::testing::seed() ^ 0x59ecull);
  for (int trial = 0; trial < 300; ++trial) {
    const std::int64_t vocab = pick(engine, 1, 40);
    const std::vector<double> p = drawn_distribution(engine, vocab), q = drawn_distribution(engine, vocab);
    const std::int64_t x = expected_draw(q, uniform(engine));  // what the draft would propose
    const double accept_u = uniform(engine), residual_u = uniform(engine);
    const ProposalCheck expected = expected_check(p, q, x, accept_u, residual_u);
    const auto got = ROOFLAB_CALL_OR_FAIL("check_proposal", check_proposal(p, q, x, accept_u, residual_u));
    if (!got) return;
    ASSERT_EQ(got->accepted, expected.accepted)
        << "proposal " << x << ": p(x) = " << p[static_cast<std::size_t>(x)]
        << ", q(x) = " << q[static_cast<std::size_t>(x)] << ", accept_u " << accept_u;
    ASSERT_EQ(got->token, expected.token) << "proposal " << x << ", residual_u " << residual_u;
  }
}

// What speculative decoding promises: proposals from q, through the rule,
// come out distributed as p. 4000 draws over 6 tokens, against p by a
// chi-square test at a false-alarm rate of one in a million (5 degrees of
// freedom: 35.9); a rule that keeps every proposal gives q instead.
TEST(HiddenSpeculative, OutputIsDistributedAsTheTarget) {
  std::mt19937_64 engine(rooflab::testing::seed() ^ 0xc41ull);
  const std::int64_t vocab = 6, draws = 4000;
  std::vector<double> p(vocab), q(vocab);
  for (std::int64_t v = 0; v < vocab; ++v) {
    p[static_cast<std::size_t>(v)] = 0.05 + uniform(engine);
    q[static_cast<std::size_t>(v)] = 0.05 + uniform(engine);
  }
  for (auto* distribution : {&p, &q}) {
    const double total = std::accumulate(distribution->begin(), distribution->end(), 0.0);
    for (double& value : *distribution) value /= total;
  }
  std::vector<double> counts(vocab, 0.0);
  for (std::int64_t i = 0; i < draws; ++i) {
    const std::int64_t x = expected_draw(q, uniform(engine));
    const double accept_u = uniform(engine), residual_u = uniform(engine);
    const auto got = ROOFLAB_CALL_OR_FAIL("check_proposal", check_proposal(p, q, x, accept_u, residual_u));
    if (!got) return;
    ASSERT_TRUE(got->token >= 0 && got->token < vocab) << "token " << got->token << " is not one of " << vocab;
    counts[static_cast<std::size_t>(got->token)] += 1;
  }
  double chi_square = 0;
  for (std::int64_t v = 0; v < vocab; ++v) {
    const double expected = static_cast<double>(draws) * p[static_cast<std::size_t>(v)];
    chi_square += std::pow(counts[static_cast<std::size_t>(v)] - expected, 2) / expected;
  }
  EXPECT_LT(chi_square, 35.9) << "the tokens that come out are not distributed as the target's p";
}

}  // namespace
}  // namespace a06_kv_cache_decode
