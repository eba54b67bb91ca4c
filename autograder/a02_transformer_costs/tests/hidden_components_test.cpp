// Hidden tests for components.hpp: random shapes, GQA, the gated MLP, decode
// passes, invalid input.
#include <cmath>
#include <limits>
#include <random>

#include "a02_transformer_costs/a02_transformer_costs.hpp"
#include "hidden_models.hpp"
#include "rooflab/testing.hpp"

namespace a02_transformer_costs {
namespace {

// The whole GPT-2 layer in B, N, D, H, n, written out from the docs' formulas.
Cost gpt2_layer_by_hand(double B, double N, double D, double H, double n) {
  const double d = D / H, R = B * N, F = 4 * D, S = B * H * N * N;
  Cost c;
  c.flops = 3 * (2 * R * D * D + R * D)                           // Q, K, V
            + S * (2 * d + 1) + S + 3 * S                         // scores, mask, softmax
            + 2 * S * d                                           // AV
            + (2 * R * D * D + R * D)                             // output projection
            + (2 * R * D * F + R * F) + (2 * R * F * D + R * D);  // MLP
  c.bytes = n * (3 * (R * D + D * D + R * D + D)                  // Q, K, V
                 + (2 * R * H * d + S) + 2 * S + 2 * S            // scores, mask, softmax
                 + (S + 2 * R * H * d)                            // AV
                 + (R * D + D * D + R * D + D)                    // output projection
                 + (R * D + D * F + F + R * F) + (R * F + F * D + D + R * D));
  return c;
}

TEST(ComponentsHidden, RandomGpt2ShapesMatchTheFormulas) {
  std::mt19937_64 random(rooflab::testing::seed());
  std::uniform_int_distribution<int> heads(1, 32), head_dim(8, 128), batch(1, 64), seq(1, 2048);
  for (int trial = 0; trial < 20; ++trial) {
    const double h = heads(random);
    const TransformerConfig m = gpt2_sized(48, h * head_dim(random), h);
    const double B = batch(random), N = seq(random);
    const Cost expected = gpt2_layer_by_hand(B, N, m.d_model, m.num_heads, 2);
    const Cost actual = layer_cost(m, prefill(B, N));
    const char* shape = "random GPT-2 shape";
    EXPECT_REL_NEAR(actual.flops, N > 1 ? expected.flops : expected.flops - B * m.num_heads, 1e-12)
        << shape << ", seed " << rooflab::testing::seed() << ", trial " << trial;
    EXPECT_REL_NEAR(actual.bytes, N > 1 ? expected.bytes : expected.bytes - 2 * 2 * B * m.num_heads, 1e-12)
        << shape << ", seed " << rooflab::testing::seed() << ", trial " << trial;
  }
}

TEST(ComponentsHidden, Gpt2XlPrefillAtContextLength) {
  const double B = 64, N = 1024, D = 1600, H = 25;
  const Cost expected = gpt2_layer_by_hand(B, N, D, H, 2);
  const Cost layer = layer_cost(gpt2_xl(), prefill(B, N));
  EXPECT_REL_NEAR(layer.flops, expected.flops, 1e-12);
  EXPECT_REL_NEAR(layer.bytes, expected.bytes, 1e-12);
  const Cost model = model_cost(gpt2_xl(), prefill(B, N));
  EXPECT_REL_NEAR(model.flops, 48 * expected.flops + 2 * B * N * D * 50257, 1e-12);
  EXPECT_REL_NEAR(model.bytes, 48 * expected.bytes + 2 * (B * N * D + D * 50257 + B * N * 50257), 1e-12);
}

TEST(ComponentsHidden, GroupedQueryAttentionReadsEachKvHeadOnce) {
  const TransformerConfig m = llama3_8b();
  const double B = 2, N = 512, d = 128;
  const Cost qkv = qkv_projection_cost(m, prefill(B, N));
  EXPECT_REL_NEAR(qkv.flops, 2 * B * N * 4096 * (4096 + 2 * 8 * d), 1e-12);
  EXPECT_REL_NEAR(qkv.bytes, 2 * (3 * B * N * 4096 + 4096 * (4096 + 2 * 8 * d) + B * N * (4096 + 2 * 8 * d)), 1e-12);
  const Cost scores = attention_scores_cost(m, decode(B, N));
  EXPECT_REL_NEAR(scores.flops, B * 32 * N * (2 * d + 1), 1e-12);
  EXPECT_REL_NEAR(scores.bytes, 2 * (B * 32 * d + B * 8 * N * d + B * 32 * N), 1e-12);
  const Cost values = attention_values_cost(m, decode(B, N));
  EXPECT_REL_NEAR(values.bytes, 2 * (B * 32 * N + B * 8 * N * d + B * 32 * d), 1e-12);
}

TEST(ComponentsHidden, GatedMlpHasThreeMatricesAndAProductPass) {
  const TransformerConfig m = llama3_8b();
  const double R = 3 * 100, D = 4096, F = 14336;
  const Cost mlp = mlp_cost(m, prefill(3, 100));
  EXPECT_REL_NEAR(mlp.flops, 3 * 2 * R * D * F + R * F, 1e-12);
  EXPECT_REL_NEAR(mlp.bytes, 2 * (2 * (R * D + D * F + R * F) + 3 * R * F + (R * F + F * D + R * D)), 1e-12);
}

TEST(ComponentsHidden, PartialPassesMaskOnlyWhenSeveralTokensAreNew) {
  // A verification pass of speculative decoding: 5 new tokens against 1029 positions.
  const Pass verify{4, 5, 1029};
  const Cost mask = causal_mask_cost(gpt2_xl(), verify);
  EXPECT_REL_NEAR(mask.flops, 4 * 25 * 5 * 1029, 1e-12);
  const Cost softmax = softmax_cost(gpt2_xl(), verify);
  EXPECT_REL_NEAR(softmax.flops, 3 * 4 * 25 * 5 * 1029, 1e-12);
  EXPECT_EQ(causal_mask_cost(gpt2_xl(), prefill(3, 1)).flops, 0);
}

TEST(ComponentsHidden, DecodeIsLinearInBatchExceptTheWeights) {
  const Cost one = model_cost(gpt2_xl(), decode(1, 512));
  const Cost two = model_cost(gpt2_xl(), decode(2, 512));
  const Cost four = model_cost(gpt2_xl(), decode(4, 512));
  // FLOPs scale with the batch; bytes grow by the same increment (weights are shared).
  EXPECT_REL_NEAR(two.flops, 2 * one.flops, 1e-12);
  EXPECT_REL_NEAR(four.bytes - two.bytes, 2 * (two.bytes - one.bytes), 1e-9);
  EXPECT_LT(two.bytes, 2 * one.bytes);
  EXPECT_GT(two.flops / two.bytes, one.flops / one.bytes);
}

TEST(ComponentsHidden, MatmulIntensityApproachesItsLimits) {
  // Square: AI = 2k³ / (3nk²) grows linearly; skinny (m = 1): AI → 2/n.
  const Cost square = matmul_cost(4096, 4096, 4096, 2);
  EXPECT_REL_NEAR(square.flops / square.bytes, 4096.0 / 3, 1e-12);
  const Cost skinny = matmul_cost(1, 1e6, 1e6, 2);
  EXPECT_NEAR(skinny.flops / skinny.bytes, 1.0, 1e-5);
}

TEST(ComponentsHidden, RejectsEveryBadInputNamingIt) {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  EXPECT_INVALID_ARGUMENT(matmul_cost(1, nan, 1, 2), "k");
  EXPECT_INVALID_ARGUMENT(matmul_cost(1, 1, inf, 2), "n");
  EXPECT_INVALID_ARGUMENT(linear_cost(-1, 2, 2, true, 2), "m");
  EXPECT_INVALID_ARGUMENT(mlp_cost(gpt2_xl(), Pass{1, 1, nan}), "context");
  EXPECT_INVALID_ARGUMENT(lm_head_cost(gpt2_xl(), Pass{1, 0, 4}), "new_tokens");
  TransformerConfig m = gpt2_xl();
  m.d_ff = 0;
  EXPECT_INVALID_ARGUMENT(model_cost(m, prefill(1, 8)), "d_ff");
  m = gpt2_xl();
  m.vocab_size = -5;
  EXPECT_INVALID_ARGUMENT(lm_head_cost(m, prefill(1, 8)), "vocab_size");
  m = gpt2_xl();
  m.bytes_per_element = inf;
  EXPECT_INVALID_ARGUMENT(output_projection_cost(m, prefill(1, 8)), "bytes_per_element");
}

}  // namespace
}  // namespace a02_transformer_costs
