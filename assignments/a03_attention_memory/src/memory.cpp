// a03_attention_memory, part 2: attention's memory in theory and measured.
#include "a03_attention_memory/memory.hpp"

#include "a03_attention_memory/standard_attention.hpp"
#include "rooflab/memory_tracker.hpp"  // keep: rooflab::memory::measure_peak
#include "rooflab/not_implemented.hpp"
#include "rooflab/validate.hpp"  // keep: rooflab::require_positive

namespace a03_attention_memory {

MemoryEstimate estimate_memory(Method method, const AttentionShape& shape, Dtype dtype) {
  // YOUR CODE HERE
  rooflab::todo("a03_attention_memory::estimate_memory", method, shape, dtype);
}

double measure_peak_memory(Method method, const AttentionShape& shape, std::uint64_t seed) {
  // YOUR CODE HERE
  rooflab::todo("a03_attention_memory::measure_peak_memory", method, shape, seed);
}

std::vector<ScalingPoint> profile_memory_scaling(Method method, const AttentionShape& shape,
                                                 const std::vector<std::int64_t>& seq_lens, std::uint64_t seed) {
  // YOUR CODE HERE
  rooflab::todo("a03_attention_memory::profile_memory_scaling", method, shape, seq_lens, seed);
}

}  // namespace a03_attention_memory
