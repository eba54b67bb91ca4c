// a03_attention_memory, part 2: attention's memory in theory and measured.
#include "a03_attention_memory/memory.hpp"

#include <chrono>
#include <stdexcept>
#include <string>

#include "a03_attention_memory/standard_attention.hpp"
#include "rooflab/memory_tracker.hpp"  // keep: rooflab::memory::measure_peak
#include "rooflab/not_implemented.hpp"
#include "rooflab/validate.hpp"  // keep: rooflab::require_positive

namespace a03_attention_memory {

MemoryEstimate estimate_memory(Method method, const AttentionShape& shape, Dtype dtype) {
  // BEGIN SOLUTION
  rooflab::require_positive(static_cast<double>(shape.batch), "batch");
  rooflab::require_positive(static_cast<double>(shape.heads), "heads");
  rooflab::require_positive(static_cast<double>(shape.seq_len), "seq_len");
  rooflab::require_positive(static_cast<double>(shape.head_dim), "head_dim");
  const double bh = static_cast<double>(shape.batch) * static_cast<double>(shape.heads);
  const double n = static_cast<double>(shape.seq_len), d = static_cast<double>(shape.head_dim);
  const double bytes = bytes_per_element(dtype);

  MemoryEstimate estimate;
  estimate.inputs = 3 * bh * n * d * bytes;
  estimate.output = bh * n * d * bytes;
  switch (method) {
    case Method::standard:
      estimate.scores = bh * n * n * bytes;
      estimate.weights = bh * n * n * bytes;
      break;
    case Method::linear:
    case Method::linear_causal_recurrent:
      estimate.state = bh * (d * d + d) * bytes;  // S (d×d_v) and z (d), one per (b, h)
      break;
    case Method::linear_causal_cumsum:
      estimate.state = bh * n * (d * d + d) * bytes;  // one S and z per prefix
      break;
  }
  estimate.peak_extra = estimate.scores + estimate.weights + estimate.state + estimate.output;
  estimate.total = estimate.inputs + estimate.peak_extra;
  return estimate;
  // END SOLUTION
}

double measure_peak_memory(Method method, const AttentionShape& shape, std::uint64_t seed) {
  // BEGIN SOLUTION
  estimate_memory(method, shape, Dtype::fp32);  // validates the shape
  const Tensor4 q = rooflab::random_normal(shape.batch, shape.heads, shape.seq_len, shape.head_dim, seed);
  const Tensor4 k = rooflab::random_normal(shape.batch, shape.heads, shape.seq_len, shape.head_dim, seed + 1);
  const Tensor4 v = rooflab::random_normal(shape.batch, shape.heads, shape.seq_len, shape.head_dim, seed + 2);
  // The inputs are live before the measurement starts, so only the call's own
  // allocations count; its result is freed inside the measurement, after the peak.
  const auto measured = rooflab::memory::measure_peak([&] { return run_method(method, q, k, v); });
  return static_cast<double>(measured.peak_extra_bytes);
  // END SOLUTION
}

std::vector<ScalingPoint> profile_memory_scaling(Method method, const AttentionShape& shape,
                                                 const std::vector<std::int64_t>& seq_lens, std::uint64_t seed) {
  // BEGIN SOLUTION
  std::vector<ScalingPoint> points;
  for (const std::int64_t seq_len : seq_lens) {
    AttentionShape at = shape;
    at.seq_len = seq_len;
    ScalingPoint point;
    point.seq_len = seq_len;
    point.estimated_bytes = estimate_memory(method, at, Dtype::fp32).peak_extra;
    const auto start = std::chrono::steady_clock::now();
    point.measured_bytes = measure_peak_memory(method, at, seed);
    point.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    points.push_back(point);
  }
  return points;
  // END SOLUTION
}

}  // namespace a03_attention_memory
