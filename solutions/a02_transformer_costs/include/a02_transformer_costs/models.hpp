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

// The checks the contract functions make (provided: call them). Each throws
// std::invalid_argument naming the bad field and no other field:
//   model     num_layers, d_model, num_heads, num_kv_heads, d_ff, vocab_size,
//             context_len, bytes_per_element not positive and finite; then
//             num_kv_heads when it exceeds num_heads or does not divide it
//   pass      batch, new_tokens, context not positive and finite; then
//             new_tokens when it exceeds context
//   hardware  peak_flops_per_s, bandwidth_bytes_per_s not positive and finite
// Nothing else is checked: not the name, the kinds and flags, nor a pass's
// context against the model's context_len.
void require_valid(const TransformerConfig& model);
void require_valid(const Pass& pass);
void require_valid(const Hardware& hardware);

}  // namespace a02_transformer_costs
