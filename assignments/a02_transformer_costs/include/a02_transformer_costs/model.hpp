// a02_transformer_costs — contract, part 1: the vocabulary of the cost model.
//
// Conventions (docs/03_transformer_costs.md): 2 FLOPs per multiply-add; bytes
// are bytes read plus bytes written, each tensor moved once per operation that
// touches it; every element is `bytes_per_element` bytes (weights, activations
// and the KV cache alike).
//
// Validation, the same in every header of this lab: a bad input throws
// std::invalid_argument whose message names it as a word of its own and no other
// input of the function; a struct's field is named by its field name
// (num_kv_heads, peak_flops_per_s). Unless its function says otherwise, a
// number must be positive and finite: "d_ff must be a positive finite number,
// got 0" (what rooflab::require_positive in rooflab/validate.hpp throws). With
// several bad inputs, any one of them may be named: tests make one input bad at
// a time.
#pragma once

#include <string>

namespace a02_transformer_costs {

// FLOPs and bytes of one piece of work. Costs add.
struct Cost {
  double flops = 0;
  double bytes = 0;  // read + written
};

inline Cost operator+(const Cost& a, const Cost& b) { return {a.flops + b.flops, a.bytes + b.bytes}; }
inline Cost operator*(double times, const Cost& cost) { return {times * cost.flops, times * cost.bytes}; }

enum class MlpKind {
  gelu,   // GPT-2: up (d_model → d_ff), activation, down (d_ff → d_model)
  gated,  // Llama: gate and up (d_model → d_ff each), act(gate) ⊙ up, down
};

enum class PositionKind {
  learned,  // GPT-2: a context_len × d_model table of parameters
  rotary,   // Llama: RoPE, no parameters
};

enum class NormKind {
  layer_norm,  // scale and shift: 2·d_model parameters
  rms_norm,    // scale only: d_model parameters
};

// A decoder-only transformer. GPT-2 XL: gpt2_xl() in models.hpp.
struct TransformerConfig {
  std::string name;
  double num_layers = 0;
  double d_model = 0;
  double num_heads = 0;
  double num_kv_heads = 0;  // == num_heads: multi-head attention; fewer: grouped-query (GQA)
  double d_ff = 0;          // MLP hidden width (GPT-2: 4·d_model)
  double vocab_size = 0;
  double context_len = 0;  // longest sequence the model accepts
  double bytes_per_element = 2;
  MlpKind mlp = MlpKind::gelu;
  bool bias = true;             // every linear layer has a bias (GPT-2) or none (Llama)
  bool tied_embeddings = true;  // the LM head reuses the token embedding matrix
  PositionKind positions = PositionKind::learned;
  NormKind norm = NormKind::layer_norm;

  double head_dim() const { return d_model / num_heads; }
};

// One forward pass over a batch: each of `batch` requests computes `new_tokens`
// tokens that attend to `context` positions (those new tokens included).
//   prefill of N tokens:                 {B, N, N}  (causal mask among the N)
//   decode with a KV cache of N entries: {B, 1, N}  (one query, no mask)
struct Pass {
  double batch = 1;
  double new_tokens = 1;
  double context = 1;
};

inline Pass prefill(double batch, double seq_len) { return {batch, seq_len, seq_len}; }
inline Pass decode(double batch, double kv_len) { return {batch, 1, kv_len}; }

}  // namespace a02_transformer_costs
