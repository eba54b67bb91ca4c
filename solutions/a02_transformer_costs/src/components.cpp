// a02_transformer_costs, part 2: the FLOPs and bytes of each piece of a layer.
#include "a02_transformer_costs/components.hpp"

#include "a02_transformer_costs/models.hpp"
#include "rooflab/not_implemented.hpp"
#include "rooflab/validate.hpp"  // keep: rooflab::require_positive

namespace a02_transformer_costs {

Cost matmul_cost(double m, double k, double n, double bytes_per_element) {
  // BEGIN SOLUTION
  rooflab::require_positive(m, "m");
  rooflab::require_positive(k, "k");
  rooflab::require_positive(n, "n");
  rooflab::require_positive(bytes_per_element, "bytes_per_element");
  // One multiply-add (2 FLOPs) per (i, j, l); A, B read once, C written once.
  return {2.0 * m * k * n, bytes_per_element * (m * k + k * n + m * n)};
  // END SOLUTION
}

Cost linear_cost(double rows, double in_features, double out_features, bool bias, double bytes_per_element) {
  // BEGIN SOLUTION
  Cost cost = matmul_cost(rows, in_features, out_features, bytes_per_element);
  if (bias) {
    // Added in the matmul's epilogue: one add per output, the bias vector read once.
    cost.flops += rows * out_features;
    cost.bytes += bytes_per_element * out_features;
  }
  return cost;
  // END SOLUTION
}

// BEGIN SOLUTION
namespace {

// The sizes every attention formula uses, after checking the inputs.
struct Dims {
  double B, T, C, H, Hkv, d, n;
};

Dims dims(const TransformerConfig& model, const Pass& pass) {
  require_valid(model);
  require_valid(pass);
  return {pass.batch,         pass.new_tokens,  pass.context,           model.num_heads,
          model.num_kv_heads, model.head_dim(), model.bytes_per_element};
}

// Rows of activations the pass pushes through each linear layer.
double rows(const Pass& pass) { return pass.batch * pass.new_tokens; }

}  // namespace
// END SOLUTION

Cost qkv_projection_cost(const TransformerConfig& model, const Pass& pass) {
  // BEGIN SOLUTION
  const Dims s = dims(model, pass);
  const double R = rows(pass);
  // Three separate linear layers: each reads the R×D input again.
  const Cost q = linear_cost(R, model.d_model, s.H * s.d, model.bias, s.n);
  const Cost kv = linear_cost(R, model.d_model, s.Hkv * s.d, model.bias, s.n);
  return q + kv + kv;
  // END SOLUTION
}

Cost attention_scores_cost(const TransformerConfig& model, const Pass& pass) {
  // BEGIN SOLUTION
  const Dims s = dims(model, pass);
  const double scores = s.B * s.H * s.T * s.C;
  // 2d FLOPs per score for the dot product, 1 for the fused 1/√d scale.
  const double flops = scores * (2.0 * s.d + 1.0);
  const double bytes = s.n * (s.B * s.H * s.T * s.d + s.B * s.Hkv * s.C * s.d + scores);
  return {flops, bytes};
  // END SOLUTION
}

Cost causal_mask_cost(const TransformerConfig& model, const Pass& pass) {
  // BEGIN SOLUTION
  const Dims s = dims(model, pass);
  if (s.T == 1) return {};  // one new token may see every position
  const double scores = s.B * s.H * s.T * s.C;
  return {scores, 2.0 * s.n * scores};
  // END SOLUTION
}

Cost softmax_cost(const TransformerConfig& model, const Pass& pass) {
  // BEGIN SOLUTION
  const Dims s = dims(model, pass);
  const double scores = s.B * s.H * s.T * s.C;
  return {3.0 * scores, 2.0 * s.n * scores};
  // END SOLUTION
}

Cost attention_values_cost(const TransformerConfig& model, const Pass& pass) {
  // BEGIN SOLUTION
  const Dims s = dims(model, pass);
  const double scores = s.B * s.H * s.T * s.C;
  const double flops = 2.0 * scores * s.d;
  const double bytes = s.n * (scores + s.B * s.Hkv * s.C * s.d + s.B * s.H * s.T * s.d);
  return {flops, bytes};
  // END SOLUTION
}

Cost attention_cost(const TransformerConfig& model, const Pass& pass) {
  // BEGIN SOLUTION
  return attention_scores_cost(model, pass) + causal_mask_cost(model, pass) + softmax_cost(model, pass) +
         attention_values_cost(model, pass);
  // END SOLUTION
}

Cost output_projection_cost(const TransformerConfig& model, const Pass& pass) {
  // BEGIN SOLUTION
  const Dims s = dims(model, pass);
  return linear_cost(rows(pass), s.H * s.d, model.d_model, model.bias, s.n);
  // END SOLUTION
}

Cost mlp_cost(const TransformerConfig& model, const Pass& pass) {
  // BEGIN SOLUTION
  const Dims s = dims(model, pass);
  const double R = rows(pass);
  const double D = model.d_model, F = model.d_ff;
  const Cost up = linear_cost(R, D, F, model.bias, s.n);
  const Cost down = linear_cost(R, F, D, model.bias, s.n);
  if (model.mlp == MlpKind::gelu) return up + down;
  // gated: a second D → F projection and act(gate) ⊙ up as its own pass over memory.
  const Cost product{R * F, s.n * 3.0 * R * F};
  return up + up + product + down;
  // END SOLUTION
}

Cost layer_cost(const TransformerConfig& model, const Pass& pass) {
  // BEGIN SOLUTION
  return qkv_projection_cost(model, pass) + attention_cost(model, pass) + output_projection_cost(model, pass) +
         mlp_cost(model, pass);
  // END SOLUTION
}

Cost lm_head_cost(const TransformerConfig& model, const Pass& pass) {
  // BEGIN SOLUTION
  const Dims s = dims(model, pass);
  return linear_cost(rows(pass), model.d_model, model.vocab_size, false, s.n);
  // END SOLUTION
}

Cost model_cost(const TransformerConfig& model, const Pass& pass) {
  // BEGIN SOLUTION
  return model.num_layers * layer_cost(model, pass) + lm_head_cost(model, pass);
  // END SOLUTION
}

}  // namespace a02_transformer_costs
