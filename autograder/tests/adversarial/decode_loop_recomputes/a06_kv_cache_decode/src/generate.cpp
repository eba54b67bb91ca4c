// Adversarial submission: generate() recomputes every sequence from scratch
// with full_logits at each token and never uses the KV cache. The right
// tokens, none of the lab's point: the decode-loop groups must be lost.
// a06_kv_cache_decode, part 4: greedy generation through the KV cache.
#include "a06_kv_cache_decode/generate.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "rooflab/not_implemented.hpp"

namespace a06_kv_cache_decode {

std::vector<std::vector<std::int64_t>> generate(const Model& model,
                                                const std::vector<std::vector<std::int64_t>>& prompts,
                                                std::int64_t steps, const GenerateOptions& options) {
  if (prompts.empty()) throw std::invalid_argument("prompts: at least one");
  if (steps < 0) throw std::invalid_argument("steps: must not be negative");
  std::size_t longest = 0;
  for (const auto& prompt : prompts) {
    if (prompt.empty()) throw std::invalid_argument("prompts: each needs at least one token");
    longest = std::max(longest, prompt.size());
  }
  if (static_cast<std::int64_t>(longest) + steps > model.config.context)
    throw std::invalid_argument("context: too many tokens for the model");
  if (options.paged && options.page_size <= 0) throw std::invalid_argument("page_size: must be positive");
  // (planted: every token recomputes its whole sequence from scratch, no KV cache)
  std::vector<std::vector<std::int64_t>> generated(prompts.size());
  for (std::size_t s = 0; s < prompts.size(); ++s) {
    std::vector<std::int64_t> sequence = prompts[s];
    for (std::int64_t i = 0; i < steps; ++i) {
      const std::vector<float> logits = full_logits(model, sequence);
      const auto next = std::max_element(logits.begin(), logits.end()) - logits.begin();
      generated[s].push_back(next);
      sequence.push_back(next);
    }
  }
  return generated;
}

}  // namespace a06_kv_cache_decode
