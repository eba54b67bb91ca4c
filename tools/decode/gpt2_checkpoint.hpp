// A Hugging Face GPT-2 checkpoint folder read into a06's model: config.json
// (the shape), model.safetensors (the weights, fp32, fp16 or bf16) and the
// tokenizer files (rooflab/bpe_tokenizer.hpp). `rooflab generate --weights DIR`
// decodes it through a06's KV cache.
//
// GPT-2 stores its projections as Conv1D weights, (inputs × outputs), which is
// a06's x·W layout already: c_attn's outputs are q, k and v one after the
// other, each head's columns together, as a06's qkv expects. The LM head is
// tied to the token embedding (wte); a checkpoint whose lm_head.weight differs
// from wte is refused. Weights in fp16 or bf16 stay 16-bit in memory (a06's
// WeightFormat: the matrices and the token embedding; the kernels widen them
// as they read, exactly), so decoding reads two bytes per weight where the
// file holds two, unless the caller asks for fp32.
//
// Bad input names the file and the field or tensor: a missing file, a config
// field missing or of the wrong type, a setting a06's model does not compute
// (another activation, layer norm epsilon or attention scaling), a tensor
// missing, of a dtype it cannot widen, or of a shape that disagrees with
// config.json. The safetensors header is checked before any read
// (rooflab/safetensors.hpp).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

#include "a06_kv_cache_decode/transformer.hpp"
#include "rooflab/safetensors.hpp"

namespace rooflab::decode {

struct Gpt2Checkpoint {
  std::filesystem::path folder;
  a06_kv_cache_decode::Model model;             // model.format: the file's dtype, or f32
  TensorDtype stored_dtype = TensorDtype::f32;  // the weights' dtype in model.safetensors
  std::uint64_t stored_weight_bytes = 0;        // their bytes there
};

// config.json's shape as a06's ModelConfig (n_layer, n_embd, n_head, n_inner
// or 4·n_embd, vocab_size, n_positions), after checking the settings a06's
// model computes: activation_function gelu_new, layer_norm_epsilon 1e-5,
// scale_attn_weights true, scale_attn_by_inverse_layer_idx false.
a06_kv_cache_decode::ModelConfig read_gpt2_config(const std::filesystem::path& config_json);

// The whole folder's model (its tokenizer is read apart: rooflab/bpe_tokenizer.hpp);
// 16-bit weights kept 16-bit unless keep_16_bit is false (then all fp32).
Gpt2Checkpoint load_gpt2_checkpoint(const std::filesystem::path& folder, bool keep_16_bit = true);

// visit(tensor) for every weight tensor of a06's model (a const or mutable
// Model): the embeddings, each layer's twelve, the final layer norm's two.
template <class Model, class Visit>
void for_each_weight(Model& model, Visit visit) {
  visit(model.token_embedding);
  visit(model.position_embedding);
  for (auto& layer : model.layers)
    for (auto* weights :
         {&layer.norm1_scale, &layer.norm1_shift, &layer.qkv, &layer.qkv_bias, &layer.out, &layer.out_bias,
          &layer.norm2_scale, &layer.norm2_shift, &layer.up, &layer.up_bias, &layer.down, &layer.down_bias})
      visit(*weights);
  visit(model.final_scale);
  visit(model.final_shift);
}

}  // namespace rooflab::decode
