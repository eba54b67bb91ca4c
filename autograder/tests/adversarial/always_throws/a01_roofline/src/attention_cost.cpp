// a01_roofline, part 3: what attention costs.
#include "a01_roofline/attention_cost.hpp"

#include "rooflab/not_implemented.hpp"
#include "rooflab/validate.hpp"

#include <stdexcept>

// Adversarial submission "always_throws": every function throws
// std::invalid_argument naming every argument and field of the contract.
namespace {
constexpr const char* kEveryName =
    "invalid argument (one of: a01_roofline analyze_inference arithmetic_intensity attainable_flops_per_s "
    "attention_breakdown attention_flops bandwidth_bytes_per_s batch bf16 bytes bytes_per_element bytes_per_param "
    "bytes_per_token compute_utilization context_len d_model decode_intensity decode_step_cost dtype find_gpu "
    "fits_in_memory flops fp16 fp32 fp8 gpu gpu_catalog head_dim id int4 int8 intensity is_memory_bound k "
    "kv_cache_bytes kv_len m matmul_arithmetic_intensity max_decode_tokens_per_s max_tokens_per_s memory_bound "
    "memory_bytes model model_memory_bytes n name num_heads num_kv_heads num_layers num_params output parse_dtype "
    "peak_flops_per_s precision ridge_point scores seq_len seq_len_kv seq_len_q shape softmax step_bytes step_flops "
    "step_time_compute_s step_time_memory_s string_view total weight_bytes)";
}  // namespace

namespace a01_roofline {

// YOUR CODE HERE

double attention_flops(const AttentionShape& shape) {
  // YOUR CODE HERE
  (void)shape;
  throw std::invalid_argument(kEveryName);
}

AttentionBreakdown attention_breakdown(double seq_len, double head_dim, double bytes_per_element) {
  // YOUR CODE HERE
  (void)seq_len;
  (void)head_dim;
  (void)bytes_per_element;
  throw std::invalid_argument(kEveryName);
}

}  // namespace a01_roofline
