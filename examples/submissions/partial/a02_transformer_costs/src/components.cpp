// a02_transformer_costs, part 2 — a student's work in progress.
#include "a02_transformer_costs/components.hpp"

#include "a02_transformer_costs/models.hpp"
#include "rooflab/not_implemented.hpp"
#include "rooflab/validate.hpp"

namespace a02_transformer_costs {

Cost matmul_cost(double m, double k, double n, double bytes_per_element) {
  rooflab::require_positive(m, "m");
  rooflab::require_positive(k, "k");
  rooflab::require_positive(n, "n");
  rooflab::require_positive(bytes_per_element, "bytes_per_element");
  return {2.0 * m * k * n, bytes_per_element * (m * k + k * n + m * n)};
}

Cost linear_cost(double rows, double in_features, double out_features, bool bias, double bytes_per_element) {
  Cost cost = matmul_cost(rows, in_features, out_features, bytes_per_element);
  if (bias) {
    cost.flops += rows * out_features;
    cost.bytes += bytes_per_element * out_features;
  }
  return cost;
}

namespace {

double scores(const TransformerConfig& model, const Pass& pass) {
  require_valid(model);
  require_valid(pass);
  return pass.batch * model.num_heads * pass.new_tokens * pass.context;
}

}  // namespace

Cost qkv_projection_cost(const TransformerConfig& model, const Pass& pass) {
  require_valid(model);
  require_valid(pass);
  const double rows = pass.batch * pass.new_tokens, d = model.head_dim();
  const Cost q = linear_cost(rows, model.d_model, model.num_heads * d, model.bias, model.bytes_per_element);
  const Cost kv = linear_cost(rows, model.d_model, model.num_kv_heads * d, model.bias, model.bytes_per_element);
  return q + kv + kv;
}

Cost attention_scores_cost(const TransformerConfig& model, const Pass& pass) {
  const double s = scores(model, pass), d = model.head_dim(), n = model.bytes_per_element;
  return {s * (2 * d + 1), n * (pass.batch * model.num_heads * pass.new_tokens * d +
                                pass.batch * model.num_kv_heads * pass.context * d + s)};
}

Cost causal_mask_cost(const TransformerConfig& model, const Pass& pass) {
  const double s = scores(model, pass);
  if (pass.new_tokens == 1) return {};
  return {s, 2 * model.bytes_per_element * s};
}

Cost softmax_cost(const TransformerConfig& model, const Pass& pass) {
  // Same as in a01: max, subtract, exp, sum, divide.
  const double s = scores(model, pass);
  return {5 * s, 2 * model.bytes_per_element * s};
}

Cost attention_values_cost(const TransformerConfig& model, const Pass& pass) {
  const double s = scores(model, pass), d = model.head_dim(), n = model.bytes_per_element;
  return {2 * s * d, n * (s + pass.batch * model.num_kv_heads * pass.context * d +
                          pass.batch * model.num_heads * pass.new_tokens * d)};
}

Cost attention_cost(const TransformerConfig& model, const Pass& pass) {
  return attention_scores_cost(model, pass) + causal_mask_cost(model, pass) + softmax_cost(model, pass) +
         attention_values_cost(model, pass);
}

Cost output_projection_cost(const TransformerConfig& model, const Pass& pass) {
  require_valid(model);
  require_valid(pass);
  return linear_cost(pass.batch * pass.new_tokens, model.d_model, model.d_model, model.bias, model.bytes_per_element);
}

Cost mlp_cost(const TransformerConfig& model, const Pass& pass) {
  require_valid(model);
  require_valid(pass);
  const double rows = pass.batch * pass.new_tokens, n = model.bytes_per_element;
  const Cost up = linear_cost(rows, model.d_model, model.d_ff, model.bias, n);
  const Cost down = linear_cost(rows, model.d_ff, model.d_model, model.bias, n);
  if (model.mlp == MlpKind::gelu) return up + down;
  return up + up + Cost{rows * model.d_ff, 3 * n * rows * model.d_ff} + down;
}

Cost layer_cost(const TransformerConfig& model, const Pass& pass) {
  return qkv_projection_cost(model, pass) + attention_cost(model, pass) + output_projection_cost(model, pass) +
         mlp_cost(model, pass);
}

Cost lm_head_cost(const TransformerConfig& model, const Pass& pass) {
  require_valid(model);
  require_valid(pass);
  return linear_cost(pass.batch * pass.new_tokens, model.d_model, model.vocab_size, false, model.bytes_per_element);
}

Cost model_cost(const TransformerConfig& model, const Pass& pass) {
  return model.num_layers * layer_cost(model, pass) + lm_head_cost(model, pass);
}

}  // namespace a02_transformer_costs
