// a06's linear layers and its LM head read their matrices in tile order
// (weight_layout.hpp; the head's is the token embedding, transposed) through
// three kernels: a batch of one streams whole blocks, several side
// by side; batches of 2–8 apply each block to one register tile of rows;
// larger batches to several, the 16-bit formats from a widened panel. Here
// each sequence's first step is held to a forward pass written out in this
// file, row-major, in double, on a model whose widths have 8 and more whole
// tiles (groups of streamed blocks), narrower tiles and a remainder, and
// whose depths leave a partial chunk of rows: a layout or kernel mistake
// that full_logits (which uses the same kernels) would repeat shows here.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <tuple>
#include <vector>

#include "a06_kv_cache_decode/transformer.hpp"
#include "a06_kv_cache_decode/weight_layout.hpp"
#include "omp_threads_testing.hpp"
#include "rooflab/testing.hpp"

namespace a06_kv_cache_decode {
namespace {

constexpr rooflab::testing::Tolerance kLogits{1e-4, 1e-3};

// d_model 400: qkv 400 × 800, out 400 × 400, up 400 × 520, down 520 × 400
// (with 16 lanes: 16, 8 and 10 whole tiles of 48 and the rest in tiles of
// 32, 16 and 8 columns; rows in chunks of 128 and a last one of 16 or 8);
// the LM head 400 × 91 (a tile of 48, one of 32 and 11 columns left over).
ModelConfig wide_model() {
  ModelConfig config;
  config.layers = 2;
  config.d_model = 400;
  config.heads = 4;
  config.kv_heads = 2;
  config.d_ff = 520;
  config.vocab = 91;
  config.context = 4;
  return config;
}

using Vector = std::vector<double>;

Vector layer_norm(const Vector& x, const std::vector<float>& scale, const std::vector<float>& shift) {
  double mean = 0, variance = 0;
  for (const double v : x) mean += v;
  mean /= static_cast<double>(x.size());
  for (const double v : x) variance += (v - mean) * (v - mean);
  const double inverse = 1.0 / std::sqrt(variance / static_cast<double>(x.size()) + 1e-5);
  Vector y(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) y[i] = (x[i] - mean) * inverse * scale[i] + shift[i];
  return y;
}

// x · W + b, W (in × out) read back to row-major from the model's tile order.
Vector linear(const Vector& x, const std::vector<float>& tiled, const std::vector<float>& b, std::int64_t out) {
  const auto in = static_cast<std::int64_t>(x.size());
  const std::vector<float> w = to_row_major(tiled, in, out);
  Vector y(b.begin(), b.end());
  for (std::int64_t p = 0; p < in; ++p)
    for (std::int64_t j = 0; j < out; ++j) y[j] += x[p] * w[p * out + j];
  return y;
}

// The logits after `token` at position 0: with one key, each head's
// attention returns its kv head's value as it is.
std::vector<float> first_step_logits(const Model& model, std::int64_t token) {
  const ModelConfig& c = model.config;
  const std::int64_t d = c.d_model, hd = c.head_dim(), kv = c.kv_heads * hd, width = d + 2 * kv;
  Vector x(static_cast<std::size_t>(d));
  for (std::int64_t i = 0; i < d; ++i)
    x[i] = double{model.token_embedding[tiled_index(d, c.vocab, i, token)]} + model.position_embedding[i];
  for (const LayerWeights& layer : model.layers) {
    const Vector qkv = linear(layer_norm(x, layer.norm1_scale, layer.norm1_shift), layer.qkv, layer.qkv_bias, width);
    Vector attended(static_cast<std::size_t>(d));
    for (std::int64_t h = 0; h < c.heads; ++h)
      for (std::int64_t i = 0; i < hd; ++i) attended[h * hd + i] = qkv[d + kv + h / (c.heads / c.kv_heads) * hd + i];
    const Vector projected = linear(attended, layer.out, layer.out_bias, d);
    for (std::int64_t i = 0; i < d; ++i) x[i] += projected[i];
    Vector hidden = linear(layer_norm(x, layer.norm2_scale, layer.norm2_shift), layer.up, layer.up_bias, c.d_ff);
    for (double& v : hidden) v = 0.5 * v * (1 + std::tanh(std::sqrt(2 / M_PI) * (v + 0.044715 * v * v * v)));
    const Vector down = linear(hidden, layer.down, layer.down_bias, d);
    for (std::int64_t i = 0; i < d; ++i) x[i] += down[i];
  }
  const Vector h = layer_norm(x, model.final_scale, model.final_shift);
  std::vector<float> logits(static_cast<std::size_t>(c.vocab));
  for (std::int64_t v = 0; v < c.vocab; ++v) {
    double dot = 0;
    for (std::int64_t i = 0; i < d; ++i) dot += h[i] * model.token_embedding[tiled_index(d, c.vocab, i, v)];
    logits[v] = static_cast<float>(dot);
  }
  return logits;
}

// (batch, threads)
class TiledLayers : public ::testing::TestWithParam<std::tuple<std::int64_t, int>> {};

TEST_P(TiledLayers, FirstStepMatchesARowMajorForwardPass) {
  const auto [batch, threads] = GetParam();
  const rooflab::testing::ScopedOmpThreads thread_count(threads);
  const Model model = random_model(wide_model(), 21);
  DecodeState state = make_decode_state(model.config, batch, 2, false);
  std::vector<std::int64_t> tokens(static_cast<std::size_t>(batch));
  for (std::int64_t s = 0; s < batch; ++s) tokens[s] = (7 * s + 3) % model.config.vocab;
  const std::vector<float> logits = step(model, state, tokens);
  const auto vocab = static_cast<std::size_t>(model.config.vocab);
  for (std::int64_t s = 0; s < batch; ++s) {
    const std::vector<float> row(logits.begin() + s * vocab, logits.begin() + (s + 1) * vocab);
    EXPECT_ALL_CLOSE_WITHIN(row, first_step_logits(model, tokens[s]), kLogits)
        << "batch " << batch << ", " << threads << " threads, sequence " << s;
  }
  // Held in fp16, the same kernels read the rounded weights: exactly the fp32 model on them.
  const Model held = with_weight_format(model, WeightFormat::f16);
  const Model widened = with_weight_format(held, WeightFormat::f32);
  DecodeState held_state = make_decode_state(model.config, batch, 2, false);
  DecodeState widened_state = make_decode_state(model.config, batch, 2, false);
  EXPECT_EQ(step(held, held_state, tokens), step(widened, widened_state, tokens)) << "batch " << batch;
}

INSTANTIATE_TEST_SUITE_P(Transformer, TiledLayers,
                         ::testing::Combine(::testing::Values(1, 3, 8, 9, 32), ::testing::Values(1, 2, 3)));

}  // namespace
}  // namespace a06_kv_cache_decode
