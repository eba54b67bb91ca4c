// Part 2: what attention allocates, in theory and measured.
#pragma once

#include <cstdint>
#include <vector>

#include "rooflab/tensor.hpp"

namespace a03_attention_memory {

using rooflab::Tensor4;

enum class Method { standard, linear, linear_causal_cumsum, linear_causal_recurrent };

// The name printed in tables and the profile's CSV: the enumerator's own.
inline const char* to_string(Method method) {
  switch (method) {
    case Method::standard:
      return "standard";
    case Method::linear:
      return "linear";
    case Method::linear_causal_cumsum:
      return "linear_causal_cumsum";
    case Method::linear_causal_recurrent:
      return "linear_causal_recurrent";
  }
  return "?";
}
enum class Dtype { fp32, fp16, bf16 };

inline double bytes_per_element(Dtype dtype) { return dtype == Dtype::fp32 ? 4.0 : 2.0; }

// One attention call's size: Q, K and V are all (batch, heads, seq_len, head_dim).
struct AttentionShape {
  std::int64_t batch = 1;
  std::int64_t heads = 1;
  std::int64_t seq_len = 1;
  std::int64_t head_dim = 64;
};

// Bytes, as doubles so that any size fits. Fields a method does not allocate are 0.
struct MemoryEstimate {
  double inputs = 0;      // Q, K, V: 3·B·H·N·d elements (allocated before the call)
  double scores = 0;      // standard: S, B·H·N·N
  double weights = 0;     // standard: P, B·H·N·N
  double state = 0;       // linear: S and z per (b, h), B·H·(d·d + d); cumsum: B·H·N·(d·d + d)
  double output = 0;      // B·H·N·d
  double peak_extra = 0;  // what the call allocates at its peak: the sum of the four above
  double total = 0;       // inputs + peak_extra
};

// The memory each Method's function (as specified in its header) allocates,
// for elements of `dtype`. A field of `shape` (batch, heads, seq_len,
// head_dim) that is not positive throws std::invalid_argument naming that field
// alone, e.g. "seq_len must be a positive finite number, got -8" (what
// rooflab::require_positive throws); the message must not name method or dtype
// either. method and dtype themselves are not checked.
MemoryEstimate estimate_memory(Method method, const AttentionShape& shape, Dtype dtype);

// Runs `method` once on random fp32 inputs of `shape` (drawn from `seed`,
// allocated before the measurement) and returns the peak extra heap bytes the
// call needed, measured with rooflab::memory::measure_peak. Standard attention
// runs without a mask. Checks `shape` as estimate_memory does.
double measure_peak_memory(Method method, const AttentionShape& shape, std::uint64_t seed);

struct ScalingPoint {
  std::int64_t seq_len = 0;
  double measured_bytes = 0;   // measure_peak_memory at this length
  double estimated_bytes = 0;  // estimate_memory(...).peak_extra for fp32
  double seconds = 0;          // wall time of the measured call
};

// One point per entry of `seq_lens` (the other fields from `shape`), in order.
// Checks each point's shape as estimate_memory does: a bad entry is named seq_len.
std::vector<ScalingPoint> profile_memory_scaling(Method method, const AttentionShape& shape,
                                                 const std::vector<std::int64_t>& seq_lens, std::uint64_t seed);

// Runs `method` on (q, k, v) and returns its output: the one switch over
// Method the lab uses (provided in src/run_method.cpp).
Tensor4 run_method(Method method, const Tensor4& q, const Tensor4& k, const Tensor4& v);

}  // namespace a03_attention_memory
