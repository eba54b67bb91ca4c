// a01_roofline — contract, part 4: a whole model decoding on a whole GPU.
//
// Model of one decode step (docs/01_memory_bound_inference.md): every weight is
// read once per step and shared by the batch; every request reads its own KV
// cache; each new token costs 2 FLOPs per parameter plus attention over the
// cache. Activations (batch × d_model per layer) are neglected.
//
// Validation as in memory.hpp: each input a function lists as checked must be a
// positive finite number, else std::invalid_argument whose message names that
// input (a field by its field name: num_kv_heads, memory_bytes) and no other
// input of the function. Nothing else is checked: not the name strings, nor how
// d_model, num_heads and num_kv_heads relate.
#pragma once

#include <string>

#include "a01_roofline/gpu_catalog.hpp"
#include "a01_roofline/roofline.hpp"

namespace a01_roofline {

struct ModelConfig {
  std::string name;
  double num_params = 0;
  double num_layers = 0;
  double d_model = 0;
  double num_heads = 0;
  double num_kv_heads = 0;  // == num_heads for MHA, fewer for GQA
  double bytes_per_param = 2;

  double head_dim() const { return d_model / num_heads; }
};

// One decode step of `batch` requests, each attending to `kv_len` cached tokens:
//   flops = 2·batch·num_params + num_layers × attention_flops(batch, heads, 1, kv_len, head_dim)
//   bytes = weights (num_params × bytes_per_param) + kv_cache_bytes(batch, kv_len, ...)
// Checks every numeric ModelConfig field (num_params, num_layers, d_model,
// num_heads, num_kv_heads, bytes_per_param), batch and kv_len.
struct DecodeStepCost {
  double flops = 0;
  double weight_bytes = 0;
  double kv_cache_bytes = 0;
  double bytes = 0;  // weight_bytes + kv_cache_bytes
  double intensity = 0;
};

DecodeStepCost decode_step_cost(const ModelConfig& model, double batch, double kv_len);

// Everything a decode deployment of `model` on `gpu` at (batch, context_len)
// is limited by. Each field is defined in docs/01_memory_bound_inference.md.
// Checks the ModelConfig fields as decode_step_cost does, the GpuSpec fields
// peak_flops_per_s, bandwidth_bytes_per_s and memory_bytes, batch, and
// context_len, by that name: a message naming kv_len instead is wrong.
struct InferenceAnalysis {
  double weight_bytes = 0;         // num_params × bytes_per_param
  double kv_cache_bytes = 0;       // whole batch at context_len
  bool fits_in_memory = false;     // weights + KV cache <= GPU memory
  double step_flops = 0;           // one decode step (batch tokens)
  double step_bytes = 0;           // bytes that step reads
  double decode_intensity = 0;     // step_flops / step_bytes
  double ridge_point = 0;          // GPU's peak / bandwidth
  bool memory_bound = false;       // decode_intensity < ridge_point
  double step_time_memory_s = 0;   // step_bytes / bandwidth
  double step_time_compute_s = 0;  // step_flops / peak
  double max_tokens_per_s = 0;     // batch / max(step_time_memory_s, step_time_compute_s)
  double compute_utilization = 0;  // attainable FLOP/s at decode_intensity / peak, in (0, 1]
};

InferenceAnalysis analyze_inference(const ModelConfig& model, const GpuSpec& gpu, double batch, double context_len);

}  // namespace a01_roofline
