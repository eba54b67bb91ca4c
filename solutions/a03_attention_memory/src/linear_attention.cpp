// a03_attention_memory, part 3: linear attention, bidirectional and causal.
#include "a03_attention_memory/linear_attention.hpp"

#include <vector>

#include "rooflab/not_implemented.hpp"

namespace a03_attention_memory {

// BEGIN SOLUTION
namespace {

// out_i = φ(q_i)ᵀ S / (φ(q_i)·z + eps) for one query row, S (d×d_v) and z (d).
void read_state(const float* qi, const float* state, const float* z, std::int64_t d, std::int64_t dv, float* out) {
  float normaliser = 0;
  for (std::int64_t c = 0; c < d; ++c) {
    const float phi = feature_map(qi[c]);
    normaliser += phi * z[c];
    for (std::int64_t e = 0; e < dv; ++e) out[e] += phi * state[c * dv + e];
  }
  const float inverse = 1.0f / (normaliser + static_cast<float>(kLinearAttentionEps));
  for (std::int64_t e = 0; e < dv; ++e) out[e] *= inverse;
}

// S += φ(k_j) v_jᵀ and z += φ(k_j) for one key row.
void add_key(const float* kj, const float* vj, std::int64_t d, std::int64_t dv, float* state, float* z) {
  for (std::int64_t c = 0; c < d; ++c) {
    const float phi = feature_map(kj[c]);
    z[c] += phi;
    for (std::int64_t e = 0; e < dv; ++e) state[c * dv + e] += phi * vj[e];
  }
}

void require_self_attention(const Tensor4& q, const Tensor4& k, const Tensor4& v) {
  rooflab::require_attention_inputs(q, k, v);
  if (q.rows() != k.rows()) throw std::invalid_argument("k: causal attention needs as many keys as queries");
}

}  // namespace
// END SOLUTION

Tensor4 linear_attention(const Tensor4& q, const Tensor4& k, const Tensor4& v) {
  // BEGIN SOLUTION
  rooflab::require_attention_inputs(q, k, v);
  const std::int64_t matrices = q.matrices(), n = q.rows(), m = k.rows(), d = q.cols(), dv = v.cols();
  std::vector<float> states(static_cast<std::size_t>(matrices * d * dv), 0.0f);
  std::vector<float> sums(static_cast<std::size_t>(matrices * d), 0.0f);
  Tensor4 output = rooflab::zeros(q.batch(), q.heads(), n, dv);
#pragma omp parallel for
  for (std::int64_t bh = 0; bh < matrices; ++bh) {
    float* state = states.data() + bh * d * dv;
    float* z = sums.data() + bh * d;
    for (std::int64_t j = 0; j < m; ++j) add_key(k.row(bh, j), v.row(bh, j), d, dv, state, z);
    for (std::int64_t i = 0; i < n; ++i) read_state(q.row(bh, i), state, z, d, dv, output.row(bh, i));
  }
  return output;
  // END SOLUTION
}

Tensor4 causal_linear_attention_cumsum(const Tensor4& q, const Tensor4& k, const Tensor4& v) {
  // BEGIN SOLUTION
  require_self_attention(q, k, v);
  const std::int64_t matrices = q.matrices(), n = q.rows(), d = q.cols(), dv = v.cols();
  // Every prefix's state, S_i and z_i for i = 0..N-1: the (B, H, N, d, d_v) cumulative sum.
  std::vector<float> states(static_cast<std::size_t>(matrices * n * d * dv), 0.0f);
  std::vector<float> sums(static_cast<std::size_t>(matrices * n * d), 0.0f);
#pragma omp parallel for
  for (std::int64_t bh = 0; bh < matrices; ++bh)
    for (std::int64_t i = 0; i < n; ++i) {
      float* state = states.data() + (bh * n + i) * d * dv;
      float* z = sums.data() + (bh * n + i) * d;
      if (i > 0) {  // S_i = S_{i-1} + φ(k_i) v_iᵀ
        std::copy(state - d * dv, state, state);
        std::copy(z - d, z, z);
      }
      add_key(k.row(bh, i), v.row(bh, i), d, dv, state, z);
    }
  Tensor4 output = rooflab::zeros(q.batch(), q.heads(), n, dv);
#pragma omp parallel for collapse(2)
  for (std::int64_t bh = 0; bh < matrices; ++bh)
    for (std::int64_t i = 0; i < n; ++i)
      read_state(q.row(bh, i), states.data() + (bh * n + i) * d * dv, sums.data() + (bh * n + i) * d, d, dv,
                 output.row(bh, i));
  return output;
  // END SOLUTION
}

Tensor4 causal_linear_attention_recurrent(const Tensor4& q, const Tensor4& k, const Tensor4& v) {
  // BEGIN SOLUTION
  require_self_attention(q, k, v);
  const std::int64_t matrices = q.matrices(), n = q.rows(), d = q.cols(), dv = v.cols();
  std::vector<float> states(static_cast<std::size_t>(matrices * d * dv), 0.0f);
  std::vector<float> sums(static_cast<std::size_t>(matrices * d), 0.0f);
  Tensor4 output = rooflab::zeros(q.batch(), q.heads(), n, dv);
#pragma omp parallel for
  for (std::int64_t bh = 0; bh < matrices; ++bh) {
    float* state = states.data() + bh * d * dv;
    float* z = sums.data() + bh * d;
    for (std::int64_t i = 0; i < n; ++i) {  // key i joins the state before query i reads it
      add_key(k.row(bh, i), v.row(bh, i), d, dv, state, z);
      read_state(q.row(bh, i), state, z, d, dv, output.row(bh, i));
    }
  }
  return output;
  // END SOLUTION
}

}  // namespace a03_attention_memory
