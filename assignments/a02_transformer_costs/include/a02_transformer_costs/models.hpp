// a02_transformer_costs — provided: the model and GPU the lab works with, and
// the checks every contract function applies to its inputs.
#pragma once

#include "a02_transformer_costs/model.hpp"
#include "a02_transformer_costs/timing.hpp"

namespace a02_transformer_costs {

// GPT-2 XL: 48 layers, d_model 1600, 25 heads, MLP 6400, vocab 50257,
// context 1024, fp16, biases, tied embeddings, learned positions, LayerNorm.
TransformerConfig gpt2_xl();

// The lab's T4: 65 TFLOP/s dense FP16, 300 GB/s (docs/03_transformer_costs.md
// says why 300 and not the datasheet's 320).
Hardware lab_t4();

// Throw std::invalid_argument naming the field: every number positive and
// finite, num_kv_heads dividing num_heads, a pass's new_tokens <= context.
void require_valid(const TransformerConfig& model);
void require_valid(const Pass& pass);
void require_valid(const Hardware& hardware);

}  // namespace a02_transformer_costs
