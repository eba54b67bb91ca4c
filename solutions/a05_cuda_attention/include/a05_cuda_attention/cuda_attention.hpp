// Attention as CUDA kernels: standard attention in three kernels, flash
// attention in one, flash attention on tensor cores, and (the bonus) on
// tensor cores through mma.sync.
//
// Each function is a host launcher: it checks its inputs, copies them to the
// device, launches the kernels and copies the results back. The kernels stay
// inside the .cu files. Where a GPU is present they run on it; elsewhere the
// build runs the same .cu files in the course's CPU runtime
// (rooflab/cuda_cpu.hpp), which checks every launch for races.
//
// C++17 on purpose: the .cu files include this header and nvcc compiles them.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "rooflab/tensor.hpp"

namespace a05_cuda_attention {

using rooflab::Tensor4;

struct AttentionResult {
  Tensor4 output;          // (B, H, N, d_v)
  std::vector<float> lse;  // (B, H, N): log Σ_j exp(s_ij), −∞ for a row that sees no key
};

// The flash kernels' graded structure (the memory-efficiency rungs, hidden
// tests, on the CPU runtime's counters): device-memory traffic within this
// factor of the bytes of Q, K, V, O and the log-sum-exp, and at most this
// many bank conflicts per shared-memory request on average. `lab profile`
// marks a figure past them.
inline constexpr double kMaxDramOverTensors = 1.5;
inline constexpr double kMaxBankConflictsPerRequest = 1.0;
// And at the graded shape, B = 1, H = 16, N = M = 1024, d = 64 (one layer's
// attention of a small model), the flash kernel launches at least one block
// for each multiprocessor of the modelled GPU (an H100's 132): fewer leave
// some idle, whatever the kernel does inside.
inline constexpr std::int64_t kGradedHeads = 16, kGradedLength = 1024, kGradedHeadDim = 64;

// The longest head dimension the flash kernels accept: each thread keeps a
// row's d_v accumulators in registers.
inline constexpr std::int64_t kMaxHeadDim = 128;

// softmax(Q Kᵀ/√d + mask) V for Q (B, H, N, d), K (B, H, M, d), V (B, H, M, d_v).
// causal hides key j from query i when j > i + (M − N): aligned at the bottom
// right, as in decoding, so with N == M it is the usual j > i, and with N > M
// the first N − M rows see no key. A row that sees no key has output 0 and
// lse −∞ (no NaN).
//
// Validation, by the provided checks at the end of this header, before any
// device work (std::invalid_argument; the message starts with the culprit's name
// and names no other of q, k, v):
//   q, k, v   every dimension positive, data matching the shape; k and v with
//             q's batch and heads; k with q's d; v with k's M
//             (require_valid: rooflab::require_attention_inputs); every launcher
//   q         flash_attention_cuda: d and d_v at most kMaxHeadDim
//             (require_flash_head_dim)
//   q         flash_attention_tensor_core, flash_attention_mma_sync(_bf16):
//             d = d_v = 64 or 128 (require_tensor_core_head_dim)
// The head-dimension checks name q even when d_v is the culprit. causal is not
// checked: any N and M are valid with or without the mask.
//
// Standard attention, three kernels: S = Q Kᵀ/√d (tiled through shared
// memory, masked), a row softmax (one warp per row, warp-shuffle max and sum,
// lse alongside), O = P V (tiled). Holds the B·H·N·M scores in device memory.
AttentionResult standard_attention_cuda(const Tensor4& q, const Tensor4& k, const Tensor4& v, bool causal);

// Flash attention's forward pass, one kernel: one thread block per
// (row tile, b·h), the Q tile and streamed K/V tiles in shared memory, an
// online softmax with each row's running max m and sum l in registers, causal
// tiles past the diagonal skipped. Any N and M; never holds the scores.
AttentionResult flash_attention_cuda(const Tensor4& q, const Tensor4& k, const Tensor4& v, bool causal);

// Flash attention on tensor cores (WMMA): inputs rounded to fp16, products
// accumulated in fp32, output fp32. Runs on a GPU and in the CPU runtime,
// which models WMMA (a fragment's element layout drawn per launch).
AttentionResult flash_attention_tensor_core(const Tensor4& q, const Tensor4& k, const Tensor4& v, bool causal);

// The bonus: flash attention on tensor cores through the PTX instructions
// (rooflab/tensor_core.hpp's mma.sync, ldmatrix and cp.async atoms), Q, S, P
// and O in registers, K and V in XOR-swizzled shared memory, double-buffered
// by cp.async. Inputs rounded to fp16 (or, _bf16, to bf16), products
// accumulated in fp32, output fp32; validated as flash_attention_tensor_core
// (d = d_v = 64 or 128).
AttentionResult flash_attention_mma_sync(const Tensor4& q, const Tensor4& k, const Tensor4& v, bool causal);
AttentionResult flash_attention_mma_sync_bf16(const Tensor4& q, const Tensor4& k, const Tensor4& v, bool causal);

// The checks every launcher makes first (see Validation above): require_valid in
// all three, then each flash kernel its own head-dimension check.
inline void require_valid(const Tensor4& q, const Tensor4& k, const Tensor4& v) {
  rooflab::require_attention_inputs(q, k, v);
}
inline void require_flash_head_dim(const Tensor4& q, const Tensor4& v) {
  if (q.cols() > kMaxHeadDim || v.cols() > kMaxHeadDim)
    throw std::invalid_argument("q: the flash kernels take head dimensions up to " + std::to_string(kMaxHeadDim) +
                                " (d = " + std::to_string(q.cols()) + ", d_v = " + std::to_string(v.cols()) + ")");
}
inline void require_tensor_core_head_dim(const Tensor4& q, const Tensor4& v) {
  if ((q.cols() != 64 && q.cols() != 128) || v.cols() != q.cols())
    throw std::invalid_argument("q: the tensor-core kernel takes d = d_v = 64 or 128 (d = " + std::to_string(q.cols()) +
                                ", d_v = " + std::to_string(v.cols()) + ")");
}

}  // namespace a05_cuda_attention
