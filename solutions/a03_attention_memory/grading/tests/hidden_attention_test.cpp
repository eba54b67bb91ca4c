// Hidden tests: standard and linear attention on random shapes drawn from the
// grader's seed, checked against the fp64 reference.
#include <random>

#include "a03_attention_memory/a03_attention_memory.hpp"
#include "rooflab/attention_reference.hpp"
#include "rooflab/attention_testing.hpp"
#include "rooflab/testing.hpp"

namespace a03_attention_memory {
namespace {

using rooflab::testing::kFp32;

struct Case {
  Tensor4 q, k, v;
};

// B, H in 1..3, N and M in 1..70, d and d_v in 1..40, all independent.
Case random_case(std::mt19937_64& engine, bool same_length) {
  auto pick = [&](std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(engine);
  };
  const std::int64_t b = pick(1, 3), h = pick(1, 3), n = pick(1, 70), d = pick(1, 40), dv = pick(1, 40);
  const std::int64_t m = same_length ? n : pick(1, 70);
  const std::uint64_t seed = engine();
  return {rooflab::random_normal(b, h, n, d, seed), rooflab::random_normal(b, h, m, d, seed + 1),
          rooflab::random_normal(b, h, m, dv, seed + 2)};
}

// Each CPU backend earns its own points: a right standard_attention scores
// even when the Thrust file is missing.
class StandardHidden : public ::testing::TestWithParam<rooflab::Backend> {};

TEST_P(StandardHidden, RandomShapes) {
  std::mt19937_64 engine(rooflab::testing::seed());
  for (int trial = 0; trial < 12; ++trial) {
    const bool causal = trial % 2 == 1;
    const Case x = random_case(engine, causal);
    const AttentionResult result = standard_attention_on(GetParam(), x.q, x.k, x.v, causal);
    EXPECT_TRUE(rooflab::testing::MatchesAttentionReference(result.output, nullptr, x.q, x.k, x.v, {causal, {}}))
        << "trial " << trial << (causal ? " causal" : "");
    EXPECT_EQ(result.weights.shape, (std::array<std::int64_t, 4>{x.q.batch(), x.q.heads(), x.q.rows(), x.k.rows()}));
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, StandardHidden, ::testing::Values(rooflab::Backend::cpu, rooflab::Backend::thrust),
                         rooflab::testing::BackendName{});

TEST(StandardEdgeHidden, ExtremeLogitsAndSingleToken) {
  // Scores in the thousands, exact in fp32 (whole numbers, d = 16), so any
  // seed tests the softmax and not the rounding of near-tied scores.
  const Tensor4 q = rooflab::random_whole_numbers(1, 2, 33, 16, rooflab::testing::seed(), 50.0f);
  const Tensor4 k = rooflab::random_whole_numbers(1, 2, 33, 16, rooflab::testing::seed() + 1, 50.0f);
  const Tensor4 v = rooflab::random_normal(1, 2, 33, 16, rooflab::testing::seed() + 2);
  EXPECT_ALL_CLOSE(standard_attention(q, k, v, true).output.data,
                   rooflab::reference::attention(q, k, v, {true, {}}).output, 1e-4, 1e-3);
  const Tensor4 one = rooflab::random_normal(1, 1, 1, 5, 3);
  const AttentionResult single = standard_attention(one, one, one, true);
  EXPECT_EQ(single.weights.data, std::vector<float>{1.0f});
  EXPECT_ALL_CLOSE(single.output.data, one.data, 1e-6, 1e-6);
}

// One test per function, so that each earns its own points (and gates its own
// public tests): a right bidirectional form scores even if the causal ones fail.
using LinearFunction = Tensor4 (*)(const Tensor4&, const Tensor4&, const Tensor4&);

void expect_linear_on_random_shapes(LinearFunction function, bool causal, std::uint64_t salt) {
  std::mt19937_64 engine(rooflab::testing::seed() ^ salt);
  for (int trial = 0; trial < 8; ++trial) {
    const Case x = random_case(engine, causal);
    const Tensor4 out = function(x.q, x.k, x.v);
    EXPECT_EQ(out.shape, (std::array<std::int64_t, 4>{x.q.batch(), x.q.heads(), x.q.rows(), x.v.cols()}));
    EXPECT_ALL_CLOSE_WITHIN(out.data, rooflab::reference::linear_attention(x.q, x.k, x.v, causal, kLinearAttentionEps),
                            kFp32)
        << "trial " << trial;
  }
}

TEST(LinearHidden, BidirectionalOnRandomShapes) { expect_linear_on_random_shapes(&linear_attention, false, 0x51ull); }

TEST(LinearHidden, CausalCumsumOnRandomShapes) {
  expect_linear_on_random_shapes(&causal_linear_attention_cumsum, true, 0x52ull);
}

TEST(LinearHidden, CausalRecurrentOnRandomShapes) {
  expect_linear_on_random_shapes(&causal_linear_attention_recurrent, true, 0x53ull);
}

TEST(LinearHidden, LastCausalRowEqualsBidirectional) {
  // The last query sees every key, so the causal recurrence ends on the
  // bidirectional answer: its last row against the reference's bidirectional one.
  const Tensor4 q = rooflab::random_normal(1, 1, 30, 6, 11), k = rooflab::random_normal(1, 1, 30, 6, 12),
                v = rooflab::random_normal(1, 1, 30, 6, 13);
  const std::vector<double> full = rooflab::reference::linear_attention(q, k, v, false, kLinearAttentionEps);
  const Tensor4 causal = causal_linear_attention_recurrent(q, k, v);
  ASSERT_EQ(causal.shape, q.shape);
  // Copied element by element: GCC 11 reads a copy of full's last six as an
  // over-read (a false -Wstringop-overread under -Werror).
  std::vector<double> last_row;
  for (std::size_t i = full.size() - 6; i < full.size(); ++i) last_row.push_back(full[i]);
  EXPECT_ALL_CLOSE(std::vector<float>(causal.row(0, 29), causal.row(0, 29) + 6), last_row, 1e-5, 1e-4);
}

}  // namespace
}  // namespace a03_attention_memory
