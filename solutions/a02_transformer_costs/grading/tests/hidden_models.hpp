// Models the hidden tests share, beside the lab's gpt2_xl().
#pragma once

#include "a02_transformer_costs/a02_transformer_costs.hpp"

namespace a02_transformer_costs {

// A GPT-2 family member: GPT-2 XL's conventions with other sizes (d_ff = 4·d_model).
inline TransformerConfig gpt2_sized(double layers, double d_model, double heads) {
  TransformerConfig m = gpt2_xl();
  m.num_layers = layers;
  m.d_model = d_model;
  m.num_heads = m.num_kv_heads = heads;
  m.d_ff = 4 * d_model;
  return m;
}

// Llama's kind of layer: a gated MLP, no biases, an LM head of its own,
// rotary positions, RMSNorm.
inline void make_llama_kind(TransformerConfig& m) {
  m.mlp = MlpKind::gated;
  m.bias = false;
  m.tied_embeddings = false;
  m.positions = PositionKind::rotary;
  m.norm = NormKind::rms_norm;
}

// Llama 3 8B: GQA (32 query heads, 8 KV heads) and Llama's kind of layer.
inline TransformerConfig llama3_8b() {
  TransformerConfig m = gpt2_sized(32, 4096, 32);
  m.name = "llama3-8b";
  m.num_kv_heads = 8;
  m.d_ff = 14336;
  m.vocab_size = 128256;
  m.context_len = 8192;
  make_llama_kind(m);
  return m;
}

}  // namespace a02_transformer_costs
