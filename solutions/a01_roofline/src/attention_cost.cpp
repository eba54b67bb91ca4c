// a01_roofline, part 3: what attention costs.
#include "a01_roofline/attention_cost.hpp"

#include "rooflab/not_implemented.hpp"
#include "rooflab/validate.hpp"  // keep: rooflab::require_positive

namespace a01_roofline {

// BEGIN SOLUTION
namespace {

constexpr double kSoftmaxFlopsPerScore = 5.0;  // max, subtract, exp, sum, divide

StepCost make_step(double flops, double bytes) { return {flops, bytes, flops / bytes}; }

}  // namespace
// END SOLUTION

double attention_flops(const AttentionShape& shape) {
  // BEGIN SOLUTION
  rooflab::require_positive(shape.batch, "batch");
  rooflab::require_positive(shape.num_heads, "num_heads");
  rooflab::require_positive(shape.seq_len_q, "seq_len_q");
  rooflab::require_positive(shape.seq_len_kv, "seq_len_kv");
  rooflab::require_positive(shape.head_dim, "head_dim");
  const double scores = shape.batch * shape.num_heads * shape.seq_len_q * shape.seq_len_kv;
  // Each score: a d-long dot product (QKᵀ), its softmax, and its d-long share of PV.
  return scores * (2.0 * shape.head_dim + kSoftmaxFlopsPerScore + 2.0 * shape.head_dim);
  // END SOLUTION
}

AttentionBreakdown attention_breakdown(double seq_len, double head_dim, double bytes_per_element) {
  // BEGIN SOLUTION
  rooflab::require_positive(seq_len, "seq_len");
  rooflab::require_positive(head_dim, "head_dim");
  rooflab::require_positive(bytes_per_element, "bytes_per_element");
  const double n = seq_len;
  const double d = head_dim;
  const double e = bytes_per_element;

  AttentionBreakdown cost;
  cost.scores = make_step(2.0 * n * n * d, e * (2.0 * n * d + n * n));
  cost.softmax = make_step(kSoftmaxFlopsPerScore * n * n, e * (2.0 * n * n));
  cost.output = make_step(2.0 * n * n * d, e * (n * n + 2.0 * n * d));
  cost.total = make_step(cost.scores.flops + cost.softmax.flops + cost.output.flops,
                         cost.scores.bytes + cost.softmax.bytes + cost.output.bytes);
  return cost;
  // END SOLUTION
}

}  // namespace a01_roofline
