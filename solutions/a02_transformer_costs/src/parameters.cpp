// a02_transformer_costs, part 3: parameters, weight bytes, KV cache.
#include "a02_transformer_costs/parameters.hpp"

#include "a02_transformer_costs/models.hpp"
#include "rooflab/not_implemented.hpp"
#include "rooflab/validate.hpp"  // keep: rooflab::require_positive

namespace a02_transformer_costs {

// BEGIN SOLUTION
namespace {

// Weights and biases of one layer's linear layers: the ones every forward pass reads.
double linear_parameters_per_layer(const TransformerConfig& m) {
  const double d = m.head_dim();
  const double q_out = m.num_heads * d, kv_out = m.num_kv_heads * d;
  double attention = m.d_model * (q_out + 2.0 * kv_out) + q_out * m.d_model;
  const double mlp_matrices = m.mlp == MlpKind::gated ? 3.0 : 2.0;
  double mlp = mlp_matrices * m.d_model * m.d_ff;
  if (m.bias) {
    attention += q_out + 2.0 * kv_out + m.d_model;
    mlp += (mlp_matrices - 1.0) * m.d_ff + m.d_model;
  }
  return attention + mlp;
}

double norm_parameters(const TransformerConfig& m) {
  return m.norm == NormKind::layer_norm ? 2.0 * m.d_model : m.d_model;
}

}  // namespace
// END SOLUTION

double parameter_count(const TransformerConfig& model) {
  // BEGIN SOLUTION
  require_valid(model);
  const double per_layer = linear_parameters_per_layer(model) + 2.0 * norm_parameters(model);
  double total = model.num_layers * per_layer;
  total += model.vocab_size * model.d_model;                                                 // token embedding
  if (model.positions == PositionKind::learned) total += model.context_len * model.d_model;  // position table
  total += norm_parameters(model);                                                           // final norm
  if (!model.tied_embeddings) total += model.vocab_size * model.d_model;                     // separate LM head
  return total;
  // END SOLUTION
}

double weight_bytes(const TransformerConfig& model) {
  // BEGIN SOLUTION
  require_valid(model);
  const double read = model.num_layers * linear_parameters_per_layer(model) + model.vocab_size * model.d_model;
  return model.bytes_per_element * read;
  // END SOLUTION
}

double kv_cache_bytes(const TransformerConfig& model, double batch, double seq_len) {
  // BEGIN SOLUTION
  require_valid(model);
  rooflab::require_positive(batch, "batch");
  rooflab::require_positive(seq_len, "seq_len");
  // K and V (2) for every layer, request, position and KV head.
  return 2.0 * model.num_layers * batch * seq_len * model.num_kv_heads * model.head_dim() * model.bytes_per_element;
  // END SOLUTION
}

}  // namespace a02_transformer_costs
