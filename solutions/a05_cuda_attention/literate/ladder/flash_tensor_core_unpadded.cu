// The ladder's first tensor-core kernel (a05's reference until 2026-11-28,
// commit ffe2c5e), kept to be measured beside the kernel that replaced it and
// to calibrate the GPU model (gpu_model_calibration.hpp): on an H100 it ran
// at 3-8 TFLOP/s, 2-4 % of PyTorch's FlashAttention-2.
//
// Its tiles' rows are 128 bytes (64 fp16) or a multiple of it apart, so a
// fragment load's 16-byte pieces of 8 rows all fall in the same 4 banks:
// bank conflicts the CPU runtime counts and src/flash_attention_tensor_core.cu
// removes by padding each row by 16 bytes. The softmax runs one lane per row
// with the other 16 lanes idle.
//
// The algorithm is the fp32 flash kernel's; what changes is who multiplies. A
// warp's tensor cores multiply 16×16 fp16 tiles into fp32 accumulators in one
// instruction (wmma::mma_sync), so the two products move to them:
//   S_w = Q_w K_tileᵀ   (16 rows × kBlockCols keys per warp)
//   O_w += P_w V_tile    (16 rows × D)
// and the online softmax between them runs on the ordinary cores, reading S
// from shared memory. O lives in shared memory, not in accumulator
// fragments, because rescaling a row by exp(m − m') needs to know which row
// each value belongs to, and a fragment's layout is unspecified.
#include <cuda_fp16.h>  // keep: __half
#include <mma.h>

#include <cmath>
#include <vector>

#include "a05_cuda_attention/cuda_attention.hpp"
#include "ladder/ladder.hpp"
#include "rooflab/cuda_helpers.hpp"  // keep: ROOFLAB_CUDA_CHECK, ceil_div, require_shared_memory

namespace a05_cuda_attention::ladder {
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
__global__ void flash_forward_tensor_core_unpadded(const __half* q, const __half* k, const __half* v, float* out,
                                                   float* lse, int n, int m, float scale, bool causal) {
  extern __shared__ unsigned char shared[];
  __half* q_tile = reinterpret_cast<__half*>(shared);                          // kBlockRows × D
  __half* k_tile = q_tile + kBlockRows * D;                                    // kBlockCols × D
  __half* v_tile = k_tile + kBlockCols * D;                                    // kBlockCols × D
  __half* p_tile = v_tile + kBlockCols * D;                                    // kBlockRows × kBlockCols
  float* s_tile = reinterpret_cast<float*>(p_tile + kBlockRows * kBlockCols);  // kBlockRows × kBlockCols
  float* o_tile = s_tile + kBlockRows * kBlockCols;                            // kBlockRows × D
  float* row_max = o_tile + kBlockRows * D;                                    // m, per row
  float* row_sum = row_max + kBlockRows;                                       // l, per row

  const long long bh = blockIdx.y;
  const int row0 = blockIdx.x * kBlockRows;
  const int warp = threadIdx.x / warpSize, lane = threadIdx.x % warpSize;
  const __half* q_rows = q + bh * n * D;
  const __half* k_rows = k + bh * m * D;
  const __half* v_rows = v + bh * m * D;

  for (int e = threadIdx.x; e < kBlockRows * D; e += blockDim.x) {
    const int r = row0 + e / D;
    q_tile[e] = r < n ? q_rows[static_cast<long long>(r) * D + e % D] : __float2half(0.0f);
    o_tile[e] = 0.0f;
  }
  for (int r = threadIdx.x; r < kBlockRows; r += blockDim.x) {
    row_max[r] = -INFINITY;
    row_sum[r] = 0.0f;
  }

  // This warp's 16 rows of each tile.
  const int my_rows = warp * kFragment;
  const int key_end = causal ? max(0, min(m, row0 + kBlockRows + (m - n))) : m;
  for (int key0 = 0; key0 < key_end; key0 += kBlockCols) {
    __syncthreads();  // Q is loaded; every warp is done with the last K/V tile
    for (int e = threadIdx.x; e < kBlockCols * D; e += blockDim.x) {
      const int j = key0 + e / D;
      const bool inside = j < m;
      k_tile[e] = inside ? k_rows[static_cast<long long>(j) * D + e % D] : __float2half(0.0f);
      v_tile[e] = inside ? v_rows[static_cast<long long>(j) * D + e % D] : __float2half(0.0f);
    }
    __syncthreads();

    // S_w = Q_w K_tileᵀ. K's tile is row-major kBlockCols × D, which read
    // column-major is Kᵀ (D × kBlockCols): matrix_b with col_major layout.
    for (int key_part = 0; key_part < kBlockCols / kFragment; ++key_part) {
      wmma::fragment<wmma::accumulator, kFragment, kFragment, kFragment, float> s;
      wmma::fill_fragment(s, 0.0f);
      for (int c = 0; c < D; c += kFragment) {
        wmma::fragment<wmma::matrix_a, kFragment, kFragment, kFragment, __half, wmma::row_major> a;
        wmma::fragment<wmma::matrix_b, kFragment, kFragment, kFragment, __half, wmma::col_major> b;
        wmma::load_matrix_sync(a, q_tile + my_rows * D + c, D);
        wmma::load_matrix_sync(b, k_tile + key_part * kFragment * D + c, D);
        wmma::mma_sync(s, a, b, s);
      }
      wmma::store_matrix_sync(s_tile + my_rows * kBlockCols + key_part * kFragment, s, kBlockCols, wmma::mem_row_major);
    }
    __syncwarp();

    // Online softmax, one lane per row (lanes 16…31 wait): P = exp(S − m'),
    // l and O rescaled by exp(m − m').
    if (lane < kFragment) {
      const int r = my_rows + lane, i = row0 + r;
      float* s_row = s_tile + r * kBlockCols;
      float tile_max = -INFINITY;
      for (int j = 0; j < kBlockCols; ++j) {
        const int key = key0 + j;
        const bool visible = i < n && key < m && !(causal && key > i + (m - n));
        s_row[j] = visible ? s_row[j] * scale : -INFINITY;
        tile_max = fmaxf(tile_max, s_row[j]);
      }
      const float new_max = fmaxf(row_max[r], tile_max);
      const float rescale = new_max == -INFINITY ? 1.0f : expf(row_max[r] - new_max);
      float sum = row_sum[r] * rescale;
      for (int j = 0; j < kBlockCols; ++j) {
        const float p = new_max == -INFINITY ? 0.0f : expf(s_row[j] - new_max);
        sum += p;
        p_tile[r * kBlockCols + j] = __float2half(p);
      }
      for (int c = 0; c < D; ++c) o_tile[r * D + c] *= rescale;
      row_max[r] = new_max;
      row_sum[r] = sum;
    }
    __syncwarp();

    // O_w += P_w V_tile, 16 columns of O at a time.
    for (int c = 0; c < D; c += kFragment) {
      wmma::fragment<wmma::accumulator, kFragment, kFragment, kFragment, float> o;
      wmma::load_matrix_sync(o, o_tile + my_rows * D + c, D, wmma::mem_row_major);
      for (int j = 0; j < kBlockCols; j += kFragment) {
        wmma::fragment<wmma::matrix_a, kFragment, kFragment, kFragment, __half, wmma::row_major> a;
        wmma::fragment<wmma::matrix_b, kFragment, kFragment, kFragment, __half, wmma::row_major> b;
        wmma::load_matrix_sync(a, p_tile + my_rows * kBlockCols + j, kBlockCols);
        wmma::load_matrix_sync(b, v_tile + j * D + c, D);
        wmma::mma_sync(o, a, b, o);
      }
      wmma::store_matrix_sync(o_tile + my_rows * D + c, o, D, wmma::mem_row_major);
    }
  }
  __syncthreads();

  for (int e = threadIdx.x; e < kBlockRows * D; e += blockDim.x) {
    const int r = e / D, i = row0 + r;
    if (i >= n) continue;
    const bool seen = row_sum[r] > 0.0f;
    out[(bh * n + i) * D + e % D] = seen ? o_tile[e] / row_sum[r] : 0.0f;
    if (e % D == 0) lse[bh * n + i] = seen ? row_max[r] + logf(row_sum[r]) : -INFINITY;
  }
}

inline std::vector<__half> to_half(const std::vector<float>& values) {
  std::vector<__half> halves(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) halves[i] = __float2half(values[i]);
  return halves;
}

template <int D>
AttentionResult launch(const Tensor4& q, const Tensor4& k, const Tensor4& v, bool causal) {
  using rooflab::cuda::ceil_div;
  using rooflab::cuda::DeviceBuffer;
  const int n = static_cast<int>(q.rows()), m = static_cast<int>(k.rows());
  const int matrices = static_cast<int>(q.matrices());
  const std::size_t rows = static_cast<std::size_t>(matrices) * n;
  const DeviceBuffer<__half> device_q(to_half(q.data)), device_k(to_half(k.data)), device_v(to_half(v.data));
  DeviceBuffer<float> out(rows * D);
  DeviceBuffer<float> lse(rows);
  // More than the default 48 KiB of shared memory: the kernel has to opt in.
  const std::size_t bytes = shared_bytes<D>();
  ROOFLAB_CUDA_CHECK(cudaFuncSetAttribute(flash_forward_tensor_core_unpadded<D>,
                                          cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
  const dim3 grid(ceil_div(n, kBlockRows), matrices);
  flash_forward_tensor_core_unpadded<D><<<grid, kWarps * 32, bytes>>>(device_q.get(), device_k.get(), device_v.get(),
                                                                      out.get(), lse.get(), n, m,
                                                                      1.0f / std::sqrt(static_cast<float>(D)), causal);
  ROOFLAB_CUDA_CHECK(cudaGetLastError());
  return {Tensor4{{q.batch(), q.heads(), q.rows(), D}, out.to_host()}, lse.to_host()};
}

}  // namespace

AttentionResult flash_attention_tensor_core_unpadded(const Tensor4& q, const Tensor4& k, const Tensor4& v,
                                                     bool causal) {
  require_valid(q, k, v);
  require_tensor_core_head_dim(q, v);
  return q.cols() == 64 ? launch<64>(q, k, v, causal) : launch<128>(q, k, v, causal);
}

}  // namespace a05_cuda_attention::ladder
