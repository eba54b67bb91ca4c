// Speculative decoding (Leviathan et al. 2023; Chen et al. 2023) through
// a06's KV caches: a small draft model proposes k tokens one step at a time;
// the target checks them all in one forward pass over k + 1 positions
// (a06's extend(): the token before them and the k proposals), keeps the
// proposals up to the first it rejects, adds one token of its own, and both
// caches roll back past what was not kept (a06's rollback()).
//
// Each proposal goes through a06's check_proposal() (part 5): proposal x,
// drawn from the draft's distribution q, is kept with probability
// min(1, p(x)/q(x)) under the target's p; at the first rejection the added
// token is drawn from max(0, p − q), renormalised; when all k are kept it is
// drawn from the target's next distribution. Greedy is the case of one-hot p
// and q: a proposal is kept when it is the target's argmax, and the token
// added is the target's argmax, so the output is exactly the target's greedy
// output. Each token
// is then distributed as the target alone would draw it. Both p and q are the
// sampler's distributions (temperature, top-k, top-p applied).
#pragma once

#include <cstdint>
#include <vector>

#include "a06_kv_cache_decode/transformer.hpp"
#include "sampler.hpp"

namespace rooflab::decode {

struct SpeculativeRun {
  std::vector<std::int64_t> tokens;  // the new tokens, after the prompt
  std::int64_t target_passes = 0;    // the target's forward passes after the prompt's
  std::int64_t draft_steps = 0;      // the draft's one-token steps after the prompt's
  std::int64_t proposed = 0, accepted = 0;
  // The new tokens' time: from the prompt's last token on, as plain
  // decoding's Continuation::decode_s counts it (the passes over the rest of
  // the prompt not counted).
  double seconds = 0;

  double acceptance_rate() const { return proposed ? static_cast<double>(accepted) / proposed : 0; }
  double tokens_per_pass() const { return target_passes ? static_cast<double>(tokens.size()) / target_passes : 0; }
};

// `new_tokens` tokens after `prompt`, proposals of `k` draft tokens at a time.
// The draft must share the target's vocabulary. Throws std::invalid_argument
// naming prompt (empty), new_tokens (negative), k (not positive), vocab (the
// two models' differ) or context (the prompt, the new tokens and k more pass
// either model's context).
SpeculativeRun speculative_continue(const a06_kv_cache_decode::Model& target, const a06_kv_cache_decode::Model& draft,
                                    const std::vector<std::int64_t>& prompt, std::int64_t new_tokens, std::int64_t k,
                                    const SamplingOptions& options);

}  // namespace rooflab::decode
