// Public tests, part 3: the three linear attentions against the direct formula.
#include "a03_attention_memory/linear_attention.hpp"

#include "rooflab/attention_reference.hpp"
#include "rooflab/testing.hpp"

namespace a03_attention_memory {
namespace {

using rooflab::testing::kFp32;

struct Inputs {
  Tensor4 q, k, v;
};
Inputs inputs(std::int64_t n, std::int64_t d, std::uint64_t seed) {
  return {rooflab::random_normal(2, 2, n, d, seed), rooflab::random_normal(2, 2, n, d, seed + 1),
          rooflab::random_normal(2, 2, n, d, seed + 2)};
}

TEST(LinearAttention, BidirectionalMatchesTheDirectFormula) {
  const Inputs x = inputs(50, 16, 1);
  const Tensor4 out = linear_attention(x.q, x.k, x.v);
  EXPECT_EQ(out.shape, x.q.shape);
  EXPECT_ALL_CLOSE_WITHIN(out.data, rooflab::reference::linear_attention(x.q, x.k, x.v, false, kLinearAttentionEps),
                          kFp32);
}

TEST(LinearAttention, CausalCumsumMatchesTheDirectFormula) {
  const Inputs x = inputs(50, 16, 4);
  EXPECT_ALL_CLOSE_WITHIN(causal_linear_attention_cumsum(x.q, x.k, x.v).data,
                          rooflab::reference::linear_attention(x.q, x.k, x.v, true, kLinearAttentionEps), kFp32);
}

TEST(LinearAttention, CausalRecurrentMatchesTheDirectFormula) {
  const Inputs x = inputs(50, 16, 7);
  EXPECT_ALL_CLOSE_WITHIN(causal_linear_attention_recurrent(x.q, x.k, x.v).data,
                          rooflab::reference::linear_attention(x.q, x.k, x.v, true, kLinearAttentionEps), kFp32);
}

TEST(LinearAttention, FirstCausalRowIsItsOwnValue) {
  // Query 0 sees key 0 only: its output is v_0 (up to eps).
  const Inputs x = inputs(6, 8, 10);
  const Tensor4 out = causal_linear_attention_recurrent(x.q, x.k, x.v);
  ASSERT_EQ(out.shape, x.v.shape);
  for (std::int64_t c = 0; c < 8; ++c) EXPECT_NEAR(out.row(0, 0)[c], x.v.row(0, 0)[c], 1e-5);
}

TEST(LinearAttention, RejectsMismatchedInputs) {
  const Inputs x = inputs(8, 4, 1);
  const rooflab::testing::ArgumentNames names{"q", "k", "v"};
  EXPECT_INVALID_ARGUMENT(linear_attention(x.q, rooflab::random_normal(2, 2, 8, 5, 1), x.v), "k");
  EXPECT_INVALID_ARGUMENT(causal_linear_attention_recurrent(x.q, rooflab::random_normal(2, 2, 9, 4, 1),
                                                            rooflab::random_normal(2, 2, 9, 4, 1)),
                          "k");
  EXPECT_INVALID_ARGUMENT(causal_linear_attention_cumsum(x.q, x.k, rooflab::random_normal(2, 2, 7, 4, 1)), "v");
}

}  // namespace
}  // namespace a03_attention_memory
