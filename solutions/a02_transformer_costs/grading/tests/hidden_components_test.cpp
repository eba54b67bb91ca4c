// Hidden tests for components.hpp: every function on models and passes drawn
// at grading time (GPT-2's kind and Llama's, prefill, decode and verification
// passes), GPT-2 XL at its context length, GQA, the gated MLP, invalid input.
// Every expected value comes from hidden_formulas.hpp or a literal, never from
// another of the student's functions.
#include <cmath>
#include <limits>
#include <random>

#include "a02_transformer_costs/a02_transformer_costs.hpp"
#include "hidden_formulas.hpp"
#include "hidden_models.hpp"
#include "rooflab/testing.hpp"

namespace a02_transformer_costs {
namespace {

using ComponentFunction = Cost (*)(const TransformerConfig&, const Pass&);
using Formula = expected::Flops (*)(const TransformerConfig&, const Pass&);

// One component on 20 models and passes drawn from the grading seed.
void expect_on_drawn_passes(ComponentFunction student, Formula formula, std::uint64_t salt) {
  std::mt19937_64 random(rooflab::testing::seed() ^ salt);
  for (int trial = 0; trial < 20; ++trial) {
    const TransformerConfig m = expected::random_model(random);
    const Pass p = expected::random_pass(random);
    const Cost got = student(m, p);
    const expected::Flops want = formula(m, p);
    const std::string what = "trial " + std::to_string(trial) + ": " + (m.mlp == MlpKind::gated ? "Llama" : "GPT-2") +
                             "-like, D=" + std::to_string(m.d_model) + ", pass {" + std::to_string(p.batch) + ", " +
                             std::to_string(p.new_tokens) + ", " + std::to_string(p.context) + "}";
    EXPECT_REL_NEAR(got.flops, want.flops, 1e-12) << what;
    EXPECT_REL_NEAR(got.bytes, want.bytes, 1e-12) << what;
  }
}

// Shapes up to 10⁵ on a side and 0.5 to 4 bytes an element. matmul_cost and
// linear_cost are tested apart so that a wrong linear_cost costs matmul_cost's
// public points nothing.
struct Shape {
  double m, k, n, e;
};
Shape random_shape(std::mt19937_64& random) {
  std::uniform_int_distribution<int> size(1, 100000), bytes(0, 3);
  const double m = size(random), k = size(random), n = size(random);
  return {m, k, n, std::ldexp(1.0, bytes(random) - 1)};
}

TEST(ComponentsHidden, MatmulOnShapesDrawnAtGradingTime) {
  std::mt19937_64 random(rooflab::testing::seed() ^ 0x11ull);
  for (int trial = 0; trial < 25; ++trial) {
    const Shape s = random_shape(random);
    const Cost product = matmul_cost(s.m, s.k, s.n, s.e);
    EXPECT_REL_NEAR(product.flops, expected::matmul(s.m, s.k, s.n, s.e).flops, 1e-12) << "trial " << trial;
    EXPECT_REL_NEAR(product.bytes, expected::matmul(s.m, s.k, s.n, s.e).bytes, 1e-12) << "trial " << trial;
  }
}

TEST(ComponentsHidden, LinearOnShapesDrawnAtGradingTime) {
  std::mt19937_64 random(rooflab::testing::seed() ^ 0x12ull);
  for (int trial = 0; trial < 25; ++trial) {
    const Shape s = random_shape(random);
    const bool bias = trial % 2 == 0;
    const Cost layer = linear_cost(s.m, s.k, s.n, bias, s.e);
    EXPECT_REL_NEAR(layer.flops, expected::linear(s.m, s.k, s.n, bias, s.e).flops, 1e-12) << "trial " << trial;
    EXPECT_REL_NEAR(layer.bytes, expected::linear(s.m, s.k, s.n, bias, s.e).bytes, 1e-12) << "trial " << trial;
  }
}

TEST(ComponentsHidden, QkvProjectionOnPassesDrawnAtGradingTime) {
  expect_on_drawn_passes(&qkv_projection_cost, &expected::qkv, 0x21);
}
TEST(ComponentsHidden, AttentionScoresOnPassesDrawnAtGradingTime) {
  expect_on_drawn_passes(&attention_scores_cost, &expected::scores, 0x22);
}
TEST(ComponentsHidden, CausalMaskOnPassesDrawnAtGradingTime) {
  expect_on_drawn_passes(&causal_mask_cost, &expected::mask, 0x23);
}
TEST(ComponentsHidden, SoftmaxOnPassesDrawnAtGradingTime) {
  expect_on_drawn_passes(&softmax_cost, &expected::softmax, 0x24);
}
TEST(ComponentsHidden, AttentionValuesOnPassesDrawnAtGradingTime) {
  expect_on_drawn_passes(&attention_values_cost, &expected::values, 0x25);
}
TEST(ComponentsHidden, AttentionOnPassesDrawnAtGradingTime) {
  expect_on_drawn_passes(&attention_cost, &expected::attention, 0x26);
}
TEST(ComponentsHidden, OutputProjectionOnPassesDrawnAtGradingTime) {
  expect_on_drawn_passes(&output_projection_cost, &expected::output_projection, 0x27);
}
TEST(ComponentsHidden, MlpOnPassesDrawnAtGradingTime) { expect_on_drawn_passes(&mlp_cost, &expected::mlp, 0x28); }
TEST(ComponentsHidden, LayerOnPassesDrawnAtGradingTime) { expect_on_drawn_passes(&layer_cost, &expected::layer, 0x29); }
TEST(ComponentsHidden, LmHeadOnPassesDrawnAtGradingTime) {
  expect_on_drawn_passes(&lm_head_cost, &expected::lm_head, 0x2a);
}
TEST(ComponentsHidden, ModelOnPassesDrawnAtGradingTime) { expect_on_drawn_passes(&model_cost, &expected::model, 0x2b); }

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
  // FLOPs scale with the batch; bytes grow by a fixed increment per request
  // (the weights are shared). The expected values carry that lesson; the
  // student's must equal them.
  const expected::Flops one = expected::model(gpt2_xl(), decode(1, 512));
  const double bytes_per_request = expected::model(gpt2_xl(), decode(2, 512)).bytes - one.bytes;
  for (const double batch : {1.0, 2.0, 4.0}) {
    const expected::Flops want = expected::model(gpt2_xl(), decode(batch, 512));
    EXPECT_REL_NEAR(want.flops, batch * one.flops, 1e-12) << "batch " << batch;
    EXPECT_REL_NEAR(want.bytes, one.bytes + (batch - 1) * bytes_per_request, 1e-12) << "batch " << batch;
    const Cost got = model_cost(gpt2_xl(), decode(batch, 512));
    EXPECT_REL_NEAR(got.flops, want.flops, 1e-12) << "batch " << batch;
    EXPECT_REL_NEAR(got.bytes, want.bytes, 1e-12) << "batch " << batch;
  }
}

TEST(ComponentsHidden, MatmulIntensityApproachesItsLimits) {
  // Square: AI = 2k³ / (3nk²) grows linearly; skinny (m = 1): AI → 2/n.
  const Cost square = matmul_cost(4096, 4096, 4096, 2);
  EXPECT_REL_NEAR(square.flops, 2 * 4096.0 * 4096 * 4096, 1e-12);
  EXPECT_REL_NEAR(square.bytes, 2 * 3 * 4096.0 * 4096, 1e-12);
  const Cost skinny = matmul_cost(1, 1e6, 1e6, 2);
  EXPECT_REL_NEAR(skinny.flops, 2e12, 1e-12);
  EXPECT_REL_NEAR(skinny.bytes, 2 * (1e6 + 1e12 + 1e6), 1e-12);
}

TEST(ComponentsHidden, RejectsEveryBadInputNamingIt) {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  {
    const rooflab::testing::ArgumentNames names{"m", "k", "n", "bytes_per_element"};
    EXPECT_INVALID_ARGUMENT(matmul_cost(1, nan, 1, 2), "k");
    EXPECT_INVALID_ARGUMENT(matmul_cost(1, 1, inf, 2), "n");
  }
  {
    // linear_cost checks through matmul_cost (components.hpp): rows is its m.
    const rooflab::testing::ArgumentNames names{"m", "k", "n", "bytes_per_element"};
    EXPECT_INVALID_ARGUMENT(linear_cost(-1, 2, 2, true, 2), "m");
    EXPECT_INVALID_ARGUMENT(linear_cost(2, 2, 2, false, 0), "bytes_per_element");
  }
  const rooflab::testing::ArgumentNames names{
      "num_layers",  "d_model", "num_heads",         "num_kv_heads", "d_ff",   "vocab_size",
      "context_len", "batch",   "bytes_per_element", "new_tokens",   "context"};
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
