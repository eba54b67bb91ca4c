// a01_roofline, part 4: a whole model decoding on a whole GPU.
#include "a01_roofline/inference.hpp"

#include <algorithm>
#include <utility>

#include "a01_roofline/attention_cost.hpp"
#include "a01_roofline/memory.hpp"
#include "rooflab/not_implemented.hpp"
#include "rooflab/validate.hpp"  // keep: rooflab::require_positive

namespace a01_roofline {

// BEGIN SOLUTION
namespace {

void validate_model(const ModelConfig& model) {
  const std::pair<double, const char*> fields[] = {
      {model.num_params, "num_params"},     {model.num_layers, "num_layers"},
      {model.d_model, "d_model"},           {model.num_heads, "num_heads"},
      {model.num_kv_heads, "num_kv_heads"}, {model.bytes_per_param, "bytes_per_param"}};
  for (const auto& [value, name] : fields) rooflab::require_positive(value, name);
}

}  // namespace
// END SOLUTION

DecodeStepCost decode_step_cost(const ModelConfig& model, double batch, double kv_len) {
  // BEGIN SOLUTION
  validate_model(model);
  rooflab::require_positive(batch, "batch");
  rooflab::require_positive(kv_len, "kv_len");

  DecodeStepCost cost;
  // Weights: read once per step whatever the batch (the batch shares them).
  cost.weight_bytes = model_memory_bytes(model.num_params, model.bytes_per_param);
  // KV cache: every request reads its own.
  cost.kv_cache_bytes =
      kv_cache_bytes({batch, kv_len, model.num_layers, model.num_kv_heads, model.head_dim(), model.bytes_per_param});
  cost.bytes = cost.weight_bytes + cost.kv_cache_bytes;
  const double attention = attention_flops({batch, model.num_heads, 1.0, kv_len, model.head_dim()});
  cost.flops = 2.0 * batch * model.num_params + model.num_layers * attention;
  cost.intensity = cost.flops / cost.bytes;
  return cost;
  // END SOLUTION
}

InferenceAnalysis analyze_inference(const ModelConfig& model, const GpuSpec& gpu, double batch, double context_len) {
  // BEGIN SOLUTION
  rooflab::require_positive(gpu.peak_flops_per_s, "peak_flops_per_s");
  rooflab::require_positive(gpu.bandwidth_bytes_per_s, "bandwidth_bytes_per_s");
  rooflab::require_positive(gpu.memory_bytes, "memory_bytes");
  rooflab::require_positive(batch, "batch");
  rooflab::require_positive(context_len, "context_len");
  const DecodeStepCost step = decode_step_cost(model, batch, context_len);

  InferenceAnalysis analysis;
  analysis.weight_bytes = step.weight_bytes;
  analysis.kv_cache_bytes = step.kv_cache_bytes;
  analysis.fits_in_memory = step.weight_bytes + step.kv_cache_bytes <= gpu.memory_bytes;
  analysis.step_flops = step.flops;
  analysis.step_bytes = step.bytes;
  analysis.decode_intensity = step.intensity;
  analysis.ridge_point = ridge_point(gpu.peak_flops_per_s, gpu.bandwidth_bytes_per_s);
  analysis.memory_bound = is_memory_bound(step.intensity, gpu.peak_flops_per_s, gpu.bandwidth_bytes_per_s);
  analysis.step_time_memory_s = step.bytes / gpu.bandwidth_bytes_per_s;
  analysis.step_time_compute_s = step.flops / gpu.peak_flops_per_s;
  // A step cannot finish before both its bytes and its FLOPs are through.
  analysis.max_tokens_per_s = batch / std::max(analysis.step_time_memory_s, analysis.step_time_compute_s);
  analysis.compute_utilization =
      attainable_flops_per_s(step.intensity, gpu.peak_flops_per_s, gpu.bandwidth_bytes_per_s) / gpu.peak_flops_per_s;
  return analysis;
  // END SOLUTION
}

}  // namespace a01_roofline
