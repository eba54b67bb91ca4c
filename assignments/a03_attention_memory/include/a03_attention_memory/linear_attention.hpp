// Part 3: linear attention, φ(x) = elu(x) + 1, which replaces the N×N weights
// by a d×d_v state.
//
// Validation: each function checks q (B, H, N, d), k (B, H, M, d) and
// v (B, H, M, d_v) with rooflab::require_attention_inputs (rooflab/tensor.hpp,
// provided), which throws std::invalid_argument whose message starts with the
// culprit's name and names no other of q, k, v:
//   q, k, v  a dimension not positive, or data.size() not the product of its shape
//   k        batch, heads or d differing from q's
//   v        batch or heads differing from q's, or length differing from k's M
// The two causal forms also need M == N, and name k when M differs.
#pragma once

#include <cmath>

#include "rooflab/tensor.hpp"

namespace a03_attention_memory {

using rooflab::Tensor4;

// Added to every normaliser φ(q_i)·z so that it is never zero.
inline constexpr double kLinearAttentionEps = 1e-6;

// φ(x) = elu(x) + 1: x + 1 for x > 0, exp(x) otherwise. Positive, so the
// normaliser is positive too.
inline float feature_map(float x) { return x > 0 ? x + 1 : std::exp(x); }

// Bidirectional: out_i = φ(q_i)ᵀ S / (φ(q_i)·z + eps) with S = Σ_j φ(k_j) v_jᵀ
// (d×d_v) and z = Σ_j φ(k_j), one S and z per (b, h). Apply φ on the fly: the
// call allocates the output and the states, nothing else of size N.
Tensor4 linear_attention(const Tensor4& q, const Tensor4& k, const Tensor4& v);

// Causal, the naive way: S_i = Σ_{j<=i} φ(k_j) v_jᵀ and z_i = Σ_{j<=i} φ(k_j)
// stored for every i, a (B, H, N, d, d_v) cumulative sum, before any output is
// computed. O(N·d²) memory: more than standard attention's N² once d² > N.
Tensor4 causal_linear_attention_cumsum(const Tensor4& q, const Tensor4& k, const Tensor4& v);

// Causal, the recurrent way: one running S and z per (b, h), updated with key
// i and then read by query i. Same outputs as the cumsum, O(d²) state.
Tensor4 causal_linear_attention_recurrent(const Tensor4& q, const Tensor4& k, const Tensor4& v);

}  // namespace a03_attention_memory
