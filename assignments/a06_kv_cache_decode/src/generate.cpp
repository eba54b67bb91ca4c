// a06_kv_cache_decode, part 4: greedy generation through the KV cache.
#include "a06_kv_cache_decode/generate.hpp"

#include "rooflab/not_implemented.hpp"

namespace a06_kv_cache_decode {

std::vector<std::vector<std::int64_t>> generate(const Model& model,
                                                const std::vector<std::vector<std::int64_t>>& prompts,
                                                std::int64_t steps, const GenerateOptions& options) {
  // YOUR CODE HERE
  rooflab::todo("a06_kv_cache_decode::generate", model, prompts, steps, options);
}

}  // namespace a06_kv_cache_decode
