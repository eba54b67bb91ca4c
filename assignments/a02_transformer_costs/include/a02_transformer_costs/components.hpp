// a02_transformer_costs — contract, part 2: what each piece of a layer costs.
//
// Notation (docs/03_transformer_costs.md): B = pass.batch, T = pass.new_tokens,
// C = pass.context, D = d_model, H = num_heads, Hkv = num_kv_heads,
// d = D/H (head_dim), F = d_ff, V = vocab_size, n = bytes_per_element.
// Rows of activations: R = B·T. For GPT-2 (Hkv = H, F = 4D) and a prefill
// pass (T = C = N) these are the formulas in B, N, D, H and n.
//
// Counted: matmuls, bias adds, the scale, mask and softmax of attention, the
// gated MLP's elementwise product. Not counted: embedding lookups, layer norms,
// residual adds and activation functions (elementwise O(R·D) work, applied in
// the epilogue of the matmul next to it).
//
// Validation (model.hpp): matmul_cost checks m, k, n and bytes_per_element.
// Every function of a model and a pass checks the model, then the pass, as
// require_valid (models.hpp) does, naming the field: num_layers, d_model,
// num_heads, num_kv_heads (also when it exceeds or does not divide num_heads),
// d_ff, vocab_size, context_len, bytes_per_element; batch, new_tokens (also when
// it exceeds context), context.
#pragma once

#include "a02_transformer_costs/model.hpp"

namespace a02_transformer_costs {

// C = A·B with A (m×k), B (k×n): 2mkn FLOPs; n_bytes·(mk + kn + mn) bytes
// (A and B read once, C written once).
Cost matmul_cost(double m, double k, double n, double bytes_per_element);

// y = x·W (+ b) for `rows` rows of width in_features: the matmul, plus with a
// bias one add per output element (rows·out FLOPs) and the bias read (out elements).
// Checks its input through matmul_cost, by matmul_cost's names: a bad rows,
// in_features or out_features is named m, k or n; bytes_per_element by itself.
Cost linear_cost(double rows, double in_features, double out_features, bool bias, double bytes_per_element);

// Q, K and V projections as three linear layers, each re-reading the input:
// Q is R×(H·d), K and V are R×(Hkv·d).
Cost qkv_projection_cost(const TransformerConfig& model, const Pass& pass);

// S = QKᵀ/√d per (request, head): 2·T·C·d FLOPs for the product plus T·C for
// the fused scale. Reads Q (B·H·T·d) and K (B·Hkv·C·d, once per KV head),
// writes S (B·H·T·C).
Cost attention_scores_cost(const TransformerConfig& model, const Pass& pass);

// Causal mask, needed when a pass computes more than one token (T > 1): one
// FLOP per score checked; reads and writes S (2·B·H·T·C elements). Zero when T = 1.
Cost causal_mask_cost(const TransformerConfig& model, const Pass& pass);

// P = softmax(S) row by row: exp, add to the row's sum, divide — 3 FLOPs per
// score (the sum is formed once per row); reads S, writes P.
Cost softmax_cost(const TransformerConfig& model, const Pass& pass);

// O = PV per (request, head): 2·T·C·d FLOPs. Reads P (B·H·T·C) and V
// (B·Hkv·C·d), writes O (B·H·T·d).
Cost attention_values_cost(const TransformerConfig& model, const Pass& pass);

// Scores + mask + softmax + AV, all heads.
Cost attention_cost(const TransformerConfig& model, const Pass& pass);

// The output projection: a linear layer (H·d → D).
Cost output_projection_cost(const TransformerConfig& model, const Pass& pass);

// gelu: up (D → F) and down (F → D) linear layers; the R×F intermediate is
// written by the first and read back by the second.
// gated: gate and up (D → F each), the elementwise product (R·F FLOPs, reads
// 2·R·F, writes R·F), down (F → D).
Cost mlp_cost(const TransformerConfig& model, const Pass& pass);

// One transformer layer: QKV projection + attention + output projection + MLP.
Cost layer_cost(const TransformerConfig& model, const Pass& pass);

// Logits for every computed token: a linear layer (D → V) without bias.
Cost lm_head_cost(const TransformerConfig& model, const Pass& pass);

// The whole model: num_layers × layer + LM head.
Cost model_cost(const TransformerConfig& model, const Pass& pass);

}  // namespace a02_transformer_costs
