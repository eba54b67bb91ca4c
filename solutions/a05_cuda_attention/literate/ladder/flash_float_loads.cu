// The ladder's second fp32 flash kernel (a05's reference on 2026-11-28,
// commit 7283744), kept to be measured beside the kernel that replaced it:
// the work split as FlashAttention-2 splits it (4 warps over 64 rows, a 4 × 4
// register tile of scores per lane, shuffles for the row's max and sum, P
// through shared memory within a warp), but every load and store one float.
// A warp made about four times the shared-memory requests of
// src/flash_attention.cu, which reads float4s, and four times the requests
// to device memory; the GPU model put it short of twice the standard kernels
// on an H100, and today's, with float4s, past it.
//
// One thread block per (tile of kBlockRows query rows, b·h); K and V stream
// through shared memory kBlockCols keys at a time; each row's online softmax
// (m, l, acc) stays in registers, as in src/flash_attention.cu.
#include <cmath>
#include <vector>

#include "a05_cuda_attention/cuda_attention.hpp"
#include "ladder/ladder.hpp"
#include "rooflab/cuda_helpers.hpp"  // keep: ROOFLAB_CUDA_CHECK, ceil_div, require_shared_memory

namespace a05_cuda_attention::ladder {
namespace {

constexpr int kWarps = 4;                               // warps per block
constexpr int kThreads = kWarps * 32;                   // threads per block
constexpr int kRowsPerWarp = 16;                        // query rows each warp owns
constexpr int kBlockRows = kWarps * kRowsPerWarp;       // B_r = 64 query rows per block
constexpr int kBlockCols = 32;                          // B_c: keys per streamed K/V tile
constexpr int kRowGroups = 4, kColGroups = 8;           // a warp's lanes as a 4 × 8 grid
constexpr int kThreadRows = kRowsPerWarp / kRowGroups;  // rows per lane: row_group + 4·i
constexpr int kThreadKeys = kBlockCols / kColGroups;    // keys per lane: col_group + 8·j
constexpr int kThreadCols = kMaxHeadDim / kColGroups;   // output columns per lane: col_group + 8·c
constexpr int kPStride = kBlockCols + 8;                // P's row stride (see the bank conflicts above)

// Row strides and sizes of the shared tiles for head dims d and d_v: Q (kBlockRows × (d + 1)),
// K (kBlockCols × (d + 1)), V (kBlockCols × d_v), P (kBlockRows × kPStride).
__host__ __device__ constexpr int qk_stride(int d) { return d + 1; }
constexpr std::size_t shared_bytes(int d, int dv) {
  return sizeof(float) * (static_cast<std::size_t>(kBlockRows + kBlockCols) * qk_stride(d) +
                          static_cast<std::size_t>(kBlockCols) * dv + static_cast<std::size_t>(kBlockRows) * kPStride);
}

// The max (or sum) of the 8 lanes that share a row: lanes 1, 2 and 4 apart.
__device__ float max_over_row(float value) {
  for (int offset = 1; offset < kColGroups; offset *= 2)
    value = fmaxf(value, __shfl_xor_sync(0xffffffffu, value, offset));
  return value;
}
__device__ float sum_over_row(float value) {
  for (int offset = 1; offset < kColGroups; offset *= 2) value += __shfl_xor_sync(0xffffffffu, value, offset);
  return value;
}

// out (bh, n, dv) and lse (bh, n) for the rows blockIdx.x·kBlockRows… of
// bh = blockIdx.y. Keys past m, and with the causal mask keys j > i + (m − n),
// score −∞. A row that sees no key writes 0 and lse −∞. scale_log2 is
// log₂e / √d: scores come out in base 2.
__global__ void flash_forward_float_loads(const float* q, const float* k, const float* v, float* out, float* lse, int n,
                                          int m, int d, int dv, float scale_log2, bool causal) {
  extern __shared__ float shared[];
  const int qk = qk_stride(d);
  float* q_tile = shared;                    // kBlockRows × (d + 1)
  float* k_tile = q_tile + kBlockRows * qk;  // kBlockCols × (d + 1)
  float* v_tile = k_tile + kBlockCols * qk;  // kBlockCols × dv
  float* p_tile = v_tile + kBlockCols * dv;  // kBlockRows × kPStride
  const long long bh = blockIdx.y;
  const int row0 = blockIdx.x * kBlockRows;
  const int t = threadIdx.x, lane = t % 32;
  const int row_group = lane / kColGroups, col_group = lane % kColGroups;
  const int first_row = (t / 32) * kRowsPerWarp + row_group;  // this lane's rows in the tile: first_row + 4·i
  const float* q_rows = q + bh * n * d;
  const float* k_rows = k + bh * m * d;
  const float* v_rows = v + bh * m * dv;

  // Consecutive threads load consecutive floats (coalesced); rows past n are 0.
  for (int e = t; e < kBlockRows * d; e += kThreads) {
    const int r = e / d, c = e % d;
    q_tile[r * qk + c] = row0 + r < n ? q_rows[static_cast<long long>(row0 + r) * d + c] : 0.0f;
  }

  float row_max[kThreadRows];  // m, in base 2, the same in the row's 8 lanes
  float row_sum[kThreadRows];  // this lane's part of l
  float acc[kThreadRows][kThreadCols];
  for (int i = 0; i < kThreadRows; ++i) {
    row_max[i] = -INFINITY;
    row_sum[i] = 0.0f;
#pragma unroll
    for (int c = 0; c < kThreadCols; ++c) acc[i][c] = 0.0f;
  }

  // With the causal mask no row of this tile sees a key past
  // row0 + kBlockRows − 1 + (m − n): the tiles after it are skipped. The bound
  // is the block's, so every thread runs the same iterations and barriers.
  const int key_end = causal ? max(0, min(m, row0 + kBlockRows + (m - n))) : m;
  for (int key0 = 0; key0 < key_end; key0 += kBlockCols) {
    __syncthreads();  // the Q tile is loaded; everyone is done with the last K, V and P
    for (int e = t; e < kBlockCols * d; e += kThreads) {
      const int j = key0 + e / d;
      k_tile[(e / d) * qk + e % d] = j < m ? k_rows[static_cast<long long>(j) * d + e % d] : 0.0f;
    }
    for (int e = t; e < kBlockCols * dv; e += kThreads) {
      const int j = key0 + e / dv;
      v_tile[e] = j < m ? v_rows[static_cast<long long>(j) * dv + e % dv] : 0.0f;
    }
    __syncthreads();  // the K/V tile is complete

    // S = Q Kᵀ for this lane's 4 rows × 4 keys: per column of d, 4 + 4
    // shared loads feed 16 multiply-adds.
    float s[kThreadRows][kThreadKeys] = {};
    for (int c = 0; c < d; ++c) {
      float q_value[kThreadRows], k_value[kThreadKeys];
      for (int i = 0; i < kThreadRows; ++i) q_value[i] = q_tile[(first_row + kRowGroups * i) * qk + c];
      for (int j = 0; j < kThreadKeys; ++j) k_value[j] = k_tile[(col_group + kColGroups * j) * qk + c];
      for (int i = 0; i < kThreadRows; ++i)
        for (int j = 0; j < kThreadKeys; ++j) s[i][j] += q_value[i] * k_value[j];
    }

    // The online softmax, row by row: mask, the tile's max over the row's 8
    // lanes, rescale what the row holds, and P = 2^(s − m') into shared memory.
    for (int i = 0; i < kThreadRows; ++i) {
      const int row = row0 + first_row + kRowGroups * i;
      float tile_max = -INFINITY;
      for (int j = 0; j < kThreadKeys; ++j) {
        const int key = key0 + col_group + kColGroups * j;
        const bool visible = key < m && !(causal && key > row + (m - n));
        s[i][j] = visible ? s[i][j] * scale_log2 : -INFINITY;
        tile_max = fmaxf(tile_max, s[i][j]);
      }
      const float new_max = fmaxf(row_max[i], max_over_row(tile_max));
      // Nothing visible yet: keep the −∞ max and rescale by 1 (2^(−∞ − (−∞)) would be NaN).
      const float rescale = new_max == -INFINITY ? 1.0f : exp2f(row_max[i] - new_max);  // 0 the first time
      row_sum[i] *= rescale;
#pragma unroll
      for (int c = 0; c < kThreadCols; ++c) acc[i][c] *= rescale;
      row_max[i] = new_max;
      for (int j = 0; j < kThreadKeys; ++j) {
        const float p = s[i][j] == -INFINITY ? 0.0f : exp2f(s[i][j] - new_max);
        row_sum[i] += p;
        p_tile[(first_row + kRowGroups * i) * kPStride + col_group + kColGroups * j] = p;
      }
    }
    __syncwarp();  // the warp's P rows are written

    // O += P V: per key, 4 loads of P (one per row) and up to 16 of V feed up to 64 multiply-adds.
    for (int j = 0; j < kBlockCols; ++j) {
      float p[kThreadRows];
      for (int i = 0; i < kThreadRows; ++i) p[i] = p_tile[(first_row + kRowGroups * i) * kPStride + j];
#pragma unroll
      for (int c = 0; c < kThreadCols; ++c) {
        const int col = col_group + kColGroups * c;
        if (col >= dv) break;
        const float v_value = v_tile[j * dv + col];
        for (int i = 0; i < kThreadRows; ++i) acc[i][c] += p[i] * v_value;
      }
    }
  }

  // l is the sum of the row's 8 parts. The 8 lanes of a row store 8
  // consecutive floats of it at a time: each store request writes 4 rows'
  // 32-byte pieces, 4 sectors, the fewest 128 bytes can take.
  for (int i = 0; i < kThreadRows; ++i) {
    const float sum = sum_over_row(row_sum[i]);
    const int row = row0 + first_row + kRowGroups * i;
    if (row >= n) continue;
    const bool seen = sum > 0.0f;
    float* out_row = out + (bh * n + row) * dv;
#pragma unroll
    for (int c = 0; c < kThreadCols; ++c) {
      const int col = col_group + kColGroups * c;
      if (col >= dv) break;
      out_row[col] = seen ? acc[i][c] / sum : 0.0f;
    }
    if (col_group == 0) lse[bh * n + row] = seen ? (row_max[i] + log2f(sum)) * 0.6931471805599453f : -INFINITY;
  }
}

}  // namespace

AttentionResult flash_attention_float_loads(const Tensor4& q, const Tensor4& k, const Tensor4& v, bool causal) {
  require_valid(q, k, v);
  require_flash_head_dim(q, v);
  using rooflab::cuda::ceil_div;
  using rooflab::cuda::DeviceBuffer;
  const int n = static_cast<int>(q.rows()), m = static_cast<int>(k.rows());
  const int d = static_cast<int>(q.cols()), dv = static_cast<int>(v.cols());
  const int matrices = static_cast<int>(q.matrices());
  const std::size_t rows = static_cast<std::size_t>(matrices) * n;
  const DeviceBuffer<float> device_q(q.data), device_k(k.data), device_v(v.data);
  DeviceBuffer<float> out(rows * dv);
  DeviceBuffer<float> lse(rows);

  // Past 48 KiB of shared memory (d or d_v above 64) the kernel has to opt in.
  const std::size_t bytes = shared_bytes(d, dv);
  ROOFLAB_CUDA_CHECK(cudaFuncSetAttribute(flash_forward_float_loads, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          static_cast<int>(bytes)));
  const dim3 grid(ceil_div(n, kBlockRows), matrices);
  const float scale_log2 = 1.4426950408889634f / std::sqrt(static_cast<float>(d));  // log₂e / √d
  flash_forward_float_loads<<<grid, kThreads, bytes>>>(device_q.get(), device_k.get(), device_v.get(), out.get(),
                                                       lse.get(), n, m, d, dv, scale_log2, causal);
  ROOFLAB_CUDA_CHECK(cudaGetLastError());

  return {Tensor4{{q.batch(), q.heads(), q.rows(), v.cols()}, out.to_host()}, lse.to_host()};
}

}  // namespace a05_cuda_attention::ladder
