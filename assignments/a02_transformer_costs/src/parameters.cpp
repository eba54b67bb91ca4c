// a02_transformer_costs, part 3: parameters, weight bytes, KV cache.
#include "a02_transformer_costs/parameters.hpp"

#include "a02_transformer_costs/models.hpp"
#include "rooflab/not_implemented.hpp"
#include "rooflab/validate.hpp"  // keep: rooflab::require_positive

namespace a02_transformer_costs {

// YOUR CODE HERE

double parameter_count(const TransformerConfig& model) {
  // YOUR CODE HERE
  rooflab::todo("a02_transformer_costs::parameter_count", model);
}

double weight_bytes(const TransformerConfig& model) {
  // YOUR CODE HERE
  rooflab::todo("a02_transformer_costs::weight_bytes", model);
}

double kv_cache_bytes(const TransformerConfig& model, double batch, double seq_len) {
  // YOUR CODE HERE
  rooflab::todo("a02_transformer_costs::kv_cache_bytes", model, batch, seq_len);
}

}  // namespace a02_transformer_costs
