// Adversarial submission: weighted_values adds its sums into the output with
// atomicAdd, and nothing ever zeroed the output (no cudaMemset): on a GPU it
// holds whatever cudaMalloc left there. The CPU runtime's initcheck must fail it.
// a05_cuda_attention, part 1: standard attention as three kernels.
//
//   S = Q Kᵀ/√d (masked)   attention_scores   B·H·N·M floats written
//   P = softmax(S) by row   softmax_rows       read and written in place
//   O = P V                 weighted_values    read once more
//
// Every kernel is simple, and together they move the N×M scores through
// device memory three times: that traffic is what flash attention (part 2)
// removes. Kernels sit in an anonymous namespace: only the launcher at the
// bottom is the contract.
#include <cmath>
#include <vector>

#include "a05_cuda_attention/cuda_attention.hpp"
#include "rooflab/cuda_helpers.hpp"  // keep: ROOFLAB_CUDA_CHECK, ceil_div, require_shared_memory
#include "rooflab/not_implemented.hpp"

namespace a05_cuda_attention {
namespace {

// The output tile of the two matrix products: kTile × kTile elements, one
// thread each.
constexpr int kTile = 16;
// Rows the softmax kernel handles per block: one warp each.
constexpr int kSoftmaxRowsPerBlock = 4;

// S[bh][i][j] = scale · Σ_c Q[bh][i][c] · K[bh][j][c], or −∞ where the causal
// mask hides key j from query i (j > i + (m − n)).
// Block (kTile, kTile) computes one tile of S: rows blockIdx.y·kTile…, keys
// blockIdx.x·kTile…, for bh = blockIdx.z. Q's rows and K's rows pass through
// shared memory kTile columns of d at a time, so each value read from device
// memory is used kTile times.
__global__ void attention_scores(const float* q, const float* k, float* scores, int n, int m, int d, float scale,
                                 bool causal) {
  // +1 column: the threads of a warp read k_tile down a column (k_tile[x][t]);
  // with 17 floats per row those reads fall in 16 different banks.
  __shared__ float q_tile[kTile][kTile + 1];
  __shared__ float k_tile[kTile][kTile + 1];
  const long long bh = blockIdx.z;
  const int row = blockIdx.y * kTile + threadIdx.y;  // query i
  const int key = blockIdx.x * kTile + threadIdx.x;  // key j
  const float* q_rows = q + bh * n * d;
  const float* k_rows = k + bh * m * d;
  // The K row this thread loads (the tile's keys, one per threadIdx.y).
  const int loaded_key = blockIdx.x * kTile + threadIdx.y;
  float sum = 0.0f;
  for (int c0 = 0; c0 < d; c0 += kTile) {
    // Neighbouring threadIdx.x read neighbouring columns of one row: coalesced.
    const int c = c0 + threadIdx.x;
    q_tile[threadIdx.y][threadIdx.x] = (row < n && c < d) ? q_rows[static_cast<long long>(row) * d + c] : 0.0f;
    k_tile[threadIdx.y][threadIdx.x] =
        (loaded_key < m && c < d) ? k_rows[static_cast<long long>(loaded_key) * d + c] : 0.0f;
    __syncthreads();  // the tiles are complete before anyone reads them
    for (int t = 0; t < kTile; ++t) sum += q_tile[threadIdx.y][t] * k_tile[threadIdx.x][t];
    __syncthreads();  // everyone is done reading before the next columns overwrite them
  }
  if (row < n && key < m) {
    const bool hidden = causal && key > row + (m - n);
    scores[(bh * n + row) * m + key] = hidden ? -INFINITY : sum * scale;
  }
}

// The largest of the 32 lanes' x, in every lane: five butterfly exchanges.
__device__ float warp_max(float x) {
  for (int offset = 16; offset > 0; offset /= 2) x = fmaxf(x, __shfl_xor_sync(0xffffffffu, x, offset));
  return x;
}

// The sum of the 32 lanes' x, in every lane.
__device__ float warp_sum(float x) {
  for (int offset = 16; offset > 0; offset /= 2) x += __shfl_xor_sync(0xffffffffu, x, offset);
  return x;
}

// Row r of `scores` (rows × m) becomes softmax(row) in place, and
// lse[r] = max + log Σ_j exp(s_j − max). One warp per row: each lane strides
// over the row, then the warp combines its lanes' max and sum by shuffles.
// A row whose every score is −∞ becomes 0 with lse −∞.
__global__ void softmax_rows(float* scores, float* lse, long long rows, int m) {
  const long long row = static_cast<long long>(blockIdx.x) * (blockDim.x / warpSize) + threadIdx.x / warpSize;
  if (row >= rows) return;  // the whole warp leaves together: its shuffles stay full
  const int lane = threadIdx.x % warpSize;
  float* s = scores + row * m;
  float row_max = -INFINITY;
  for (int j = lane; j < m; j += warpSize) row_max = fmaxf(row_max, s[j]);
  row_max = warp_max(row_max);
  if (row_max == -INFINITY) {  // no visible key: exp(−∞ − (−∞)) would be NaN
    for (int j = lane; j < m; j += warpSize) s[j] = 0.0f;
    if (lane == 0) lse[row] = -INFINITY;
    return;
  }
  float sum = 0.0f;
  for (int j = lane; j < m; j += warpSize) sum += expf(s[j] - row_max);
  sum = warp_sum(sum);
  const float inverse = 1.0f / sum;
  for (int j = lane; j < m; j += warpSize) s[j] = expf(s[j] - row_max) * inverse;
  if (lane == 0) lse[row] = row_max + logf(sum);
}

// O[bh][i][c] = Σ_j P[bh][i][j] · V[bh][j][c]. Block (kTile, kTile) computes
// rows blockIdx.y·kTile… and columns blockIdx.x·kTile… of O for
// bh = blockIdx.z, streaming P's columns and V's rows through shared memory.
// With the causal mask, the keys past the tile's last row (P = 0) are skipped.
__global__ void weighted_values(const float* probabilities, const float* v, float* out, int n, int m, int dv,
                                bool causal) {
  __shared__ float p_tile[kTile][kTile];
  __shared__ float v_tile[kTile][kTile];
  const long long bh = blockIdx.z;
  const int row = blockIdx.y * kTile + threadIdx.y;
  const int col = blockIdx.x * kTile + threadIdx.x;
  const float* p_rows = probabilities + bh * n * m;
  const float* v_rows = v + bh * m * dv;
  // The same bound for the whole block, so every thread reaches the barriers.
  int key_end = m;
  if (causal) key_end = max(0, min(m, static_cast<int>(blockIdx.y + 1) * kTile + (m - n)));
  float sum = 0.0f;
  for (int j0 = 0; j0 < key_end; j0 += kTile) {
    const int p_col = j0 + threadIdx.x, v_row = j0 + threadIdx.y;
    p_tile[threadIdx.y][threadIdx.x] = (row < n && p_col < m) ? p_rows[static_cast<long long>(row) * m + p_col] : 0.0f;
    v_tile[threadIdx.y][threadIdx.x] =
        (v_row < m && col < dv) ? v_rows[static_cast<long long>(v_row) * dv + col] : 0.0f;
    __syncthreads();
    // p_tile[y][t]: one value for the whole row of threads (a broadcast);
    // v_tile[t][x]: neighbouring threads, neighbouring banks.
    for (int t = 0; t < kTile; ++t) sum += p_tile[threadIdx.y][t] * v_tile[t][threadIdx.x];
    __syncthreads();
  }
  // Accumulates into the output, which nobody zeroed: cudaMalloc gives garbage.
  if (row < n && col < dv) atomicAdd(&out[(bh * n + row) * dv + col], sum);
}

}  // namespace

AttentionResult standard_attention_cuda(const Tensor4& q, const Tensor4& k, const Tensor4& v, bool causal) {
  require_valid(q, k, v);
  using rooflab::cuda::ceil_div;
  using rooflab::cuda::DeviceBuffer;
  const int n = static_cast<int>(q.rows()), m = static_cast<int>(k.rows());
  const int d = static_cast<int>(q.cols()), dv = static_cast<int>(v.cols());
  const int matrices = static_cast<int>(q.matrices());
  const long long rows = static_cast<long long>(matrices) * n;
  const DeviceBuffer<float> device_q(q.data), device_k(k.data), device_v(v.data);
  DeviceBuffer<float> scores(static_cast<std::size_t>(rows) * m);
  DeviceBuffer<float> out(static_cast<std::size_t>(rows) * dv);
  DeviceBuffer<float> lse(static_cast<std::size_t>(rows));
  const float scale = 1.0f / std::sqrt(static_cast<float>(d));

  const dim3 tile(kTile, kTile);
  const dim3 score_grid(ceil_div(m, kTile), ceil_div(n, kTile), matrices);
  attention_scores<<<score_grid, tile>>>(device_q.get(), device_k.get(), scores.get(), n, m, d, scale, causal);
  ROOFLAB_CUDA_CHECK(cudaGetLastError());

  const long long softmax_blocks = ceil_div(rows, static_cast<long long>(kSoftmaxRowsPerBlock));
  const dim3 softmax_grid(static_cast<unsigned>(softmax_blocks));
  const dim3 softmax_block(kSoftmaxRowsPerBlock * 32);
  softmax_rows<<<softmax_grid, softmax_block>>>(scores.get(), lse.get(), rows, m);
  ROOFLAB_CUDA_CHECK(cudaGetLastError());

  const dim3 value_grid(ceil_div(dv, kTile), ceil_div(n, kTile), matrices);
  weighted_values<<<value_grid, tile>>>(scores.get(), device_v.get(), out.get(), n, m, dv, causal);
  ROOFLAB_CUDA_CHECK(cudaGetLastError());

  return {Tensor4{{q.batch(), q.heads(), q.rows(), v.cols()}, out.to_host()}, lse.to_host()};
}

}  // namespace a05_cuda_attention
