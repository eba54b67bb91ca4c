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
  // BEGIN SOLUTION
  if (prompts.empty()) throw std::invalid_argument("prompts: at least one");
  if (steps < 0) throw std::invalid_argument("steps: must not be negative");
  std::size_t longest = 0;
  for (const auto& prompt : prompts) {
    if (prompt.empty()) throw std::invalid_argument("prompts: each needs at least one token");
    longest = std::max(longest, prompt.size());
  }
  const auto capacity = static_cast<std::int64_t>(longest) + steps;
  if (capacity > model.config.context)
    throw std::invalid_argument("context: " + std::to_string(capacity) + " tokens exceed the model's " +
                                std::to_string(model.config.context));
  const auto sequences = static_cast<std::int64_t>(prompts.size());
  const std::int64_t vocab = model.config.vocab;
  DecodeState state =
      make_decode_state(model.config, sequences, std::max<std::int64_t>(capacity, 1), options.paged, options.page_size);

  // The prompts, a position at a time; each sequence keeps the logits after its last token.
  std::vector<float> last(static_cast<std::size_t>(sequences * vocab));
  for (std::size_t t = 0; t < longest; ++t) {
    std::vector<std::int64_t> tokens(prompts.size(), -1);
    for (std::size_t s = 0; s < prompts.size(); ++s)
      if (t < prompts[s].size()) tokens[s] = prompts[s][t];
    const std::vector<float> logits = step(model, state, tokens);
    for (std::size_t s = 0; s < prompts.size(); ++s)
      if (t + 1 == prompts[s].size())
        std::copy(logits.begin() + static_cast<std::ptrdiff_t>(s) * vocab,
                  logits.begin() + static_cast<std::ptrdiff_t>(s + 1) * vocab,
                  last.begin() + static_cast<std::ptrdiff_t>(s) * vocab);
  }

  // Then each step's argmax back in, for every sequence at once.
  std::vector<std::vector<std::int64_t>> generated(prompts.size());
  for (std::int64_t i = 0; i < steps; ++i) {
    std::vector<std::int64_t> next(prompts.size());
    for (std::size_t s = 0; s < prompts.size(); ++s) {
      const auto row = last.begin() + static_cast<std::ptrdiff_t>(s) * vocab;
      next[s] = std::max_element(row, row + vocab) - row;
      generated[s].push_back(next[s]);
    }
    if (i + 1 < steps) last = step(model, state, next);
  }
  return generated;
  // END SOLUTION
}

}  // namespace a06_kv_cache_decode
