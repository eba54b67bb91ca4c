// a02_transformer_costs, part 4: time on a roofline, KV-cache and speculative speed-ups.
#include "a02_transformer_costs/timing.hpp"

#include "a02_transformer_costs/components.hpp"
#include "a02_transformer_costs/models.hpp"
#include "a02_transformer_costs/parameters.hpp"
#include "rooflab/not_implemented.hpp"
#include "rooflab/validate.hpp"  // keep: rooflab::require_positive

namespace a02_transformer_costs {

Timing roofline_time(const Cost& cost, const Hardware& hardware) {
  // YOUR CODE HERE
  rooflab::todo("a02_transformer_costs::roofline_time", cost, hardware);
}

double cached_decode_speedup(const TransformerConfig& model, double batch, double seq_len, const Hardware& hardware) {
  // YOUR CODE HERE
  rooflab::todo("a02_transformer_costs::cached_decode_speedup", model, batch, seq_len, hardware);
}

DecodeTime decode_time_breakdown(const TransformerConfig& model, double kv_len, const Hardware& hardware) {
  // YOUR CODE HERE
  rooflab::todo("a02_transformer_costs::decode_time_breakdown", model, kv_len, hardware);
}

// YOUR CODE HERE

double expected_tokens_per_pass(double acceptance_rate, double draft_tokens) {
  // YOUR CODE HERE
  rooflab::todo("a02_transformer_costs::expected_tokens_per_pass", acceptance_rate, draft_tokens);
}

double speculative_speedup(double acceptance_rate, double draft_tokens, double draft_cost_ratio) {
  // YOUR CODE HERE
  rooflab::todo("a02_transformer_costs::speculative_speedup", acceptance_rate, draft_tokens, draft_cost_ratio);
}

}  // namespace a02_transformer_costs
