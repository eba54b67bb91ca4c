// a02_transformer_costs, part 2: the FLOPs and bytes of each piece of a layer.
#include "a02_transformer_costs/components.hpp"

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

Cost matmul_cost(double m, double k, double n, double bytes_per_element) {
  // YOUR CODE HERE
  (void)m;
  (void)k;
  (void)n;
  (void)bytes_per_element;
  throw std::invalid_argument(kEveryName);
}

Cost linear_cost(double rows, double in_features, double out_features, bool bias, double bytes_per_element) {
  // YOUR CODE HERE
  (void)rows;
  (void)in_features;
  (void)out_features;
  (void)bias;
  (void)bytes_per_element;
  throw std::invalid_argument(kEveryName);
}

// YOUR CODE HERE

Cost qkv_projection_cost(const TransformerConfig& model, const Pass& pass) {
  // YOUR CODE HERE
  (void)model;
  (void)pass;
  throw std::invalid_argument(kEveryName);
}

Cost attention_scores_cost(const TransformerConfig& model, const Pass& pass) {
  // YOUR CODE HERE
  (void)model;
  (void)pass;
  throw std::invalid_argument(kEveryName);
}

Cost causal_mask_cost(const TransformerConfig& model, const Pass& pass) {
  // YOUR CODE HERE
  (void)model;
  (void)pass;
  throw std::invalid_argument(kEveryName);
}

Cost softmax_cost(const TransformerConfig& model, const Pass& pass) {
  // YOUR CODE HERE
  (void)model;
  (void)pass;
  throw std::invalid_argument(kEveryName);
}

Cost attention_values_cost(const TransformerConfig& model, const Pass& pass) {
  // YOUR CODE HERE
  (void)model;
  (void)pass;
  throw std::invalid_argument(kEveryName);
}

Cost attention_cost(const TransformerConfig& model, const Pass& pass) {
  // YOUR CODE HERE
  (void)model;
  (void)pass;
  throw std::invalid_argument(kEveryName);
}

Cost output_projection_cost(const TransformerConfig& model, const Pass& pass) {
  // YOUR CODE HERE
  (void)model;
  (void)pass;
  throw std::invalid_argument(kEveryName);
}

Cost mlp_cost(const TransformerConfig& model, const Pass& pass) {
  // YOUR CODE HERE
  (void)model;
  (void)pass;
  throw std::invalid_argument(kEveryName);
}

Cost layer_cost(const TransformerConfig& model, const Pass& pass) {
  // YOUR CODE HERE
  (void)model;
  (void)pass;
  throw std::invalid_argument(kEveryName);
}

Cost lm_head_cost(const TransformerConfig& model, const Pass& pass) {
  // YOUR CODE HERE
  (void)model;
  (void)pass;
  throw std::invalid_argument(kEveryName);
}

Cost model_cost(const TransformerConfig& model, const Pass& pass) {
  // YOUR CODE HERE
  (void)model;
  (void)pass;
  throw std::invalid_argument(kEveryName);
}

}  // namespace a02_transformer_costs
