// a02_transformer_costs, part 4: time on a roofline, KV-cache and speculative speed-ups.
#include "a02_transformer_costs/timing.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "a02_transformer_costs/components.hpp"
#include "a02_transformer_costs/models.hpp"
#include "a02_transformer_costs/parameters.hpp"
#include "rooflab/not_implemented.hpp"
#include "rooflab/validate.hpp"

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

Timing roofline_time(const Cost& cost, const Hardware& hardware) {
  // YOUR CODE HERE
  (void)cost;
  (void)hardware;
  throw std::invalid_argument(kEveryName);
}

double cached_decode_speedup(const TransformerConfig& model, double batch, double seq_len, const Hardware& hardware) {
  // YOUR CODE HERE
  (void)model;
  (void)batch;
  (void)seq_len;
  (void)hardware;
  throw std::invalid_argument(kEveryName);
}

DecodeTime decode_time_breakdown(const TransformerConfig& model, double kv_len, const Hardware& hardware) {
  // YOUR CODE HERE
  (void)model;
  (void)kv_len;
  (void)hardware;
  throw std::invalid_argument(kEveryName);
}

// YOUR CODE HERE

double expected_tokens_per_pass(double acceptance_rate, double draft_tokens) {
  // YOUR CODE HERE
  (void)acceptance_rate;
  (void)draft_tokens;
  throw std::invalid_argument(kEveryName);
}

double speculative_speedup(double acceptance_rate, double draft_tokens, double draft_cost_ratio) {
  // YOUR CODE HERE
  (void)acceptance_rate;
  (void)draft_tokens;
  (void)draft_cost_ratio;
  throw std::invalid_argument(kEveryName);
}

}  // namespace a02_transformer_costs
