// a03_attention_memory, part 1: standard attention, materialising S and P.
#include "a03_attention_memory/standard_attention.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "rooflab/not_implemented.hpp"

namespace a03_attention_memory {

AttentionResult standard_attention(const Tensor4& q, const Tensor4& k, const Tensor4& v, bool causal) {
  // BEGIN SOLUTION
  require_valid(q, k, v, causal);
  const std::int64_t matrices = q.matrices(), n = q.rows(), m = k.rows(), d = q.cols(), dv = v.cols();
  const float scale = 1.0f / std::sqrt(static_cast<float>(d));
  constexpr float minus_infinity = -std::numeric_limits<float>::infinity();

  // S = Q Kᵀ/√d: one dot product of length d per (query, key) pair.
  Tensor4 scores = rooflab::zeros(q.batch(), q.heads(), n, m);
#pragma omp parallel for collapse(2)
  for (std::int64_t bh = 0; bh < matrices; ++bh)
    for (std::int64_t i = 0; i < n; ++i) {
      const float* qi = q.row(bh, i);
      float* si = scores.row(bh, i);
      for (std::int64_t j = 0; j < m; ++j) {
        if (causal && j > i) {
          si[j] = minus_infinity;  // exp(−∞) = 0: key j is invisible to query i
          continue;
        }
        const float* kj = k.row(bh, j);
        float dot = 0;
        for (std::int64_t c = 0; c < d; ++c) dot += qi[c] * kj[c];
        si[j] = dot * scale;
      }
    }

  // P = softmax(S) per row. Subtracting the row's max changes nothing
  // mathematically (it cancels between numerator and denominator) but keeps
  // every exp() argument <= 0, so nothing overflows.
  Tensor4 weights = rooflab::zeros(q.batch(), q.heads(), n, m);
#pragma omp parallel for collapse(2)
  for (std::int64_t bh = 0; bh < matrices; ++bh)
    for (std::int64_t i = 0; i < n; ++i) {
      const float* si = scores.row(bh, i);
      float* pi = weights.row(bh, i);
      const float row_max = *std::max_element(si, si + m);
      float sum = 0;
      for (std::int64_t j = 0; j < m; ++j) sum += (pi[j] = std::exp(si[j] - row_max));
      for (std::int64_t j = 0; j < m; ++j) pi[j] /= sum;
    }

  // O = P V: each output row is the weights' mix of V's rows.
  Tensor4 output = rooflab::zeros(q.batch(), q.heads(), n, dv);
#pragma omp parallel for collapse(2)
  for (std::int64_t bh = 0; bh < matrices; ++bh)
    for (std::int64_t i = 0; i < n; ++i) {
      const float* pi = weights.row(bh, i);
      float* oi = output.row(bh, i);
      const std::int64_t visible = causal ? i + 1 : m;
      for (std::int64_t j = 0; j < visible; ++j) {
        const float* vj = v.row(bh, j);
        for (std::int64_t c = 0; c < dv; ++c) oi[c] += pi[j] * vj[c];
      }
    }
  return {std::move(output), std::move(weights)};
  // END SOLUTION
}

}  // namespace a03_attention_memory
