// a02_transformer_costs, part 3 — a student's work in progress.
#include "a02_transformer_costs/parameters.hpp"

#include "a02_transformer_costs/models.hpp"
#include "rooflab/not_implemented.hpp"
#include "rooflab/validate.hpp"

namespace a02_transformer_costs {

namespace {

double linear_parameters(const TransformerConfig& m) {
  const double kv = m.num_kv_heads * m.head_dim();
  const double matrices = m.mlp == MlpKind::gated ? 3 : 2;
  double count = m.d_model * (m.d_model + 2 * kv) + m.d_model * m.d_model + matrices * m.d_model * m.d_ff;
  if (m.bias) count += (m.d_model + 2 * kv + m.d_model) + (matrices - 1) * m.d_ff + m.d_model;
  return count;
}

}  // namespace

double parameter_count(const TransformerConfig& model) {
  require_valid(model);
  const double norms = model.norm == NormKind::layer_norm ? 2 * model.d_model : model.d_model;
  double total = model.num_layers * (linear_parameters(model) + 2 * norms) + model.vocab_size * model.d_model + norms;
  if (!model.tied_embeddings) total += model.vocab_size * model.d_model;
  return total;  // TODO: GPT-2's count is still 1.6M short; what else has weights?
}

double weight_bytes(const TransformerConfig& model) {
  require_valid(model);
  return model.bytes_per_element * (model.num_layers * linear_parameters(model) + model.vocab_size * model.d_model);
}

double kv_cache_bytes(const TransformerConfig& model, double batch, double seq_len) {
  require_valid(model);
  rooflab::require_positive(batch, "batch");
  rooflab::require_positive(seq_len, "seq_len");
  return 2 * model.num_layers * batch * seq_len * model.num_kv_heads * model.head_dim() * model.bytes_per_element;
}

}  // namespace a02_transformer_costs
