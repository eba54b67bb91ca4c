// The attention-only transformer (provided) that learns associative recall:
//
//   x⁰ = token_embedding[tokens] + position_embedding          (B, N, D)
//   xˡ⁺¹ = xˡ + Attentionˡ(xˡ)·W_oˡ      for l = 0 … L−1, no MLP, no layer norm
//   logits = x^L[last position]·W_unembed                        (B, vocab)
//
// Attentionˡ projects xˡ to H heads of queries, keys and values
// (xˡ·W_qˡ, xˡ·W_kˡ, xˡ·W_vˡ, each D × D, split into heads of d = D/H) and
// runs your causal_mask, attention_forward and, going back, attention_backward.
// Only the answer (the last position) is scored: the loss is your
// cross_entropy of its logits. No layer norm: with two layers and a residual
// stream this small, training is stable without it, and every gradient then
// runs through code you wrote or can read in src/model.cpp.
#pragma once

#include <cstdint>
#include <vector>

#include "a07_associative_recall/attention.hpp"
#include "a07_associative_recall/recall_task.hpp"

namespace a07_associative_recall {

struct ModelConfig {
  RecallTask task;
  std::int64_t layers = 2, d_model = 64, heads = 2;
  std::int64_t head_dim() const { return d_model / heads; }
};

// Throws std::invalid_argument naming layers, d_model or heads when one is
// not positive or heads does not divide d_model, and as the task's
// require_valid does.
void require_valid(const ModelConfig& config);

// Where each weight matrix lives in Model::weights (row-major, x·W).
struct WeightLayout {
  std::int64_t token_embedding = 0;          // (vocab, D)
  std::int64_t position_embedding = 0;       // (N, D)
  std::vector<std::int64_t> wq, wk, wv, wo;  // per layer, (D, D) each
  std::int64_t unembed = 0;                  // (D, vocab)
  std::int64_t total = 0;                    // number of weights
};
WeightLayout weight_layout(const ModelConfig& config);

struct Model {
  ModelConfig config;
  std::vector<float> weights;  // weight_layout(config).total values, one flat vector so Adam updates them at once
};

// Embeddings ~ N(0, 0.2²), projections and unembedding ~ N(0, 1/D), from seed.
Model init_model(const ModelConfig& config, std::uint64_t seed);

// What the backward pass needs from the forward pass, per layer.
struct LayerActivations {
  std::vector<float> input;    // xˡ, (B·N, D)
  Tensor4 q, k, v;             // (B, H, N, d)
  AttentionForward attention;  // output (B, H, N, d) and probs (B, H, N, N)
};

struct ForwardPass {
  std::int64_t sequences = 0;
  std::vector<std::int64_t> tokens;  // what went in
  std::vector<LayerActivations> layers;
  std::vector<float> last_hidden;  // x^L at the last position, (B, D)
  std::vector<float> logits;       // (B, vocab)
};

// The forward pass over `tokens` (sequences × task length). Throws
// std::invalid_argument naming tokens when its size is not a multiple of the
// task's length or a token is outside the vocabulary.
ForwardPass forward(const Model& model, const std::vector<std::int64_t>& tokens);

// ∂loss/∂weights (laid out as Model::weights) from ∂loss/∂logits (B × vocab).
std::vector<float> backward(const Model& model, const ForwardPass& pass, const std::vector<float>& d_logits);

// The logits at every position, (B·N × vocab): what the causality test reads.
std::vector<float> logits_at_every_position(const Model& model, const std::vector<std::int64_t>& tokens);

// The share of sequences whose highest logit is their answer.
double accuracy(const std::vector<float>& logits, std::int64_t vocab, const std::vector<std::int64_t>& answers);

}  // namespace a07_associative_recall
