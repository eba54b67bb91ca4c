// Adversarial submission, legal: each softmax row is split over two blocks
// that combine their partials through the CUDA Programming Guide's
// __threadfence() pattern (plain stores, a fence, an atomic ticket, the last
// block reads). A GPU runs it; it keeps every point.
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
// Blocks per softmax row, each over its share of the columns.
constexpr int kSplits = 2;

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
// lse[r] = max + log Σ_j exp(s_j − max), by kSplits blocks of one warp per
// row, each over its share of the columns: each stores its partial max and
// sum, fences (the CUDA Programming Guide's __threadfence() pattern) and takes
// a ticket; the block that takes the row's last ticket combines the partials
// and writes the whole row. A row whose every score is −∞ becomes 0, lse −∞.
__global__ void softmax_rows(float* scores, float* lse, float* partial_max, float* partial_sum, unsigned* tickets,
                             long long rows, int m) {
  __shared__ bool last;
  const long long row = blockIdx.x;
  const int split = static_cast<int>(blockIdx.y), lane = threadIdx.x;
  if (row >= rows) return;  // the whole block: no barrier below is left waiting
  float* s = scores + row * m;
  const int chunk = (m + kSplits - 1) / kSplits;
  const int begin = split * chunk, end = min(m, begin + chunk);
  float part_max = -INFINITY;
  for (int j = begin + lane; j < end; j += warpSize) part_max = fmaxf(part_max, s[j]);
  part_max = warp_max(part_max);
  float part_sum = 0.0f;
  if (part_max != -INFINITY)
    for (int j = begin + lane; j < end; j += warpSize) part_sum += expf(s[j] - part_max);
  part_sum = warp_sum(part_sum);
  __syncwarp();  // every lane's reads of its columns come before lane 0's fence
  if (lane == 0) {
    partial_max[row * kSplits + split] = part_max;
    partial_sum[row * kSplits + split] = part_sum;
    __threadfence();  // the partials (and this block's reads) reach every block before the ticket does
    last = atomicAdd(&tickets[row], 1u) == kSplits - 1;
  }
  __syncthreads();
  if (!last) return;
  float row_max = -INFINITY;
  for (int p = 0; p < kSplits; ++p) row_max = fmaxf(row_max, partial_max[row * kSplits + p]);
  if (row_max == -INFINITY) {  // no visible key: exp(−∞ − (−∞)) would be NaN
    for (int j = lane; j < m; j += warpSize) s[j] = 0.0f;
    if (lane == 0) lse[row] = -INFINITY;
    return;
  }
  float sum = 0.0f;
  for (int p = 0; p < kSplits; ++p)
    if (partial_max[row * kSplits + p] != -INFINITY)
      sum += partial_sum[row * kSplits + p] * expf(partial_max[row * kSplits + p] - row_max);
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
  if (row < n && col < dv) out[(bh * n + row) * dv + col] = sum;
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

  DeviceBuffer<float> partial_max(static_cast<std::size_t>(rows) * kSplits);
  DeviceBuffer<float> partial_sum(static_cast<std::size_t>(rows) * kSplits);
  DeviceBuffer<unsigned> tickets(static_cast<std::size_t>(rows));
  ROOFLAB_CUDA_CHECK(cudaMemset(tickets.get(), 0, static_cast<std::size_t>(rows) * sizeof(unsigned)));
  const dim3 softmax_grid(static_cast<unsigned>(rows), kSplits);
  softmax_rows<<<softmax_grid, 32>>>(scores.get(), lse.get(), partial_max.get(), partial_sum.get(), tickets.get(), rows,
                                     m);
  ROOFLAB_CUDA_CHECK(cudaGetLastError());

  const dim3 value_grid(ceil_div(dv, kTile), ceil_div(n, kTile), matrices);
  weighted_values<<<value_grid, tile>>>(scores.get(), device_v.get(), out.get(), n, m, dv, causal);
  ROOFLAB_CUDA_CHECK(cudaGetLastError());

  return {Tensor4{{q.batch(), q.heads(), q.rows(), v.cols()}, out.to_host()}, lse.to_host()};
}

}  // namespace a05_cuda_attention
