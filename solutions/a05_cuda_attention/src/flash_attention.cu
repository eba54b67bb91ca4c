// a05_cuda_attention, part 2: flash attention's forward pass as one kernel,
// organised as FlashAttention-2 organises it, on the ordinary (fp32) cores.
//
// The algorithm: one thread block per (tile of kBlockRows query rows, b·h).
// The block loads its Q tile into shared memory once, then streams K and V
// through shared memory kBlockCols keys at a time, and keeps each row's online
// softmax in registers:
//   m   the largest score seen so far
//   l   Σ exp(s_j − m) over the keys seen so far
//   acc Σ exp(s_j − m) · v_j
// When a tile raises the max to m', l and acc are rescaled by exp(m − m')
// before the tile's terms are added. The output is acc / l and
// lse = m + log l. The scores never reach device memory: it sees Q, K and V
// read once per row tile and O written once.
//
// The organisation, and why (a first version gave each thread a whole row,
// 32 threads per block, and ran slower than standard attention on an H100):
// - Work per thread is a small register tile, as in a good matrix product.
//   A block's kWarps warps each own kRowsPerWarp query rows. A warp's 32
//   lanes form a 4 × 8 grid: lane = row_group · 8 + col_group. A lane
//   computes the scores of kThreadRows rows (row_group + 4·i) against
//   kThreadKeys keys of the tile (col_group + 8·j), and accumulates those
//   rows' outputs in columns 32·g + 4·col_group + w (O += P V).
// - Shared memory is read 16 bytes at a time: a float4 of 4 columns of a Q
//   row and of a K row, so 4 + 4 loads feed 64 multiply-adds (S = Q Kᵀ); a
//   float4 of 4 keys of a P row and of 4 columns of a V row (O += P V).
//   Each load is a request a warp waits for; with few warps on an SM those
//   waits, not the arithmetic, set the time (chapter 6, "Below the roof").
// - The softmax's row max and sum need the 8 lanes of a row: three
//   __shfl_xor_sync steps (lanes 1, 2, 4 apart) combine them in registers.
//   The sum l is only needed at the end, so each lane keeps its own part
//   and the lanes combine them once.
// - P goes through shared memory, one warp's rows at a time: O += P V needs
//   every key's p in a row, which 8 lanes hold. The rows are the warp's own,
//   so __syncwarp orders the write and the reads; no block barrier.
// - Base-2 exponentials with the scale folded: s · scale · log₂e is one
//   multiply, and exp2f is the GPU's native exponential (expf is exp2f of a
//   product). lse converts back: (m₂ + log₂ l) · ln 2.
// - Tiles arrive in float4 pieces too: a 16-byte load and a 16-byte store
//   per lane, a quarter of the requests of single floats. That needs every
//   row of Q, K and V to start 16 bytes apart in device memory, d and d_v
//   multiples of 4; other widths go float by float. In shared memory the
//   rows are padded with zeros to a multiple of 4 (Q, K) or of 32 (V), so
//   the float4 reads work for every width.
// - Bank conflicts: a warp reads a float4 from 4 rows of the Q tile, and
//   from 8 rows of the K tile, at the same column. Their row stride is 4 ×
//   an odd number of floats (d + 4 for d = 64 or 128): the 8 rows' 16 bytes
//   land on 8 different groups of 4 banks, where d (a multiple of 32) would
//   put them all on the same 4. P's rows are 8 floats longer than its
//   kBlockCols keys, so the 4 row groups land on different banks, whether
//   the 8 lanes of a row write one float each or read one float4. V is read
//   along a row, 8 lanes' float4 side by side.
// - Enough blocks: 64-row tiles give ceil(N / 64) · B·H blocks of 128
//   threads, 256 blocks for the 132 multiprocessors of an H100 at N = 1024,
//   B·H = 16.
#include <cmath>
#include <vector>

#include "a05_cuda_attention/cuda_attention.hpp"
#include "rooflab/cuda_helpers.hpp"  // keep: ROOFLAB_CUDA_CHECK, ceil_div, require_shared_memory
#include "rooflab/not_implemented.hpp"

namespace a05_cuda_attention {
namespace {

constexpr int kWarps = 4;                               // warps per block
constexpr int kThreads = kWarps * 32;                   // threads per block
constexpr int kRowsPerWarp = 16;                        // query rows each warp owns
constexpr int kBlockRows = kWarps * kRowsPerWarp;       // B_r = 64 query rows per block
constexpr int kBlockCols = 32;                          // B_c: keys per streamed K/V tile
constexpr int kRowGroups = 4, kColGroups = 8;           // a warp's lanes as a 4 × 8 grid
constexpr int kThreadRows = kRowsPerWarp / kRowGroups;  // rows per lane: row_group + 4·i
constexpr int kThreadKeys = kBlockCols / kColGroups;    // keys per lane: col_group + 8·j
constexpr int kColumnGroups = kMaxHeadDim / 32;         // output columns 32·g + 4·col_group + w, w < 4
constexpr int kThreadCols = 4 * kColumnGroups;          // output columns per lane
constexpr int kPStride = kBlockCols + 8;                // P's row stride (see the bank conflicts above)

// Row strides and sizes of the shared tiles for head dims d and d_v: Q (kBlockRows × qk_stride(d)),
// K (kBlockCols × qk_stride(d)), V (kBlockCols × v_stride(d_v)), P (kBlockRows × kPStride).
// qk_stride(d) is 4 × an odd number of floats, at least d: d + 4 for d = 64 and 128. The rows of Q
// and K hold zeros past d up to a multiple of 4, and those of V past d_v up to a multiple of 32.
__host__ __device__ constexpr int qk_width(int d) { return (d + 3) / 4 * 4; }
__host__ __device__ constexpr int qk_stride(int d) { return 4 * (((d + 3) / 4) | 1); }
__host__ __device__ constexpr int v_stride(int dv) { return (dv + 31) / 32 * 32; }
constexpr std::size_t shared_bytes(int d, int dv) {
  return sizeof(float) *
         (static_cast<std::size_t>(kBlockRows + kBlockCols) * qk_stride(d) +
          static_cast<std::size_t>(kBlockCols) * v_stride(dv) + static_cast<std::size_t>(kBlockRows) * kPStride);
}

// 4 floats of shared memory, 16 bytes apart from a multiple of 16.
__device__ float4 load4(const float* from) { return *reinterpret_cast<const float4*>(from); }

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
// __launch_bounds__: at most 128 registers a thread, so that 4 blocks (16
// warps) fit on an SM; left to itself nvcc takes 148 for sm_90, and 3 fit.
__global__ void __launch_bounds__(kThreads, 4)
    flash_forward(const float* q, const float* k, const float* v, float* out, float* lse, int n, int m, int d, int dv,
                  float scale_log2, bool causal) {
  // BEGIN SOLUTION
  extern __shared__ float shared[];
  const int qk = qk_stride(d), vs = v_stride(dv);
  float* q_tile = shared;                    // kBlockRows × qk
  float* k_tile = q_tile + kBlockRows * qk;  // kBlockCols × qk
  float* v_tile = k_tile + kBlockCols * qk;  // kBlockCols × vs
  float* p_tile = v_tile + kBlockCols * vs;  // kBlockRows × kPStride
  const long long bh = blockIdx.y;
  const int row0 = blockIdx.x * kBlockRows;
  const int t = threadIdx.x, lane = t % 32;
  const int row_group = lane / kColGroups, col_group = lane % kColGroups;
  const int first_row = (t / 32) * kRowsPerWarp + row_group;  // this lane's rows in the tile: first_row + 4·i
  const float* q_rows = q + bh * n * d;
  const float* k_rows = k + bh * m * d;
  const float* v_rows = v + bh * m * dv;

  // Rows first… of `rows` (width floats each) into `tile` (row stride
  // `stride`), each padded with zeros to `padded` floats, rows from `limit`
  // on all zeros. Consecutive threads load consecutive pieces (coalesced):
  // float4 where every row starts 16 bytes apart, else float by float.
  const auto load_tile = [&](float* tile, int stride, const float* rows, int width, int padded, int first, int count,
                             int limit) {
    if (width % 4 == 0) {
      const int quads = padded / 4;
      for (int e = t; e < count * quads; e += kThreads) {
        const int r = e / quads, c = (e % quads) * 4;
        const float* from = rows + static_cast<long long>(first + r) * width + c;
        float4 value = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        if (first + r < limit && c < width) value = *reinterpret_cast<const float4*>(from);
        *reinterpret_cast<float4*>(tile + r * stride + c) = value;
      }
    } else {
      for (int e = t; e < count * padded; e += kThreads) {
        const int r = e / padded, c = e % padded;
        tile[r * stride + c] =
            first + r < limit && c < width ? rows[static_cast<long long>(first + r) * width + c] : 0.0f;
      }
    }
  };
  load_tile(q_tile, qk, q_rows, d, qk_width(d), row0, kBlockRows, n);

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
    load_tile(k_tile, qk, k_rows, d, qk_width(d), key0, kBlockCols, m);
    load_tile(v_tile, vs, v_rows, dv, vs, key0, kBlockCols, m);
    __syncthreads();  // the K/V tile is complete

    // S = Q Kᵀ for this lane's 4 rows × 4 keys: per 4 columns of d, 4 + 4
    // float4 loads feed 64 multiply-adds (the padding's zeros add nothing).
    float s[kThreadRows][kThreadKeys] = {};
    for (int c = 0; c < qk_width(d); c += 4) {
      float4 k_value[kThreadKeys];
      for (int j = 0; j < kThreadKeys; ++j) k_value[j] = load4(k_tile + (col_group + kColGroups * j) * qk + c);
      for (int i = 0; i < kThreadRows; ++i) {
        const float4 q_value = load4(q_tile + (first_row + kRowGroups * i) * qk + c);
        for (int j = 0; j < kThreadKeys; ++j)
          s[i][j] +=
              q_value.x * k_value[j].x + q_value.y * k_value[j].y + q_value.z * k_value[j].z + q_value.w * k_value[j].w;
      }
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

    // O += P V: per 4 keys, 4 float4 loads of P (4 keys of each row) and,
    // per key, one float4 of V per 32 columns of d_v (the padding's zeros
    // add nothing): up to 64 multiply-adds a key.
    for (int j = 0; j < kBlockCols; j += 4) {
      float p[kThreadRows][4];
      for (int i = 0; i < kThreadRows; ++i) {
        const float4 four = load4(p_tile + (first_row + kRowGroups * i) * kPStride + j);
        p[i][0] = four.x, p[i][1] = four.y, p[i][2] = four.z, p[i][3] = four.w;
      }
#pragma unroll
      for (int u = 0; u < 4; ++u) {
#pragma unroll
        for (int g = 0; g < kColumnGroups; ++g) {
          if (32 * g >= dv) break;
          const float4 v_value = load4(v_tile + (j + u) * vs + 32 * g + 4 * col_group);
          for (int i = 0; i < kThreadRows; ++i) {
            acc[i][4 * g + 0] += p[i][u] * v_value.x;
            acc[i][4 * g + 1] += p[i][u] * v_value.y;
            acc[i][4 * g + 2] += p[i][u] * v_value.z;
            acc[i][4 * g + 3] += p[i][u] * v_value.w;
          }
        }
      }
    }
  }

  // l is the sum of the row's 8 parts. The 8 lanes of a row store 32
  // consecutive floats of it at a time, a float4 each where d_v is a
  // multiple of 4: each store request writes 4 rows' 128-byte pieces, 16
  // sectors, the fewest 512 bytes can take.
  for (int i = 0; i < kThreadRows; ++i) {
    const float sum = sum_over_row(row_sum[i]);
    const int row = row0 + first_row + kRowGroups * i;
    if (row >= n) continue;
    const float scale = sum > 0.0f ? 1.0f / sum : 0.0f;  // a row that saw no key writes 0
    float* out_row = out + (bh * n + row) * dv;
#pragma unroll
    for (int g = 0; g < kColumnGroups; ++g) {
      const int col = 32 * g + 4 * col_group;
      if (col >= dv) break;
      const float4 o = make_float4(acc[i][4 * g] * scale, acc[i][4 * g + 1] * scale, acc[i][4 * g + 2] * scale,
                                   acc[i][4 * g + 3] * scale);
      if (dv % 4 == 0) {
        *reinterpret_cast<float4*>(out_row + col) = o;
      } else {
        const float parts[4] = {o.x, o.y, o.z, o.w};
        for (int w = 0; w < 4 && col + w < dv; ++w) out_row[col + w] = parts[w];
      }
    }
    if (col_group == 0) lse[bh * n + row] = sum > 0.0f ? (row_max[i] + log2f(sum)) * 0.6931471805599453f : -INFINITY;
  }
  // END SOLUTION
}

}  // namespace

AttentionResult flash_attention_cuda(const Tensor4& q, const Tensor4& k, const Tensor4& v, bool causal) {
  // BEGIN SOLUTION
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
  ROOFLAB_CUDA_CHECK(
      cudaFuncSetAttribute(flash_forward, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
  const dim3 grid(ceil_div(n, kBlockRows), matrices);
  const float scale_log2 = 1.4426950408889634f / std::sqrt(static_cast<float>(d));  // log₂e / √d
  flash_forward<<<grid, kThreads, bytes>>>(device_q.get(), device_k.get(), device_v.get(), out.get(), lse.get(), n, m,
                                           d, dv, scale_log2, causal);
  ROOFLAB_CUDA_CHECK(cudaGetLastError());

  return {Tensor4{{q.batch(), q.heads(), q.rows(), v.cols()}, out.to_host()}, lse.to_host()};
  // END SOLUTION
}

}  // namespace a05_cuda_attention
