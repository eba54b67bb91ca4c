// a02_transformer_costs, part 2: the FLOPs and bytes of each piece of a layer.
#include "a02_transformer_costs/components.hpp"

#include "a02_transformer_costs/models.hpp"
#include "rooflab/not_implemented.hpp"
#include "rooflab/validate.hpp"  // keep: rooflab::require_positive

namespace a02_transformer_costs {

Cost matmul_cost(double m, double k, double n, double bytes_per_element) {
  // YOUR CODE HERE
  rooflab::todo("a02_transformer_costs::matmul_cost", m, k, n, bytes_per_element);
}

Cost linear_cost(double rows, double in_features, double out_features, bool bias, double bytes_per_element) {
  // YOUR CODE HERE
  rooflab::todo("a02_transformer_costs::linear_cost", rows, in_features, out_features, bias, bytes_per_element);
}

// YOUR CODE HERE

Cost qkv_projection_cost(const TransformerConfig& model, const Pass& pass) {
  // YOUR CODE HERE
  rooflab::todo("a02_transformer_costs::qkv_projection_cost", model, pass);
}

Cost attention_scores_cost(const TransformerConfig& model, const Pass& pass) {
  // YOUR CODE HERE
  rooflab::todo("a02_transformer_costs::attention_scores_cost", model, pass);
}

Cost causal_mask_cost(const TransformerConfig& model, const Pass& pass) {
  // YOUR CODE HERE
  rooflab::todo("a02_transformer_costs::causal_mask_cost", model, pass);
}

Cost softmax_cost(const TransformerConfig& model, const Pass& pass) {
  // YOUR CODE HERE
  rooflab::todo("a02_transformer_costs::softmax_cost", model, pass);
}

Cost attention_values_cost(const TransformerConfig& model, const Pass& pass) {
  // YOUR CODE HERE
  rooflab::todo("a02_transformer_costs::attention_values_cost", model, pass);
}

Cost attention_cost(const TransformerConfig& model, const Pass& pass) {
  // YOUR CODE HERE
  rooflab::todo("a02_transformer_costs::attention_cost", model, pass);
}

Cost output_projection_cost(const TransformerConfig& model, const Pass& pass) {
  // YOUR CODE HERE
  rooflab::todo("a02_transformer_costs::output_projection_cost", model, pass);
}

Cost mlp_cost(const TransformerConfig& model, const Pass& pass) {
  // YOUR CODE HERE
  rooflab::todo("a02_transformer_costs::mlp_cost", model, pass);
}

Cost layer_cost(const TransformerConfig& model, const Pass& pass) {
  // YOUR CODE HERE
  rooflab::todo("a02_transformer_costs::layer_cost", model, pass);
}

Cost lm_head_cost(const TransformerConfig& model, const Pass& pass) {
  // YOUR CODE HERE
  rooflab::todo("a02_transformer_costs::lm_head_cost", model, pass);
}

Cost model_cost(const TransformerConfig& model, const Pass& pass) {
  // YOUR CODE HERE
  rooflab::todo("a02_transformer_costs::model_cost", model, pass);
}

}  // namespace a02_transformer_costs
