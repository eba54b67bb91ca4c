// A prompt's continuation decoded through a06's KV cache: the prompt's tokens
// go through step() one at a time, each appending its keys and values to
// every layer's cache, then each sampled token goes back in. What
// `rooflab generate --weights DIR --prompt TEXT` prints, and what the tests
// hold against transformers' greedy continuation.
#pragma once

#include <cstdint>
#include <vector>

#include "a06_kv_cache_decode/transformer.hpp"
#include "sampler.hpp"

namespace rooflab::decode {

struct Continuation {
  std::vector<std::int64_t> tokens;  // the new tokens, after the prompt
  double prefill_s = 0;              // the prompt's steps but its last
  // The new tokens' steps: the prompt's last token (whose logits give the
  // first new one), then each new token but the last, fed back: one step per
  // new token, as speculative decoding's time counts them (speculative.hpp).
  double decode_s = 0;
};

// Throws std::invalid_argument naming prompt (empty), new_tokens (negative)
// or context (prompt and new tokens longer than the model's context).
Continuation continue_prompt(const a06_kv_cache_decode::Model& model, const std::vector<std::int64_t>& prompt,
                             std::int64_t new_tokens, Sampler& sampler);

}  // namespace rooflab::decode
