// a02_transformer_costs, provided: GPT-2 XL, the lab's T4, and input checks.
#include "a02_transformer_costs/models.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "rooflab/validate.hpp"

namespace a02_transformer_costs {

TransformerConfig gpt2_xl() {
  TransformerConfig model;
  model.name = "gpt2-xl";
  model.num_layers = 48;
  model.d_model = 1600;
  model.num_heads = 25;
  model.num_kv_heads = 25;
  model.d_ff = 6400;
  model.vocab_size = 50257;
  model.context_len = 1024;
  model.bytes_per_element = 2;  // fp16
  return model;                 // the defaults are GPT-2's: gelu MLP, biases, tied, learned, LayerNorm
}

Hardware lab_t4() { return {"T4 (FP16, 300 GB/s)", 65e12, 300e9}; }

void require_valid(const TransformerConfig& model) {
  rooflab::require_positive(model.num_layers, "num_layers");
  rooflab::require_positive(model.d_model, "d_model");
  rooflab::require_positive(model.num_heads, "num_heads");
  rooflab::require_positive(model.num_kv_heads, "num_kv_heads");
  rooflab::require_positive(model.d_ff, "d_ff");
  rooflab::require_positive(model.vocab_size, "vocab_size");
  rooflab::require_positive(model.context_len, "context_len");
  rooflab::require_positive(model.bytes_per_element, "bytes_per_element");
  // Each KV head serves a whole group of query heads.
  if (model.num_kv_heads > model.num_heads || std::fmod(model.num_heads, model.num_kv_heads) != 0.0)
    throw std::invalid_argument("num_kv_heads (" + std::to_string(model.num_kv_heads) +
                                ") must divide the number of query heads (" + std::to_string(model.num_heads) + ")");
}

void require_valid(const Pass& pass) {
  rooflab::require_positive(pass.batch, "batch");
  rooflab::require_positive(pass.new_tokens, "new_tokens");
  rooflab::require_positive(pass.context, "context");
  if (pass.new_tokens > pass.context)
    throw std::invalid_argument("new_tokens (" + std::to_string(pass.new_tokens) +
                                ") cannot exceed the positions attended to (" + std::to_string(pass.context) +
                                "), which include the new tokens");
}

void require_valid(const Hardware& hardware) {
  rooflab::require_positive(hardware.peak_flops_per_s, "peak_flops_per_s");
  rooflab::require_positive(hardware.bandwidth_bytes_per_s, "bandwidth_bytes_per_s");
}

}  // namespace a02_transformer_costs
