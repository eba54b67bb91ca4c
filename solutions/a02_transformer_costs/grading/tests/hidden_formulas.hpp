// docs/03_transformer_costs.md's formulas written out once more, for the hidden
// tests: what each contract function must return, computed by the test itself.
// A test compares the student's value with these, never with the student's
// other answers (a wrong model that agrees with itself must not pass).
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <random>

#include "a02_transformer_costs/a02_transformer_costs.hpp"
#include "hidden_models.hpp"

namespace a02_transformer_costs::expected {

struct Flops {
  double flops = 0, bytes = 0;
};
inline Flops operator+(Flops a, Flops b) { return {a.flops + b.flops, a.bytes + b.bytes}; }

// C = A·B with A m×k: a multiply-add per (i, j, l); A, B read and C written once.
inline Flops matmul(double m, double k, double n, double e) { return {2 * m * k * n, e * (m * k + k * n + m * n)}; }

// A bias adds one FLOP per output and is read once.
inline Flops linear(double rows, double in, double out, bool bias, double e) {
  Flops cost = matmul(rows, in, out, e);
  if (bias) cost = cost + Flops{rows * out, e * out};
  return cost;
}

struct Sizes {
  double B, T, C, H, Hkv, d, e, R;
};
inline Sizes sizes(const TransformerConfig& m, const Pass& p) {
  return {p.batch,
          p.new_tokens,
          p.context,
          m.num_heads,
          m.num_kv_heads,
          m.d_model / m.num_heads,
          m.bytes_per_element,
          p.batch * p.new_tokens};
}

inline Flops qkv(const TransformerConfig& m, const Pass& p) {
  const Sizes s = sizes(m, p);
  return linear(s.R, m.d_model, s.H * s.d, m.bias, s.e) + linear(s.R, m.d_model, s.Hkv * s.d, m.bias, s.e) +
         linear(s.R, m.d_model, s.Hkv * s.d, m.bias, s.e);
}
inline double score_count(const Sizes& s) { return s.B * s.H * s.T * s.C; }
inline Flops scores(const TransformerConfig& m, const Pass& p) {
  const Sizes s = sizes(m, p);
  return {score_count(s) * (2 * s.d + 1), s.e * (s.B * s.H * s.T * s.d + s.B * s.Hkv * s.C * s.d + score_count(s))};
}
inline Flops mask(const TransformerConfig& m, const Pass& p) {
  const Sizes s = sizes(m, p);
  return s.T == 1 ? Flops{} : Flops{score_count(s), 2 * s.e * score_count(s)};
}
inline Flops softmax(const TransformerConfig& m, const Pass& p) {
  const Sizes s = sizes(m, p);
  return {3 * score_count(s), 2 * s.e * score_count(s)};
}
inline Flops values(const TransformerConfig& m, const Pass& p) {
  const Sizes s = sizes(m, p);
  return {2 * score_count(s) * s.d, s.e * (score_count(s) + s.B * s.Hkv * s.C * s.d + s.B * s.H * s.T * s.d)};
}
inline Flops attention(const TransformerConfig& m, const Pass& p) {
  return scores(m, p) + mask(m, p) + softmax(m, p) + values(m, p);
}
inline Flops output_projection(const TransformerConfig& m, const Pass& p) {
  const Sizes s = sizes(m, p);
  return linear(s.R, m.d_model, m.d_model, m.bias, s.e);
}
inline Flops mlp(const TransformerConfig& m, const Pass& p) {
  const Sizes s = sizes(m, p);
  const Flops up = linear(s.R, m.d_model, m.d_ff, m.bias, s.e), down = linear(s.R, m.d_ff, m.d_model, m.bias, s.e);
  if (m.mlp == MlpKind::gelu) return up + down;
  return up + up + Flops{s.R * m.d_ff, 3 * s.e * s.R * m.d_ff} + down;  // gate, up, act(gate) ⊙ up, down
}
inline Flops layer(const TransformerConfig& m, const Pass& p) {
  return qkv(m, p) + attention(m, p) + output_projection(m, p) + mlp(m, p);
}
inline Flops lm_head(const TransformerConfig& m, const Pass& p) {
  return linear(p.batch * p.new_tokens, m.d_model, m.vocab_size, false, m.bytes_per_element);
}
inline Flops model(const TransformerConfig& m, const Pass& p) {
  const Flops one = layer(m, p);
  return Flops{m.num_layers * one.flops, m.num_layers * one.bytes} + lm_head(m, p);
}

// Parameters of one layer's linear layers: what every forward pass reads.
inline double linear_parameters_per_layer(const TransformerConfig& m) {
  const double q = m.num_heads * (m.d_model / m.num_heads), kv = m.num_kv_heads * (m.d_model / m.num_heads);
  const double matrices = m.mlp == MlpKind::gated ? 3 : 2;
  double count = m.d_model * (q + 2 * kv) + q * m.d_model + matrices * m.d_model * m.d_ff;
  if (m.bias) count += q + 2 * kv + m.d_model + (matrices - 1) * m.d_ff + m.d_model;
  return count;
}
inline double weight_bytes(const TransformerConfig& m) {
  return m.bytes_per_element * (m.num_layers * linear_parameters_per_layer(m) + m.vocab_size * m.d_model);
}
inline double parameter_count(const TransformerConfig& m) {
  const double norm = m.norm == NormKind::layer_norm ? 2 * m.d_model : m.d_model;
  return m.num_layers * (linear_parameters_per_layer(m) + 2 * norm) + m.vocab_size * m.d_model +
         (m.positions == PositionKind::learned ? m.context_len * m.d_model : 0) + norm +
         (m.tied_embeddings ? 0 : m.vocab_size * m.d_model);
}
inline double kv_cache_bytes(const TransformerConfig& m, double batch, double seq_len) {
  return 2 * m.num_layers * batch * seq_len * m.num_kv_heads * (m.d_model / m.num_heads) * m.bytes_per_element;
}

// The slower of compute and memory.
inline double time_s(const Flops& cost, const Hardware& hw) {
  return std::max(cost.flops / hw.peak_flops_per_s, cost.bytes / hw.bandwidth_bytes_per_s);
}
inline double cached_decode_speedup(const TransformerConfig& m, double batch, double seq_len, const Hardware& hw) {
  return time_s(model(m, prefill(batch, seq_len)), hw) / time_s(model(m, decode(batch, seq_len)), hw);
}
// 1 + α + … + α^γ.
inline double tokens_per_pass(double alpha, double gamma) {
  return alpha == 1 ? gamma + 1 : (1 - std::pow(alpha, gamma + 1)) / (1 - alpha);
}

// A model drawn at grading time: GPT-2's kind (MHA, biases, GELU MLP) or
// Llama's (GQA, no biases, gated MLP), of any size.
inline TransformerConfig random_model(std::mt19937_64& random) {
  const auto pick = [&](int lo, int hi) { return double(std::uniform_int_distribution<int>(lo, hi)(random)); };
  const double kv_heads = pick(1, 8), heads = kv_heads * pick(1, 4), head_dim = 8 * pick(1, 16);
  TransformerConfig m = gpt2_sized(pick(1, 80), heads * head_dim, heads);
  m.vocab_size = pick(1000, 200000);
  m.context_len = pick(128, 32768);
  m.bytes_per_element = std::array<double, 4>{0.5, 1, 2, 4}[std::size_t(pick(0, 3))];
  if (pick(0, 1) == 1) {
    m.num_kv_heads = kv_heads;
    m.d_ff = 16 * pick(64, 1024);
    make_llama_kind(m);
  }
  return m;
}

// A prefill, a decode step or a verification pass of speculative decoding.
inline Pass random_pass(std::mt19937_64& random) {
  const auto pick = [&](int lo, int hi) { return double(std::uniform_int_distribution<int>(lo, hi)(random)); };
  const double batch = pick(1, 64), context = pick(1, 8192);
  switch (int(pick(0, 2))) {
    case 0:
      return prefill(batch, context);
    case 1:
      return decode(batch, context);
    default:
      return Pass{batch, std::min(context, pick(2, 8)), context};
  }
}

}  // namespace a02_transformer_costs::expected
