// Adversarial submission "self_consistent_estimate": the estimate forgets the
// output, and the "measurement" reports that estimate, so the two agree with
// each other and with nothing else.
#include "a03_attention_memory/memory.hpp"

#include "rooflab/validate.hpp"

namespace a03_attention_memory {

MemoryEstimate estimate_memory(Method method, const AttentionShape& shape, Dtype dtype) {
  rooflab::require_positive(static_cast<double>(shape.batch), "batch");
  rooflab::require_positive(static_cast<double>(shape.heads), "heads");
  rooflab::require_positive(static_cast<double>(shape.seq_len), "seq_len");
  rooflab::require_positive(static_cast<double>(shape.head_dim), "head_dim");
  const double bh = static_cast<double>(shape.batch * shape.heads), n = static_cast<double>(shape.seq_len);
  const double d = static_cast<double>(shape.head_dim), bytes = bytes_per_element(dtype);
  MemoryEstimate estimate;
  estimate.inputs = 3 * bh * n * d * bytes;
  if (method == Method::standard) estimate.scores = estimate.weights = bh * n * n * bytes;
  if (method == Method::linear_causal_cumsum) estimate.state = bh * n * (d * d + d) * bytes;
  if (method == Method::linear || method == Method::linear_causal_recurrent) estimate.state = bh * (d * d + d) * bytes;
  estimate.peak_extra = estimate.scores + estimate.weights + estimate.state;
  estimate.total = estimate.inputs + estimate.peak_extra;
  return estimate;
}

double measure_peak_memory(Method method, const AttentionShape& shape, std::uint64_t) {
  return estimate_memory(method, shape, Dtype::fp32).peak_extra;
}

std::vector<ScalingPoint> profile_memory_scaling(Method method, const AttentionShape& shape,
                                                 const std::vector<std::int64_t>& seq_lens, std::uint64_t seed) {
  std::vector<ScalingPoint> points;
  for (const std::int64_t n : seq_lens) {
    AttentionShape at = shape;
    at.seq_len = n;
    const double bytes = measure_peak_memory(method, at, seed);
    points.push_back({n, bytes, bytes, 1e-3});
  }
  return points;
}

}  // namespace a03_attention_memory
