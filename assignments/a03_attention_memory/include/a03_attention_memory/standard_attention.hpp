// Part 1: standard attention, which materialises the N×N scores and weights.
//
// C++17 on purpose: standard_attention_thrust.cpp includes this header and is
// also compiled by nvcc.
#pragma once

#include <stdexcept>

#include "rooflab/backend.hpp"
#include "rooflab/tensor.hpp"

namespace a03_attention_memory {

using rooflab::Tensor4;

struct AttentionResult {
  Tensor4 output;   // (B, H, N, d_v)
  Tensor4 weights;  // (B, H, N, M): softmax(Q Kᵀ/√d), rows sum to 1; 0 where masked
};

// softmax(Q Kᵀ/√d) V for Q (B, H, N, d), K (B, H, M, d), V (B, H, M, d_v), as a
// framework's eager mode runs it: the scores S = Q Kᵀ/√d are one (B, H, N, M)
// tensor, the weights P = softmax(S) another, then O = P V. With `causal`, key j
// is hidden from query i when j > i (N must equal M). So the call's peak extra
// memory is S + P + O, what estimate_memory(Method::standard, ...) predicts.
//
// Validation, the same in the Thrust versions below: require_valid (provided,
// at the end of this header) throws std::invalid_argument whose message starts
// with the culprit's name and names no other of q, k, v, causal:
//   q, k, v  a dimension not positive, or data.size() not the product of its shape
//   k        batch, heads or d differing from q's
//   v        batch or heads differing from q's, or length differing from k's M
//   causal   causal with N != M
// d_v may differ from d.
AttentionResult standard_attention(const Tensor4& q, const Tensor4& k, const Tensor4& v, bool causal);

// The same computation written once against Thrust: one work item per query
// row, scores and weights in thrust::device_vectors. Built for Thrust's OpenMP
// device system on the CPU; where nvcc exists the same source is compiled again
// for the CUDA device system as standard_attention_thrust_cuda (in builds
// without CUDA, that name is a second OpenMP build; tests skip it there).
AttentionResult standard_attention_thrust(const Tensor4& q, const Tensor4& k, const Tensor4& v, bool causal);
AttentionResult standard_attention_thrust_cuda(const Tensor4& q, const Tensor4& k, const Tensor4& v, bool causal);

// The input checks every implementation makes first (provided; see Validation
// above).
inline void require_valid(const Tensor4& q, const Tensor4& k, const Tensor4& v, bool causal) {
  rooflab::require_attention_inputs(q, k, v);
  if (causal && q.rows() != k.rows()) throw std::invalid_argument("causal: needs as many queries as keys");
}

// The three implementations behind one switch, so that tests are written once
// and run for every compiled backend (cpu: standard_attention).
inline AttentionResult standard_attention_on(rooflab::Backend backend, const Tensor4& q, const Tensor4& k,
                                             const Tensor4& v, bool causal) {
  switch (backend) {
    case rooflab::Backend::cpu:
      return standard_attention(q, k, v, causal);
    case rooflab::Backend::thrust:
      return standard_attention_thrust(q, k, v, causal);
    case rooflab::Backend::cuda:
      return standard_attention_thrust_cuda(q, k, v, causal);
  }
  throw std::invalid_argument("backend: unknown");
}

}  // namespace a03_attention_memory
