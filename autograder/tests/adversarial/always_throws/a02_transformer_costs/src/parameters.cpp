// a02_transformer_costs, part 3: parameters, weight bytes, KV cache.
#include "a02_transformer_costs/parameters.hpp"

#include "a02_transformer_costs/models.hpp"
#include "rooflab/not_implemented.hpp"
#include "rooflab/validate.hpp"

#include <stdexcept>

// Adversarial submission "always_throws": every function throws
// std::invalid_argument naming every argument and field of the contract.
namespace {
constexpr const char* kEveryName =
    "invalid argument (one of: a a02_transformer_costs acceptance_rate attention_cost attention_scores_cost "
    "attention_values_cost b bandwidth_bytes_per_s batch bias bytes bytes_per_element cached_decode_speedup "
    "causal_mask_cost compute_s context context_len cost d_ff d_model decode decode_time_breakdown draft_cost_ratio "
    "draft_tokens expected_tokens_per_pass flops gated gelu gpt2_xl hardware head_dim in_features k kv_cache_bytes "
    "kv_len lab_t4 layer_cost layer_norm learned linear_cost lm_head_cost m matmul_cost memory_bound memory_s mlp "
    "mlp_cost model model_cost n name new_tokens norm num_heads num_kv_heads num_layers other_memory_s out_features "
    "output_projection_cost parameter_count pass peak_flops_per_s positions prefill qkv_projection_cost require_valid "
    "rms_norm roofline_time rotary rows seq_len softmax_cost speculative_speedup step_s tied_embeddings time_s times "
    "vocab_size weight_bytes weights_s)";
}  // namespace

namespace a02_transformer_costs {

// YOUR CODE HERE

double parameter_count(const TransformerConfig& model) {
  // YOUR CODE HERE
  (void)model;
  throw std::invalid_argument(kEveryName);
}

double weight_bytes(const TransformerConfig& model) {
  // YOUR CODE HERE
  (void)model;
  throw std::invalid_argument(kEveryName);
}

double kv_cache_bytes(const TransformerConfig& model, double batch, double seq_len) {
  // YOUR CODE HERE
  (void)model;
  (void)batch;
  (void)seq_len;
  throw std::invalid_argument(kEveryName);
}

}  // namespace a02_transformer_costs
