// a07_associative_recall, part 3: attention backward. The forward pass is
// S = Q·Kᵀ/√d + mask, P = softmax(S) by rows, O = P·V; going back, for each
// (b, h):
//   dV = Pᵀ·dO                       (O is linear in V)
//   dP = dO·Vᵀ                       (O is linear in P)
//   dS_ij = P_ij dP_ij               (TODO: check the softmax part again)
//   dQ = dS·K/√d,  dK = dSᵀ·Q/√d     (S is bilinear in Q and K)
// A masked key has P_ij = 0, so dS_ij = 0: it gets no gradient, and the mask
// itself has none to give.
#include <cmath>

#include "a07_associative_recall/attention.hpp"
#include "rooflab/not_implemented.hpp"

namespace a07_associative_recall {

AttentionGradients attention_backward(const Tensor4& q, const Tensor4& k, const Tensor4& v, const Tensor4& probs,
                                      const Tensor4& d_output) {
  require_attention_backward_inputs(q, k, v, probs, d_output);
  const std::int64_t n = q.rows(), d = q.cols(), dv = v.cols();
  const float scale = 1.0f / std::sqrt(static_cast<float>(d));
  AttentionGradients grads{rooflab::zeros(q.batch(), q.heads(), n, d), rooflab::zeros(q.batch(), q.heads(), n, d),
                           rooflab::zeros(q.batch(), q.heads(), n, dv)};
#pragma omp parallel
  {
    std::vector<float> ds(static_cast<std::size_t>(n));
#pragma omp for schedule(static)
    for (std::int64_t bh = 0; bh < q.matrices(); ++bh) {
      for (std::int64_t i = 0; i < n; ++i) {
        const float* p = probs.row(bh, i);
        const float* doi = d_output.row(bh, i);
        // dP_ij = dO_i·V_j; dV_j += P_ij dO_i.
        for (std::int64_t j = 0; j < n; ++j) {
          if (p[j] == 0.0f) {  // a masked key (or one the softmax flushed to 0): no gradient either way
            ds[static_cast<std::size_t>(j)] = 0.0f;
            continue;
          }
          const float* vj = v.row(bh, j);
          float* dvj = grads.dv.row(bh, j);
          float dp = 0.0f;
#pragma omp simd reduction(+ : dp)  // vector lanes, added in any order
          for (std::int64_t c = 0; c < dv; ++c) {
            dp += doi[c] * vj[c];
            dvj[c] += p[j] * doi[c];
          }
          ds[static_cast<std::size_t>(j)] = dp;
        }
        const float* qi = q.row(bh, i);
        float* dqi = grads.dq.row(bh, i);
        for (std::int64_t j = 0; j < n; ++j) {
          if (p[j] == 0.0f) continue;
          // softmax' = softmax, so dS = P * dP
          const float g = p[j] * ds[static_cast<std::size_t>(j)] * scale;
          const float* kj = k.row(bh, j);
          float* dkj = grads.dk.row(bh, j);
#pragma omp simd
          for (std::int64_t c = 0; c < d; ++c) {
            dqi[c] += g * kj[c];
            dkj[c] += g * qi[c];
          }
        }
      }
    }
  }
  return grads;
}

}  // namespace a07_associative_recall
