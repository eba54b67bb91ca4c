// Flash attention's forward pass: softmax(Q Kᵀ/√d + mask) V in tiles, with an
// online softmax, never holding more than one block of scores per worker.
//
// C++17 on purpose: flash_attention_thrust.cpp includes this header and is also
// compiled by nvcc.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "rooflab/backend.hpp"
#include "rooflab/tensor.hpp"

namespace a04_flash_attention {

using rooflab::Tensor4;

struct FlashOptions {
  std::int64_t block_rows = 64;   // B_r: query rows per tile
  std::int64_t block_cols = 128;  // B_c: keys per tile
  bool causal = false;            // key j hidden from query i when j > i (needs N == M)
  // Optional explicit N×M keep-mask shared by every (b, h), row-major: 1 keeps
  // score (i, j), 0 sets it to −∞. Empty: no explicit mask. Combined with causal.
  std::vector<std::uint8_t> keep;
};

struct FlashResult {
  Tensor4 output;          // (B, H, N, d_v)
  std::vector<float> lse;  // (B, H, N): log Σ_j exp(s_ij), the backward pass's softmax statistic
};

// softmax(Q Kᵀ/√d) V for Q (B, H, N, d), K (B, H, M, d), V (B, H, M, d_v), any
// N and M (the last tiles may be partial). A row whose every score is masked
// has no softmax: its output is 0 and its lse −∞ (no NaN). Throws
// std::invalid_argument naming q, k, v, block_rows, block_cols, causal or keep.
FlashResult flash_attention(const Tensor4& q, const Tensor4& k, const Tensor4& v, const FlashOptions& options);

// The same algorithm written once against Thrust: one work item per (b, h, row
// block), each with its own block_cols scratch scores. Built for Thrust's
// OpenMP device system; where nvcc exists compiled again for the CUDA device
// system as flash_attention_thrust_cuda (without CUDA, a second OpenMP build
// that tests skip).
FlashResult flash_attention_thrust(const Tensor4& q, const Tensor4& k, const Tensor4& v, const FlashOptions& options);
FlashResult flash_attention_thrust_cuda(const Tensor4& q, const Tensor4& k, const Tensor4& v,
                                        const FlashOptions& options);

// The three implementations behind one switch, so that tests are written once
// and run for every compiled backend (cpu: flash_attention).
inline FlashResult flash_attention_on(rooflab::Backend backend, const Tensor4& q, const Tensor4& k, const Tensor4& v,
                                      const FlashOptions& options) {
  switch (backend) {
    case rooflab::Backend::cpu:
      return flash_attention(q, k, v, options);
    case rooflab::Backend::thrust:
      return flash_attention_thrust(q, k, v, options);
    case rooflab::Backend::cuda:
      return flash_attention_thrust_cuda(q, k, v, options);
  }
  throw std::invalid_argument("backend: unknown");
}

// Checks the inputs and options every implementation accepts, naming the culprit.
inline void require_valid(const Tensor4& q, const Tensor4& k, const Tensor4& v, const FlashOptions& options) {
  rooflab::require_attention_inputs(q, k, v);
  if (options.block_rows <= 0) throw std::invalid_argument("block_rows: must be positive");
  if (options.block_cols <= 0) throw std::invalid_argument("block_cols: must be positive");
  if (options.causal && q.rows() != k.rows()) throw std::invalid_argument("causal: needs as many queries as keys");
  if (!options.keep.empty() && static_cast<std::int64_t>(options.keep.size()) != q.rows() * k.rows())
    throw std::invalid_argument("keep: must hold N×M entries (one per query and key) or none");
}

}  // namespace a04_flash_attention
