// The ladder's first fp32 flash kernel (a05's reference until 2026-11-28,
// commit ffe2c5e), kept to be measured beside the kernels that replaced it
// and to calibrate the GPU model (gpu_model_calibration.hpp): on an H100 it
// ran at 1-2 TFLOP/s, slower than the three standard kernels.
//
// One thread per query row, 32 rows a block: at N = 1024 and B·H = 16 that
// is 512 blocks of one warp, 4 a multiprocessor, one warp for each of its
// four schedulers, and every one of a warp's shared-memory loads waits for
// the one before (the dot product is one chain of FMAs). The GPU model calls
// that latency, not bandwidth: warps too few to hide it. acc[] is indexed by
// a loop variable, so nvcc keeps it in local memory (a 512-byte stack frame
// on sm_90). src/flash_attention.cu splits the same work as
// FlashAttention-2 does: four warps over 64 rows, a 4 × 4 tile of scores per
// lane, the row's max and sum by shuffles.
//
// One thread block per (tile of kBlockRows query rows, b·h), one thread per
// row. The block loads its Q tile into shared memory once, then streams K and
// V through shared memory kBlockCols keys at a time. Each thread keeps its
// row's online softmax in registers:
//   m   the largest score seen so far
//   l   Σ exp(s_j − m) over the keys seen so far
//   acc Σ exp(s_j − m) · v_j
// and when a tile raises the max to m', rescales l and acc by exp(m − m')
// before adding the tile's terms. The output is acc / l and lse = m + log l.
#include <cmath>
#include <vector>

#include "a05_cuda_attention/cuda_attention.hpp"
#include "ladder/ladder.hpp"
#include "rooflab/cuda_helpers.hpp"  // keep: ROOFLAB_CUDA_CHECK, ceil_div, require_shared_memory

namespace a05_cuda_attention::ladder {
namespace {

constexpr int kBlockRows = 32;  // B_r: query rows per block (its threads)
constexpr int kBlockCols = 16;  // B_c: keys per streamed K/V tile

// Shared memory for head dims d and d_v: the Q tile with one float of padding
// per row (thread t reads row t, column c: with a row stride of d + 1 floats
// the 32 threads hit 32 different banks; with d, a multiple of 32, all one
// bank), then the K tile and the V tile.
__host__ __device__ constexpr int q_stride(int d) { return d + 1; }
constexpr std::size_t shared_bytes(int d, int dv) {
  return sizeof(float) * (static_cast<std::size_t>(kBlockRows) * q_stride(d) +
                          static_cast<std::size_t>(kBlockCols) * d + static_cast<std::size_t>(kBlockCols) * dv);
}

// out (bh, n, dv) and lse (bh, n) for the rows blockIdx.x·kBlockRows… of
// bh = blockIdx.y. Keys past m, and with the causal mask keys j > i + (m − n),
// score −∞. A row that sees no key writes 0 and lse −∞.
__global__ void flash_forward_one_row_per_thread(const float* q, const float* k, const float* v, float* out, float* lse,
                                                 int n, int m, int d, int dv, float scale, bool causal) {
  extern __shared__ float shared[];
  float* q_tile = shared;                             // kBlockRows × (d + 1)
  float* k_tile = q_tile + kBlockRows * q_stride(d);  // kBlockCols × d
  float* v_tile = k_tile + kBlockCols * d;            // kBlockCols × dv
  const long long bh = blockIdx.y;
  const int row0 = blockIdx.x * kBlockRows;
  const int t = threadIdx.x;
  const int row = row0 + t;
  const float* q_rows = q + bh * n * d;
  const float* k_rows = k + bh * m * d;
  const float* v_rows = v + bh * m * dv;

  // Consecutive threads load consecutive floats (coalesced); rows past n are 0.
  for (int e = t; e < kBlockRows * d; e += blockDim.x) {
    const int r = e / d, c = e % d;
    q_tile[r * q_stride(d) + c] = row0 + r < n ? q_rows[static_cast<long long>(row0 + r) * d + c] : 0.0f;
  }

  float row_max = -INFINITY;  // m
  float row_sum = 0.0f;       // l
  float acc[kMaxHeadDim];
  for (int c = 0; c < dv; ++c) acc[c] = 0.0f;

  // With the causal mask no row of this tile sees a key past
  // row0 + kBlockRows − 1 + (m − n): the tiles after it are skipped. The bound
  // is the block's, so every thread runs the same iterations and barriers.
  const int key_end = causal ? max(0, min(m, row0 + kBlockRows + (m - n))) : m;
  for (int key0 = 0; key0 < key_end; key0 += kBlockCols) {
    __syncthreads();  // the Q tile is loaded; everyone is done with the last K/V tile
    for (int e = t; e < kBlockCols * d; e += blockDim.x) {
      const int j = key0 + e / d;
      k_tile[e] = j < m ? k_rows[static_cast<long long>(j) * d + e % d] : 0.0f;
    }
    for (int e = t; e < kBlockCols * dv; e += blockDim.x) {
      const int j = key0 + e / dv;
      v_tile[e] = j < m ? v_rows[static_cast<long long>(j) * dv + e % dv] : 0.0f;
    }
    __syncthreads();         // the K/V tile is complete
    if (row >= n) continue;  // no row here, but it keeps loading tiles and meeting the barriers

    // This row's scores against the tile; every thread reads the same k_tile
    // element at once (a broadcast).
    float scores[kBlockCols];
    float tile_max = -INFINITY;
    for (int j = 0; j < kBlockCols; ++j) {
      const int key = key0 + j;
      scores[j] = -INFINITY;
      if (key < m && !(causal && key > row + (m - n))) {
        float dot = 0.0f;
        for (int c = 0; c < d; ++c) dot += q_tile[t * q_stride(d) + c] * k_tile[j * d + c];
        scores[j] = dot * scale;
      }
      tile_max = fmaxf(tile_max, scores[j]);
    }
    const float new_max = fmaxf(row_max, tile_max);
    if (new_max == -INFINITY) continue;             // nothing visible yet: exp(−∞ − (−∞)) would be NaN
    const float rescale = expf(row_max - new_max);  // 0 the first time (row_max = −∞)
    row_sum *= rescale;
    for (int c = 0; c < dv; ++c) acc[c] *= rescale;
    for (int j = 0; j < kBlockCols; ++j) {
      const float p = expf(scores[j] - new_max);  // 0 for a hidden key
      row_sum += p;
      for (int c = 0; c < dv; ++c) acc[c] += p * v_tile[j * dv + c];
    }
    row_max = new_max;
  }

  if (row < n) {
    float* out_row = out + (bh * n + row) * dv;
    const bool seen = row_sum > 0.0f;
    for (int c = 0; c < dv; ++c) out_row[c] = seen ? acc[c] / row_sum : 0.0f;
    lse[bh * n + row] = seen ? row_max + logf(row_sum) : -INFINITY;
  }
}

}  // namespace

AttentionResult flash_attention_one_row_per_thread(const Tensor4& q, const Tensor4& k, const Tensor4& v, bool causal) {
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

  const std::size_t bytes = shared_bytes(d, dv);
  rooflab::cuda::require_shared_memory(bytes, "q");
  const dim3 grid(ceil_div(n, kBlockRows), matrices);
  flash_forward_one_row_per_thread<<<grid, kBlockRows, bytes>>>(device_q.get(), device_k.get(), device_v.get(),
                                                                out.get(), lse.get(), n, m, d, dv,
                                                                1.0f / std::sqrt(static_cast<float>(d)), causal);
  ROOFLAB_CUDA_CHECK(cudaGetLastError());

  return {Tensor4{{q.batch(), q.heads(), q.rows(), v.cols()}, out.to_host()}, lse.to_host()};
}

}  // namespace a05_cuda_attention::ladder
