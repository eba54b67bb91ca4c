// a02_transformer_costs, part 4: time on a roofline, KV-cache and speculative speed-ups.
#include "a02_transformer_costs/timing.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "a02_transformer_costs/components.hpp"
#include "a02_transformer_costs/models.hpp"
#include "a02_transformer_costs/parameters.hpp"
#include "rooflab/not_implemented.hpp"
#include "rooflab/validate.hpp"  // keep: rooflab::require_positive

namespace a02_transformer_costs {

Timing roofline_time(const Cost& cost, const Hardware& hardware) {
  // BEGIN SOLUTION
  require_valid(hardware);
  rooflab::require_positive(cost.flops, "flops");
  rooflab::require_positive(cost.bytes, "bytes");
  Timing timing;
  timing.compute_s = cost.flops / hardware.peak_flops_per_s;
  timing.memory_s = cost.bytes / hardware.bandwidth_bytes_per_s;
  timing.time_s = std::max(timing.compute_s, timing.memory_s);
  timing.memory_bound = timing.memory_s > timing.compute_s;
  return timing;
  // END SOLUTION
}

double cached_decode_speedup(const TransformerConfig& model, double batch, double seq_len, const Hardware& hardware) {
  // BEGIN SOLUTION
  // Without a cache, the next token costs a forward pass over the whole sequence.
  const Timing recompute = roofline_time(model_cost(model, prefill(batch, seq_len)), hardware);
  const Timing cached = roofline_time(model_cost(model, decode(batch, seq_len)), hardware);
  return recompute.time_s / cached.time_s;
  // END SOLUTION
}

DecodeTime decode_time_breakdown(const TransformerConfig& model, double kv_len, const Hardware& hardware) {
  // BEGIN SOLUTION
  const Cost step = model_cost(model, decode(1, kv_len));
  const Timing timing = roofline_time(step, hardware);
  DecodeTime time;
  time.weights_s = weight_bytes(model) / hardware.bandwidth_bytes_per_s;
  time.other_memory_s = timing.memory_s - time.weights_s;
  time.compute_s = timing.compute_s;
  time.step_s = timing.time_s;
  return time;
  // END SOLUTION
}

// BEGIN SOLUTION
namespace {

void require_probability(double value, const char* name) {
  if (!std::isfinite(value) || value < 0.0 || value > 1.0)
    throw std::invalid_argument(std::string(name) + " must be a probability in [0, 1], got " + std::to_string(value));
}

}  // namespace
// END SOLUTION

double expected_tokens_per_pass(double acceptance_rate, double draft_tokens) {
  // BEGIN SOLUTION
  require_probability(acceptance_rate, "acceptance_rate");
  rooflab::require_positive(draft_tokens, "draft_tokens");
  // Geometric series 1 + α + … + α^γ: the accepted prefix plus the target's own token.
  if (acceptance_rate == 1.0) return draft_tokens + 1.0;
  return (1.0 - std::pow(acceptance_rate, draft_tokens + 1.0)) / (1.0 - acceptance_rate);
  // END SOLUTION
}

double speculative_speedup(double acceptance_rate, double draft_tokens, double draft_cost_ratio) {
  // BEGIN SOLUTION
  rooflab::require_non_negative(draft_cost_ratio, "draft_cost_ratio");
  // One round costs γ draft steps (c each) plus one target pass, in target steps.
  return expected_tokens_per_pass(acceptance_rate, draft_tokens) / (draft_tokens * draft_cost_ratio + 1.0);
  // END SOLUTION
}

}  // namespace a02_transformer_costs
