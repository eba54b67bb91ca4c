// Causal self-attention, forward and backward, written out by hand the way a
// training framework's autograd would run it (docs/08_associative_recall.md).
//
// Shapes: q and k are (B, H, N, d), v is (B, H, N, dv): batch, heads, tokens,
// head dimension. The mask is additive and shared by every (b, h): the score
// of query i against key j is q_i·k_j/√d + mask[i·N + j], so 0 keeps a key
// and −∞ hides it. The causal mask hides every later token (j > i).
//
// Validation: a bad input throws std::invalid_argument whose message starts
// with its name ("mask: ...") and names none of the others' names: n, q, k, v,
// mask, probs, d_output (so a message about q must not say probs). Tests make
// one input bad at a time. What each function checks is listed with it.
#pragma once

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "rooflab/tensor.hpp"

namespace a07_associative_recall {

using rooflab::Tensor4;

// The additive causal mask for n tokens, (n × n) row-major: 0 where key j may
// be seen by query i (j ≤ i), −∞ where it may not (j > i). Throws
// std::invalid_argument naming n unless n is positive.
std::vector<float> causal_mask(std::int64_t n);

struct AttentionForward {
  Tensor4 output;  // (B, H, N, dv): P·V
  Tensor4 probs;   // (B, H, N, N): P = softmax(q·kᵀ/√d + mask) by rows, saved for the backward pass
};

// O = softmax(Q·Kᵀ/√d + mask)·V for every (b, h), returning P as well.
// Validation (require_attention_forward_inputs below, provided: call it first):
//   q, k, v   not well formed, or k or v not the queries' batch, heads and
//             length (self-attention: N keys for N queries), or k not their d
//   mask      not N·N values, a NaN or +∞ among them, or a row that hides
//             every key (that row would have no softmax)
AttentionForward attention_forward(const Tensor4& q, const Tensor4& k, const Tensor4& v,
                                   const std::vector<float>& mask);

struct AttentionGradients {
  Tensor4 dq, dk, dv;  // ∂loss/∂q, ∂loss/∂k, ∂loss/∂v: the shapes of q, k, v
};

// The gradients of a loss through O = P·V, P = softmax(S), S = Q·Kᵀ/√d + mask,
// given d_output = ∂loss/∂O and the P that attention_forward saved (the mask
// is already in P: a hidden key has probability 0, so it gets no gradient):
//   dV = Pᵀ·dO                  dP = dO·Vᵀ
//   dS_ij = P_ij (dP_ij − Σ_l P_il dP_il)      (the softmax's Jacobian)
//   dQ = dS·K/√d                dK = dSᵀ·Q/√d
// Validation (require_attention_backward_inputs below, provided): q, k, v as
// in attention_forward; probs not (B, H, N, N); d_output not (B, H, N, dv).
AttentionGradients attention_backward(const Tensor4& q, const Tensor4& k, const Tensor4& v, const Tensor4& probs,
                                      const Tensor4& d_output);

// --- The checks above, shared by every implementation (provided). ---

inline void require_self_attention_inputs(const Tensor4& q, const Tensor4& k, const Tensor4& v) {
  rooflab::require_attention_inputs(q, k, v);
  if (k.rows() != q.rows())
    throw std::invalid_argument("k: self-attention needs as many keys as queries (" + std::to_string(q.rows()) + ")");
}

inline void require_attention_forward_inputs(const Tensor4& q, const Tensor4& k, const Tensor4& v,
                                             const std::vector<float>& mask) {
  require_self_attention_inputs(q, k, v);
  const std::int64_t n = q.rows();
  if (static_cast<std::int64_t>(mask.size()) != n * n)
    throw std::invalid_argument("mask: holds " + std::to_string(mask.size()) +
                                " values, N·N = " + std::to_string(n * n) + " are needed");
  for (std::int64_t i = 0; i < n; ++i) {
    bool sees_a_key = false;
    for (std::int64_t j = 0; j < n; ++j) {
      const float m = mask[static_cast<std::size_t>(i * n + j)];
      if (std::isnan(m) || m == INFINITY)
        throw std::invalid_argument("mask: entry (" + std::to_string(i) + ", " + std::to_string(j) +
                                    ") is NaN or +inf");
      sees_a_key = sees_a_key || m != -INFINITY;
    }
    if (!sees_a_key) throw std::invalid_argument("mask: row " + std::to_string(i) + " hides every key");
  }
}

inline void require_attention_backward_inputs(const Tensor4& q, const Tensor4& k, const Tensor4& v,
                                              const Tensor4& probs, const Tensor4& d_output) {
  require_self_attention_inputs(q, k, v);
  rooflab::require_well_formed(probs, "probs");
  rooflab::require_well_formed(d_output, "d_output");
  if (probs.shape != std::array<std::int64_t, 4>{q.batch(), q.heads(), q.rows(), q.rows()})
    throw std::invalid_argument("probs: must be (B, H, N, N) for the queries' B, H and N");
  if (d_output.shape != std::array<std::int64_t, 4>{q.batch(), q.heads(), q.rows(), v.cols()})
    throw std::invalid_argument("d_output: must be (B, H, N, dv), the output's shape");
}

}  // namespace a07_associative_recall
