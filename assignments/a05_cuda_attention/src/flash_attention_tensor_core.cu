// a05_cuda_attention, part 3 (performance lab, needs a GPU): flash attention
// on tensor cores through WMMA.
//
// The algorithm is part 2's; what changes is who multiplies. A warp's tensor
// cores multiply 16×16 fp16 tiles into fp32 accumulators in one instruction
// (wmma::mma_sync), so the two products move to them:
//   S_w = Q_w K_tileᵀ   (16 rows × kBlockCols keys per warp)
//   O_w += P_w V_tile    (16 rows × D)
// and the online softmax between them runs on the ordinary cores, reading S
// from shared memory. A block has kWarps warps, 16 query rows each; Q, K, V
// and P are fp16 in shared memory, S and O fp32. O lives in shared memory,
// not in accumulator fragments, because rescaling a row by exp(m − m') needs
// to know which row each value belongs to, and a fragment's layout is
// unspecified.
//
// Compiled by nvcc only (GPU_CUDA_FILES): the CPU runtime does not model
// tensor cores. Without a GPU the provided tensor_core_unavailable.cpp stands in.
#include <cuda_fp16.h>  // keep: __half
#include <mma.h>

#include "a05_cuda_attention/cuda_attention.hpp"
#include "rooflab/cuda_helpers.hpp"  // keep: ROOFLAB_CUDA_CHECK, ceil_div, require_shared_memory
#include "rooflab/not_implemented.hpp"

namespace a05_cuda_attention {
namespace {

namespace wmma = nvcuda::wmma;

constexpr int kWarps = 4;                       // warps per block
constexpr int kFragment = 16;                   // WMMA's 16×16×16 tiles
constexpr int kBlockRows = kWarps * kFragment;  // B_r = 64 query rows per block
constexpr int kBlockCols = 64;                  // B_c keys per streamed tile

// Shared memory for head dim D, in bytes: Q, K, V tiles (fp16), S (fp32), P
// (fp16), O (fp32), and each row's m and l.
template <int D>
constexpr std::size_t shared_bytes() {
  return sizeof(__half) * (kBlockRows * D + 2 * kBlockCols * D + kBlockRows * kBlockCols) +
         sizeof(float) * (kBlockRows * kBlockCols + kBlockRows * D + 2 * kBlockRows);
}

template <int D>
__global__ void flash_forward_tensor_core(const __half* q, const __half* k, const __half* v, float* out, float* lse,
                                          int n, int m, float scale, bool causal) {
  // YOUR CODE HERE
  (void)q;
  (void)k;
  (void)v;
  (void)out;
  (void)lse;
  (void)n;
  (void)m;
  (void)scale;
  (void)causal;
}

// inline: the student template leaves it unused until the launcher is written.
inline std::vector<__half> to_half(const std::vector<float>& values) {
  std::vector<__half> halves(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) halves[i] = __float2half(values[i]);
  return halves;
}

template <int D>
AttentionResult launch(const Tensor4& q, const Tensor4& k, const Tensor4& v, bool causal) {
  // YOUR CODE HERE
  rooflab::todo("a05_cuda_attention::launch", q, k, v, causal);
}

}  // namespace

AttentionResult flash_attention_tensor_core(const Tensor4& q, const Tensor4& k, const Tensor4& v, bool causal) {
  // YOUR CODE HERE
  rooflab::todo("a05_cuda_attention::flash_attention_tensor_core", q, k, v, causal);
}

}  // namespace a05_cuda_attention
