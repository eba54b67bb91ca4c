// a05_cuda_attention, part 3 (performance lab): flash attention on tensor
// cores through WMMA.
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
// Bank conflicts: a warp's fragment loads and stores read 16-byte pieces of
// several rows at once. Rows whose stride is a multiple of 128 bytes put
// every row's piece in the same banks (a 16×16 fp16 tile with 128-byte rows
// takes 16 wavefronts where 4 would do), so every tile's rows are padded by
// 16 bytes (kHalfPad, kFloatPad). The softmax walks each row with the whole
// warp, lane j on keys j and j + 32: consecutive words, no conflict.
//
// Runs on a GPU and in the CPU runtime, which models WMMA (rooflab/cuda_cpu.hpp).
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
constexpr int kHalfPad = 8, kFloatPad = 4;      // 16 bytes of padding per row

// Row strides of the shared tiles, in elements, for head dim D.
template <int D>
struct Strides {
  static constexpr int qkv = D + kHalfPad;          // Q, K, V (fp16)
  static constexpr int p = kBlockCols + kHalfPad;   // P (fp16)
  static constexpr int s = kBlockCols + kFloatPad;  // S (fp32)
  static constexpr int o = D + kFloatPad;           // O (fp32)
};

// Shared memory for head dim D, in bytes: Q, K, V tiles (fp16), P (fp16), S
// and O (fp32), and each row's m and l. Every tile starts 32-byte aligned, as
// WMMA's loads and stores require.
template <int D>
constexpr std::size_t shared_bytes() {
  using S = Strides<D>;
  return sizeof(__half) * (kBlockRows * S::qkv + 2 * kBlockCols * S::qkv + kBlockRows * S::p) +
         sizeof(float) * (kBlockRows * S::s + kBlockRows * S::o + 2 * kBlockRows);
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
