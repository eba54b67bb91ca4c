// Adversarial submission: split-K flash attention whose last block reads the
// other split's partials with no __threadfence() between their stores and
// the ticket: on a GPU the partials may not have reached it (a race between
// blocks, which the CPU runtime must report naming both lines). With the
// fence it would be correct.
// a05_cuda_attention, part 2: flash attention's forward pass, split over the
// keys (flash-decoding's split-K): block (row tile, b·h, split) runs the
// online softmax of its tile's rows over its half of the keys and stores the
// partial (max, sum, weighted sum of V) in device memory; the block that
// takes the last ticket of its row tile merges the halves into O and lse.
#include <cmath>
#include <vector>

#include "a05_cuda_attention/cuda_attention.hpp"
#include "rooflab/cuda_helpers.hpp"
#include "rooflab/not_implemented.hpp"

namespace a05_cuda_attention {
namespace {

constexpr int kBlockRows = 32;  // query rows per block (its threads)
constexpr int kBlockCols = 16;  // keys per streamed K/V tile
constexpr int kSplits = 2;      // blocks per row tile, each over its share of the keys

__host__ __device__ constexpr int q_stride(int d) { return d + 1; }
constexpr std::size_t shared_bytes(int d, int dv) {
  return sizeof(float) * (static_cast<std::size_t>(kBlockRows) * q_stride(d) +
                          static_cast<std::size_t>(kBlockCols) * d + static_cast<std::size_t>(kBlockCols) * dv);
}

// Partials of tile `tile` (blockIdx.y · gridDim.x + blockIdx.x), split s,
// row r of the tile: partial_max/partial_sum[(tile · kSplits + s) ·
// kBlockRows + r], partial_acc[…same… · dv + c]. tickets[tile] counts the
// splits that finished.
__global__ void flash_forward(const float* q, const float* k, const float* v, float* out, float* lse,
                              float* partial_max, float* partial_sum, float* partial_acc, unsigned* tickets, int n,
                              int m, int d, int dv, float scale, bool causal) {
  extern __shared__ float shared[];
  float* q_tile = shared;
  float* k_tile = q_tile + kBlockRows * q_stride(d);
  float* v_tile = k_tile + kBlockCols * d;
  __shared__ bool last;
  const long long bh = blockIdx.y;
  const int split = static_cast<int>(blockIdx.z);
  const long long tile = bh * gridDim.x + blockIdx.x;
  const int row0 = blockIdx.x * kBlockRows;
  const int t = threadIdx.x;
  const int row = row0 + t;
  const float* q_rows = q + bh * n * d;
  const float* k_rows = k + bh * m * d;
  const float* v_rows = v + bh * m * dv;
  for (int e = t; e < kBlockRows * d; e += blockDim.x) {
    const int r = e / d, c = e % d;
    q_tile[r * q_stride(d) + c] = row0 + r < n ? q_rows[static_cast<long long>(row0 + r) * d + c] : 0.0f;
  }
  float row_max = -INFINITY, row_sum = 0.0f;
  float acc[kMaxHeadDim];
  for (int c = 0; c < dv; ++c) acc[c] = 0.0f;
  const int visible = causal ? max(0, min(m, row0 + kBlockRows + (m - n))) : m;
  const int chunk = (m + kSplits - 1) / kSplits;
  const int key_begin = split * chunk, key_end = min(visible, key_begin + chunk);
  for (int key0 = key_begin; key0 < key_end; key0 += kBlockCols) {
    __syncthreads();
    for (int e = t; e < kBlockCols * d; e += blockDim.x) {
      const int j = key0 + e / d;
      k_tile[e] = j < key_end ? k_rows[static_cast<long long>(j) * d + e % d] : 0.0f;
    }
    for (int e = t; e < kBlockCols * dv; e += blockDim.x) {
      const int j = key0 + e / dv;
      v_tile[e] = j < key_end ? v_rows[static_cast<long long>(j) * dv + e % dv] : 0.0f;
    }
    __syncthreads();
    if (row >= n) continue;
    float scores[kBlockCols];
    float tile_max = -INFINITY;
    for (int j = 0; j < kBlockCols; ++j) {
      const int key = key0 + j;
      scores[j] = -INFINITY;
      if (key < key_end && !(causal && key > row + (m - n))) {
        float dot = 0.0f;
        for (int c = 0; c < d; ++c) dot += q_tile[t * q_stride(d) + c] * k_tile[j * d + c];
        scores[j] = dot * scale;
      }
      tile_max = fmaxf(tile_max, scores[j]);
    }
    const float new_max = fmaxf(row_max, tile_max);
    if (new_max == -INFINITY) continue;
    const float rescale = expf(row_max - new_max);
    row_sum *= rescale;
    for (int c = 0; c < dv; ++c) acc[c] *= rescale;
    for (int j = 0; j < kBlockCols; ++j) {
      const float p = expf(scores[j] - new_max);
      row_sum += p;
      for (int c = 0; c < dv; ++c) acc[c] += p * v_tile[j * dv + c];
    }
    row_max = new_max;
  }
  const long long slot = (tile * kSplits + split) * kBlockRows + t;
  if (row < n) {
    partial_max[slot] = row_max;
    partial_sum[slot] = row_sum;
    for (int c = 0; c < dv; ++c) partial_acc[slot * dv + c] = acc[c];
  }
  __syncthreads();  // every thread's partial is stored before the ticket is taken
  if (t == 0) last = atomicAdd(&tickets[tile], 1u) == kSplits - 1;
  __syncthreads();
  if (!last || row >= n) return;
  // The last split of the tile: merge every split's partial for this row.
  float top = -INFINITY;
  for (int s = 0; s < kSplits; ++s) top = fmaxf(top, partial_max[(tile * kSplits + s) * kBlockRows + t]);
  float* out_row = out + (bh * n + row) * dv;
  if (top == -INFINITY) {
    for (int c = 0; c < dv; ++c) out_row[c] = 0.0f;
    lse[bh * n + row] = -INFINITY;
    return;
  }
  float sum = 0.0f;
  for (int c = 0; c < dv; ++c) acc[c] = 0.0f;
  for (int s = 0; s < kSplits; ++s) {
    const long long other = (tile * kSplits + s) * kBlockRows + t;
    if (partial_max[other] == -INFINITY) continue;
    const float weight = expf(partial_max[other] - top);
    sum += partial_sum[other] * weight;
    for (int c = 0; c < dv; ++c) acc[c] += partial_acc[other * dv + c] * weight;
  }
  for (int c = 0; c < dv; ++c) out_row[c] = acc[c] / sum;
  lse[bh * n + row] = top + logf(sum);
}

}  // namespace

AttentionResult flash_attention_cuda(const Tensor4& q, const Tensor4& k, const Tensor4& v, bool causal) {
  require_valid(q, k, v);
  require_flash_head_dim(q, v);
  using rooflab::cuda::ceil_div;
  using rooflab::cuda::DeviceBuffer;
  const int n = static_cast<int>(q.rows()), m = static_cast<int>(k.rows());
  const int d = static_cast<int>(q.cols()), dv = static_cast<int>(v.cols());
  const int matrices = static_cast<int>(q.matrices());
  const std::size_t rows = static_cast<std::size_t>(matrices) * n;
  const std::size_t tiles = static_cast<std::size_t>(ceil_div(n, kBlockRows)) * matrices;
  const DeviceBuffer<float> device_q(q.data), device_k(k.data), device_v(v.data);
  DeviceBuffer<float> out(rows * dv), lse(rows);
  DeviceBuffer<float> partial_max(tiles * kSplits * kBlockRows), partial_sum(tiles * kSplits * kBlockRows);
  DeviceBuffer<float> partial_acc(tiles * kSplits * kBlockRows * dv);
  DeviceBuffer<unsigned> tickets(tiles);
  ROOFLAB_CUDA_CHECK(cudaMemset(tickets.get(), 0, tiles * sizeof(unsigned)));
  const std::size_t bytes = shared_bytes(d, dv);
  rooflab::cuda::require_shared_memory(bytes, "q");
  const dim3 grid(ceil_div(n, kBlockRows), matrices, kSplits);
  flash_forward<<<grid, kBlockRows, bytes>>>(device_q.get(), device_k.get(), device_v.get(), out.get(), lse.get(),
                                             partial_max.get(), partial_sum.get(), partial_acc.get(), tickets.get(), n,
                                             m, d, dv, 1.0f / std::sqrt(static_cast<float>(d)), causal);
  ROOFLAB_CUDA_CHECK(cudaGetLastError());
  return {Tensor4{{q.batch(), q.heads(), q.rows(), v.cols()}, out.to_host()}, lse.to_host()};
}

}  // namespace a05_cuda_attention
