// a02_transformer_costs — contract, part 3: what a model keeps in memory.
//
// Validation (model.hpp): every function checks the model as require_valid
// (models.hpp) does, naming the field (num_kv_heads also when it exceeds or does
// not divide num_heads); kv_cache_bytes then checks batch and seq_len.
#pragma once

#include "a02_transformer_costs/model.hpp"

namespace a02_transformer_costs {

// Number of parameters, to check a config against its published size:
// per layer the attention projections (Q, K, V, output, with biases if any),
// the MLP (two or three matrices, with biases if any) and two norms; then the
// token embedding, the learned position table if any, the final norm, and an
// LM head of its own unless tied to the embedding. GPT-2 XL: 1,557,611,200.
double parameter_count(const TransformerConfig& model);

// Bytes of weights one forward pass reads: every linear layer's weights and
// biases in every layer, plus the LM head's V×D matrix. (Embedding lookups
// read only the rows they need and are not counted.)
double weight_bytes(const TransformerConfig& model);

// K and V of every layer for `batch` requests of `seq_len` tokens:
// 2 × num_layers × batch × seq_len × num_kv_heads × head_dim × bytes.
double kv_cache_bytes(const TransformerConfig& model, double batch, double seq_len);

}  // namespace a02_transformer_costs
