// Public tests, part 2: components.hpp. Expected values are written out in
// B, N, D, H, n as docs/03_transformer_costs.md derives them; a test compares
// your values with them, never with each other.
#include "a02_transformer_costs/components.hpp"

#include "a02_transformer_costs/models.hpp"
#include "rooflab/testing.hpp"

namespace a02_transformer_costs {
namespace {

// GPT-2 XL: D = 1600, H = 25, d = 64, F = 6400, V = 50257, fp16.
constexpr double D = 1600, H = 25, d = 64, F = 6400, V = 50257, n = 2;

TEST(Matmul, CountsMultiplyAddsAndEachTensorOnce) {
  const Cost cost = matmul_cost(2, 3, 4, 2);
  EXPECT_DOUBLE_EQ(cost.flops, 2.0 * 2 * 3 * 4);
  EXPECT_DOUBLE_EQ(cost.bytes, 2.0 * (2 * 3 + 3 * 4 + 2 * 4));
}

TEST(Matmul, RejectsNonPositiveInputs) {
  const rooflab::testing::ArgumentNames names{"m", "k", "n", "bytes_per_element"};
  EXPECT_INVALID_ARGUMENT(matmul_cost(0, 3, 4, 2), "m");
  EXPECT_INVALID_ARGUMENT(matmul_cost(2, 3, 4, -1), "bytes_per_element");
}

TEST(Linear, BiasAddsOneFlopPerOutputAndItsOwnRead) {
  const Cost plain = linear_cost(2, 3, 4, false, 2);
  const Cost biased = linear_cost(2, 3, 4, true, 2);
  EXPECT_DOUBLE_EQ(plain.flops, 48);
  EXPECT_DOUBLE_EQ(plain.bytes, 2.0 * (2 * 3 + 3 * 4 + 2 * 4));
  EXPECT_DOUBLE_EQ(biased.flops, 48 + 2 * 4);                         // one add per output
  EXPECT_DOUBLE_EQ(biased.bytes, 2.0 * (2 * 3 + 3 * 4 + 2 * 4 + 4));  // and the bias vector, read once
}

TEST(QkvProjection, ThreeLinearLayersEachReadingTheInput) {
  const double B = 1, N = 32;
  const Cost cost = qkv_projection_cost(gpt2_xl(), prefill(B, N));
  EXPECT_REL_NEAR(cost.flops, 3 * (2 * B * N * D * D + B * N * D), 1e-12);
  EXPECT_REL_NEAR(cost.bytes, 3 * n * (B * N * D + D * D + B * N * D + D), 1e-12);
}

TEST(AttentionScores, ProductPlusFusedScale) {
  const double B = 4, N = 128;
  const Cost cost = attention_scores_cost(gpt2_xl(), prefill(B, N));
  EXPECT_REL_NEAR(cost.flops, B * H * N * N * (2 * d + 1), 1e-12);
  EXPECT_REL_NEAR(cost.bytes, n * (2 * B * H * N * d + B * H * N * N), 1e-12);
}

TEST(CausalMask, OneFlopPerScoreInPrefillNothingInDecode) {
  const double B = 2, N = 64;
  const Cost prefill_mask = causal_mask_cost(gpt2_xl(), prefill(B, N));
  EXPECT_REL_NEAR(prefill_mask.flops, B * H * N * N, 1e-12);
  EXPECT_REL_NEAR(prefill_mask.bytes, 2 * n * B * H * N * N, 1e-12);
  const Cost decode_mask = causal_mask_cost(gpt2_xl(), decode(B, N));
  EXPECT_EQ(decode_mask.flops, 0);
  EXPECT_EQ(decode_mask.bytes, 0);
}

TEST(Softmax, ThreeFlopsPerScoreReadAndWrite) {
  const double B = 1, N = 1024;
  const Cost cost = softmax_cost(gpt2_xl(), prefill(B, N));
  EXPECT_REL_NEAR(cost.flops, 3 * B * H * N * N, 1e-12);
  EXPECT_REL_NEAR(cost.bytes, 2 * n * B * H * N * N, 1e-12);
}

TEST(AttentionValues, WeightsTimesValues) {
  const double B = 1, N = 32;
  const Cost cost = attention_values_cost(gpt2_xl(), prefill(B, N));
  EXPECT_REL_NEAR(cost.flops, 2 * B * H * N * N * d, 1e-12);
  EXPECT_REL_NEAR(cost.bytes, n * (B * H * N * N + 2 * B * H * N * d), 1e-12);
}

TEST(Attention, IsTheSumOfItsSteps) {
  // Scores, mask, softmax and A·V, each as in the tests above.
  const double B = 2, N = 256, S = B * H * N * N;
  const Cost total = attention_cost(gpt2_xl(), prefill(B, N));
  EXPECT_REL_NEAR(total.flops, S * (2 * d + 1) + S + 3 * S + 2 * S * d, 1e-12);
  EXPECT_REL_NEAR(total.bytes, n * ((2 * B * H * N * d + S) + 2 * S + 2 * S + (S + 2 * B * H * N * d)), 1e-12);
}

TEST(Mlp, TwoBiasedLinearLayersThroughFourD) {
  const double B = 1, N = 32;
  const Cost cost = mlp_cost(gpt2_xl(), prefill(B, N));
  EXPECT_REL_NEAR(cost.flops, 2 * (2 * B * N * D * F) + B * N * F + B * N * D, 1e-12);
  // Up: read x, W1, b1, write h; down: read h back, W2, b2, write y.
  EXPECT_REL_NEAR(cost.bytes, n * ((B * N * D + D * F + F + B * N * F) + (B * N * F + F * D + D + B * N * D)), 1e-12);
}

TEST(Model, LayersPlusLmHead) {
  // One layer of a 32-token prefill is Q, K, V + attention + the output
  // projection + the MLP, as in the tests above: 1.973 GFLOP and 64.0 MB.
  const double layer_flops = 1973222400, layer_bytes = 64028800;
  const Cost layer = layer_cost(gpt2_xl(), prefill(1, 32));
  EXPECT_REL_NEAR(layer.flops, layer_flops, 1e-12);
  EXPECT_REL_NEAR(layer.bytes, layer_bytes, 1e-12);
  // The LM head: a 32×D by D×V product without a bias.
  const double head_flops = 2 * 32 * D * V, head_bytes = n * (32 * D + D * V + 32 * V);
  const Cost head = lm_head_cost(gpt2_xl(), prefill(1, 32));
  EXPECT_REL_NEAR(head.flops, head_flops, 1e-12);
  EXPECT_REL_NEAR(head.bytes, head_bytes, 1e-12);
  const Cost model = model_cost(gpt2_xl(), prefill(1, 32));
  EXPECT_REL_NEAR(model.flops, 48 * layer_flops + head_flops, 1e-12);
  EXPECT_REL_NEAR(model.bytes, 48 * layer_bytes + head_bytes, 1e-12);
}

TEST(Decode, OnlyTheNewTokenIsProjectedAndKvComesFromTheCache) {
  const double B = 8, N = 1024;
  const Cost qkv = qkv_projection_cost(gpt2_xl(), decode(B, N));
  EXPECT_REL_NEAR(qkv.flops, 3 * (2 * B * D * D + B * D), 1e-12);
  const Cost scores = attention_scores_cost(gpt2_xl(), decode(B, N));
  // One query row per head against N cached keys.
  EXPECT_REL_NEAR(scores.flops, B * H * N * (2 * d + 1), 1e-12);
  EXPECT_REL_NEAR(scores.bytes, n * (B * H * d + B * H * N * d + B * H * N), 1e-12);
}

TEST(Passes, RejectBadShapesNamingTheField) {
  const rooflab::testing::ArgumentNames names{"num_layers", "d_model",    "num_heads",   "num_kv_heads",
                                              "d_ff",       "vocab_size", "context_len", "bytes_per_element",
                                              "batch",      "new_tokens", "context"};
  EXPECT_INVALID_ARGUMENT(layer_cost(gpt2_xl(), prefill(0, 32)), "batch");
  EXPECT_INVALID_ARGUMENT(layer_cost(gpt2_xl(), Pass{1, 64, 32}), "new_tokens");
  TransformerConfig odd = gpt2_xl();
  odd.num_kv_heads = 4;  // does not divide 25 heads
  EXPECT_INVALID_ARGUMENT(attention_cost(odd, prefill(1, 32)), "num_kv_heads");
}

}  // namespace
}  // namespace a02_transformer_costs
