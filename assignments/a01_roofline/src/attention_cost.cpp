// a01_roofline, part 3: what attention costs.
#include "a01_roofline/attention_cost.hpp"

#include "rooflab/not_implemented.hpp"
#include "rooflab/validate.hpp"  // keep: rooflab::require_positive

namespace a01_roofline {

// YOUR CODE HERE

double attention_flops(const AttentionShape& shape) {
  // YOUR CODE HERE
  rooflab::todo("a01_roofline::attention_flops", shape);
}

AttentionBreakdown attention_breakdown(double seq_len, double head_dim, double bytes_per_element) {
  // YOUR CODE HERE
  rooflab::todo("a01_roofline::attention_breakdown", seq_len, head_dim, bytes_per_element);
}

}  // namespace a01_roofline
