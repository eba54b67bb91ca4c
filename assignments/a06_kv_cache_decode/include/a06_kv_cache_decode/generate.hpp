// Part 4: the decode loop. Greedy generation with the provided transformer
// (transformer.hpp) and your KV cache: feed each prompt through step() once,
// then each step's most likely token back in.
#pragma once

#include <cstdint>
#include <vector>

#include "a06_kv_cache_decode/transformer.hpp"

namespace a06_kv_cache_decode {

struct GenerateOptions {
  bool paged = false;           // the paged cache instead of the contiguous one
  std::int64_t page_size = 16;  // tokens per page of the paged cache
};

// For each prompt, the `steps` tokens greedy decoding produces after it (the
// argmax of each step's logits, the lowest index on a tie). Prompts may differ
// in length; each is fed token by token, and every token costs one step() in
// which the other sequences may sit out. Throws std::invalid_argument whose
// message starts with the culprit's name and names no other of prompts, steps,
// context, page_size:
//   prompts    no prompt at all, or a prompt with no token
//   steps      negative (0 is allowed)
//   context    the longest prompt plus steps exceeds model.config.context
//   page_size  paged and not positive (make_decode_state checks it: pass it on)
// A prompt token outside the vocabulary is left to step(), which names tokens.
std::vector<std::vector<std::int64_t>> generate(const Model& model,
                                                const std::vector<std::vector<std::int64_t>>& prompts,
                                                std::int64_t steps, const GenerateOptions& options);

}  // namespace a06_kv_cache_decode
