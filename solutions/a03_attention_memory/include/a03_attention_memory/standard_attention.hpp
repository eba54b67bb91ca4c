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
// Throws std::invalid_argument naming q, k, v or causal for inputs that do not fit.
AttentionResult standard_attention(const Tensor4& q, const Tensor4& k, const Tensor4& v, bool causal);

// The same computation written once against Thrust: one work item per query
// row, scores and weights in thrust::device_vectors. Built for Thrust's OpenMP
// device system on the CPU; where nvcc exists the same source is compiled again
// for the CUDA device system as standard_attention_thrust_cuda (in builds
// without CUDA, that name is a second OpenMP build; tests skip it there).
AttentionResult standard_attention_thrust(const Tensor4& q, const Tensor4& k, const Tensor4& v, bool causal);
AttentionResult standard_attention_thrust_cuda(const Tensor4& q, const Tensor4& k, const Tensor4& v, bool causal);

// The input checks both implementations share (provided): throws
// std::invalid_argument naming q, k, v or causal.
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
