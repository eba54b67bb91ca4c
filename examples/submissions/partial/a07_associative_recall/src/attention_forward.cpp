// a07_associative_recall, part 2: attention forward. For each (b, h) and
// query row i:
//   s_ij = q_i·k_j/√d + mask_ij                  (scores)
//   p_ij = exp(s_ij − max_l s_il) / Σ_l exp(s_il − max_l s_il)   (masked softmax)
//   o_i  = Σ_j p_ij v_j                          (weighted sum)
// P is returned too: the backward pass needs it, and keeping it (N² values per
// head) is what training pays that inference with flash attention does not.
#include <algorithm>
#include <cmath>

#include "a07_associative_recall/attention.hpp"
#include "rooflab/fast_exp.hpp"  // keep: rooflab::exp_nonpositive, an exp the compiler vectorises
#include "rooflab/not_implemented.hpp"

namespace a07_associative_recall {

AttentionForward attention_forward(const Tensor4& q, const Tensor4& k, const Tensor4& v,
                                   const std::vector<float>& mask) {
  require_attention_forward_inputs(q, k, v, mask);
  const std::int64_t n = q.rows(), d = q.cols(), dv = v.cols();
  const float scale = 1.0f / std::sqrt(static_cast<float>(d));
  AttentionForward result{rooflab::zeros(q.batch(), q.heads(), n, dv), rooflab::zeros(q.batch(), q.heads(), n, n)};
#pragma omp parallel for schedule(static)
  for (std::int64_t bh = 0; bh < q.matrices(); ++bh) {
    for (std::int64_t i = 0; i < n; ++i) {
      const float* qi = q.row(bh, i);
      float* p = result.probs.row(bh, i);
      float row_max = -INFINITY;
      for (std::int64_t j = 0; j < n; ++j) {
        const float* kj = k.row(bh, j);
        float dot = 0.0f;
#pragma omp simd reduction(+ : dot)  // lets the compiler add in vector lanes, in any order
        for (std::int64_t c = 0; c < d; ++c) dot += qi[c] * kj[c];
        p[j] = dot * scale + mask[static_cast<std::size_t>(i * n + j)];
        row_max = std::max(row_max, p[j]);
      }
      // The validation guarantees a visible key, so row_max is finite.
      float sum = 0.0f;
#pragma omp simd reduction(+ : sum)
      for (std::int64_t j = 0; j < n; ++j) {
        p[j] = rooflab::exp_nonpositive(p[j] - row_max);
        sum += p[j];
      }
      const float inverse = 1.0f / sum;
      float* o = result.output.row(bh, i);
      for (std::int64_t j = 0; j < n; ++j) {
        p[j] *= inverse;
        const float* vj = v.row(bh, j);
#pragma omp simd
        for (std::int64_t c = 0; c < dv; ++c) o[c] += p[j] * vj[c];
      }
    }
  }
  return result;
}

}  // namespace a07_associative_recall
