// a02_transformer_costs — contract, part 4: from costs to time, and what a KV
// cache and speculative decoding buy.
//
// The roofline's time model: a pass cannot finish before its FLOPs are through
// the ALUs (T_compute = FLOPs / peak) nor before its bytes are through memory
// (T_memory = bytes / bandwidth); with perfect overlap it takes the larger.
// Validation as in model.hpp; what each function checks is listed with it.
#pragma once

#include <string>

#include "a02_transformer_costs/model.hpp"

namespace a02_transformer_costs {

struct Hardware {
  std::string name;
  double peak_flops_per_s = 0;
  double bandwidth_bytes_per_s = 0;
};

struct Timing {
  double compute_s = 0;       // FLOPs / peak
  double memory_s = 0;        // bytes / bandwidth
  double time_s = 0;          // max(compute_s, memory_s)
  bool memory_bound = false;  // memory_s > compute_s
};

// Checks the hardware as require_valid (models.hpp) does and the cost's flops
// and bytes, each field positive and finite and named by itself: flops, bytes,
// peak_flops_per_s, bandwidth_bytes_per_s.
Timing roofline_time(const Cost& cost, const Hardware& hardware);

// How many times faster one decode step with a KV cache of seq_len entries is
// than recomputing the whole sequence: time of model_cost(prefill(batch,
// seq_len)) over time of model_cost(decode(batch, seq_len)). Checks the model
// and those passes as model_cost does and the hardware as roofline_time does,
// with their names: a bad batch is named batch; a bad seq_len is named by one
// of seq_len, new_tokens or context (the pass fields it fills).
double cached_decode_speedup(const TransformerConfig& model, double batch, double seq_len, const Hardware& hardware);

// Batch-1 cached decode, split by what the time is spent on.
struct DecodeTime {
  double weights_s = 0;       // weight_bytes / bandwidth
  double other_memory_s = 0;  // the step's other bytes (KV cache, activations) / bandwidth
  double compute_s = 0;       // the step's FLOPs / peak
  double step_s = 0;          // max(weights_s + other_memory_s, compute_s)
};

// Checks the model and decode(1, kv_len) as model_cost does and the hardware
// as roofline_time does, with their names: a bad kv_len is thereby named context
// (the pass field it fills), or new_tokens when kv_len < 1 (the pass's one new
// token would exceed its context).
DecodeTime decode_time_breakdown(const TransformerConfig& model, double kv_len, const Hardware& hardware);

// Speculative decoding (Leviathan et al., 2023): a draft model proposes
// `draft_tokens` (γ) tokens, the target checks them in one pass, and each is
// accepted with probability `acceptance_rate` (α, in [0, 1]).
// Expected tokens one target pass yields: (1 − α^(γ+1)) / (1 − α); γ + 1 at α = 1.
// An α outside [0, 1] or not finite is named acceptance_rate; a γ not positive
// and finite, draft_tokens (it need not be whole).
double expected_tokens_per_pass(double acceptance_rate, double draft_tokens);

// Expected speed-up over plain decoding when one draft step costs
// `draft_cost_ratio` (c ≥ 0) of a target step: (1 − α^(γ+1)) / ((1 − α)(γc + 1)).
// Checks α and γ as expected_tokens_per_pass does; a c negative or not finite
// is named draft_cost_ratio (c = 0 is allowed).
double speculative_speedup(double acceptance_rate, double draft_tokens, double draft_cost_ratio);

}  // namespace a02_transformer_costs
