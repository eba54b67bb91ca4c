// a05_cuda_attention, part 4 (bonus): flash attention on tensor cores
// through the PTX instructions themselves (mma.sync, ldmatrix, cp.async: the
// course's atoms, rooflab/tensor_core.hpp), fp16 or bf16 inputs, fp32
// accumulation and output; the top rung of chapter 6's ladder. The algorithm
// is src/flash_attention.cu's; what changes from the WMMA kernel
// (src/flash_attention_tensor_core.cu), and why:
//
// - Scores and probabilities never leave registers. WMMA's fragments have no
//   documented layout, so that kernel stores S to shared memory, runs the
//   softmax there and loads P back: three shared-memory passes per tile. An
//   mma.sync accumulator's layout is the PTX ISA's (tensor_core_layouts.hpp):
//   lane (g = lane / 4, t = lane % 4) holds rows g and g + 8, columns 2t and
//   2t + 1 of each 16 × 8 tile. So a lane knows its rows, the row's max and
//   sum need only the 4 lanes of a quad (two __shfl_xor_sync), and O's
//   rescaling by exp(m − m') happens in registers.
// - S's accumulators are P's A operand. The accumulators of two adjacent
//   16 × 8 score tiles (keys 16k … 16k + 15) hold exactly the elements an
//   m16n8k16 A fragment wants, in the same lanes: P = exp(S − m) is packed
//   to fp16 pairs in place and multiplied by V without a shuffle.
// - ldmatrix loads operands: one instruction gives every lane its four
//   registers of four 8 × 8 matrices, 16 bytes per row address. Q is loaded
//   once per block into registers; K as mma's B operand directly (its rows
//   are keys); V transposed on the way (.trans), since P·V reads V by column.
// - Swizzled shared memory, no padding. A row of K is 128 (d = 64) or 256
//   bytes: the 8 rows an ldmatrix matrix reads at one column would all sit
//   in the same 4 banks, 8 wavefronts where 1 would do. Each row's 16-byte
//   chunk c is stored at chunk c ^ (row % 8): the same column of 8
//   consecutive rows lands in 8 different chunk positions, hence different
//   banks, and a 16-byte cp.async still writes 16 contiguous bytes.
// - K and V arrive by cp.async, double-buffered. While the warps compute on
//   tile j, the copies of tile j + 1 are in flight (cp.async does not block
//   the thread that issues it); cp.async.wait_group 1 waits for all but the
//   newest group, then a barrier publishes tile j to every warp.
// - Base-2 softmax with the scale folded in (one multiply, exp2f), as in the
//   fp32 kernel; causal tiles past the diagonal are never loaded, and the
//   mask is applied only on the tiles that cross it or the end of the keys.
//
// A block has 4 warps, 16 query rows each (B_r = 64), and streams 64 keys
// a tile (B_c = 64). Shared memory: Q (64 × d) and two K and V buffers,
// 40 KiB at d = 64 and 80 KiB at d = 128.
#include <cuda_bf16.h>  // keep: __nv_bfloat16
#include <cuda_fp16.h>  // keep: __half

#include <cmath>
#include <type_traits>
#include <vector>

#include "a05_cuda_attention/cuda_attention.hpp"
#include "rooflab/cuda_helpers.hpp"  // keep: ROOFLAB_CUDA_CHECK, ceil_div
#include "rooflab/not_implemented.hpp"
#include "rooflab/tensor_core.hpp"

namespace a05_cuda_attention {
namespace {

namespace tc = rooflab::tensor_core;

constexpr int kWarps = 4;                          // warps per block
constexpr int kThreads = kWarps * 32;              // threads per block
constexpr int kRowsPerWarp = 16;                   // an m16n8k16's M
constexpr int kBlockRows = kWarps * kRowsPerWarp;  // B_r = 64 query rows per block
constexpr int kBlockCols = 64;                     // B_c = 64 keys per K/V tile
constexpr int kKeyTiles = kBlockCols / 8;          // S's 16 × 8 accumulator tiles per warp
constexpr int kChunk = 8;                          // 16-bit elements per 16-byte chunk

// Shared memory for head dim D, in bytes: Q, then K and V twice (double buffering).
template <int D>
constexpr std::size_t shared_bytes() {
  return 2 * D * (kBlockRows + 4 * kBlockCols);
}

// Where element (row, chunk · 8) of a tile with D columns sits: chunk c of a
// row is stored at chunk c ^ (row % 8).
template <int D>
__device__ __forceinline__ int swizzled(int row, int chunk) {
  return row * D + (chunk ^ (row % 8)) * kChunk;
}

// rows × D elements of `from` (row stride D) into the swizzled `to`, one
// 16-byte cp.async per chunk, consecutive threads on consecutive chunks (a
// warp reads 512 contiguous bytes). Rows at or past `valid` are zeros.
template <int D, class T>
__device__ __forceinline__ void load_tile(T* to, const T* from, int rows, int valid) {
  constexpr int kRowChunks = D / kChunk;
  for (int e = threadIdx.x; e < rows * kRowChunks; e += kThreads) {
    const int row = e / kRowChunks, chunk = e % kRowChunks;
    const bool inside = row < valid;
    // A row past the end copies nothing (src_size 0) from a valid address.
    tc::cp_async_16_cg(to + swizzled<D>(row, chunk), from + (inside ? row * D + chunk * kChunk : 0), inside ? 16 : 0);
  }
}

// D = A·B + D for 16-bit inputs of type T.
template <class T>
__device__ __forceinline__ void mma(float (&d)[4], const std::uint32_t (&a)[4], const std::uint32_t (&b)[2]) {
  if constexpr (std::is_same_v<T, __half>)
    tc::mma_m16n8k16_f16(d, a, b, d);
  else
    tc::mma_m16n8k16_bf16(d, a, b, d);
}
template <class T>
__device__ __forceinline__ std::uint32_t pack(float low, float high) {
  if constexpr (std::is_same_v<T, __half>)
    return tc::pack_half2(low, high);
  else
    return tc::pack_bfloat162(low, high);
}

template <class T, int D>
__global__ void __launch_bounds__(kThreads)
    flash_forward_mma_sync(const T* q, const T* k, const T* v, float* out, float* lse, int n, int m, float scale_log2,
                           bool causal) {
  // BEGIN SOLUTION
  constexpr int kSteps = D / 16;    // k-steps of 16 along d (S = Q Kᵀ)
  constexpr int kOutTiles = D / 8;  // O's 16 × 8 accumulator tiles per warp
  extern __shared__ __align__(16) unsigned char shared[];
  T* q_tile = reinterpret_cast<T*>(shared);   // kBlockRows × D
  T* k_tiles = q_tile + kBlockRows * D;       // 2 × kBlockCols × D
  T* v_tiles = k_tiles + 2 * kBlockCols * D;  // 2 × kBlockCols × D

  const long long bh = blockIdx.y;
  const int row0 = blockIdx.x * kBlockRows;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int g = lane / 4, t = lane % 4;  // this lane's rows g, g + 8 and columns 2t, 2t + 1 of each tile
  const T* k_rows = k + bh * m * D;
  const T* v_rows = v + bh * m * D;

  // Keys past the diagonal of the block's last row are never seen.
  const int key_end = causal ? max(0, min(m, row0 + kBlockRows + (m - n))) : m;
  const int tiles = (key_end + kBlockCols - 1) / kBlockCols;

  // Q and the first K/V tile in one group, the next tile in flight while
  // each is used.
  load_tile<D>(q_tile, q + (bh * n + row0) * D, kBlockRows, n - row0);
  if (tiles > 0) {
    load_tile<D>(k_tiles, k_rows, kBlockCols, m);
    load_tile<D>(v_tiles, v_rows, kBlockCols, m);
  }
  tc::cp_async_commit_group();

  std::uint32_t q_frag[kSteps][4];            // the warp's 16 Q rows as A fragments, loaded once
  float o[kOutTiles][4] = {};                 // O's accumulators, unnormalised
  float row_max[2] = {-INFINITY, -INFINITY};  // m of rows g and g + 8, base 2, scaled
  float row_sum[2] = {0.0f, 0.0f};            // this lane's part of l

  for (int tile = 0; tile < tiles; ++tile) {
    const int key0 = tile * kBlockCols;
    const T* k_tile = k_tiles + (tile % 2) * kBlockCols * D;
    const T* v_tile = v_tiles + (tile % 2) * kBlockCols * D;
    if (tile + 1 < tiles) {
      const int next = key0 + kBlockCols;
      load_tile<D>(k_tiles + ((tile + 1) % 2) * kBlockCols * D, k_rows + static_cast<long long>(next) * D, kBlockCols,
                   m - next);
      load_tile<D>(v_tiles + ((tile + 1) % 2) * kBlockCols * D, v_rows + static_cast<long long>(next) * D, kBlockCols,
                   m - next);
      tc::cp_async_commit_group();
      tc::cp_async_wait_group<1>();  // this tile's group has landed; the next may still be in flight
    } else {
      tc::cp_async_wait_group<0>();
    }
    __syncthreads();  // every thread's copies of this tile are visible to every warp

    if (tile == 0)
      // Lane l gives row l % 16 of chunk 2s + l / 16: matrices (rows 0-7,
      // cols 0-7), (8-15, 0-7), (0-7, 8-15), (8-15, 8-15) = A's registers.
      for (int s = 0; s < kSteps; ++s)
        tc::ldmatrix_x4(q_frag[s], q_tile + swizzled<D>(warp * kRowsPerWarp + lane % 16, 2 * s + lane / 16));

    // S = Q Kᵀ, 16 rows × 64 keys: K's rows are keys, which is mma's B
    // ("col") operand as ldmatrix reads it. Lane l gives key 8·(l / 16) +
    // l % 8 of a key pair, chunk 2s + (l / 8) % 2.
    float s_acc[kKeyTiles][4] = {};
    for (int s = 0; s < kSteps; ++s)
      for (int pair = 0; pair < kKeyTiles / 2; ++pair) {
        std::uint32_t b[4];
        tc::ldmatrix_x4(b, k_tile + swizzled<D>(16 * pair + 8 * (lane / 16) + lane % 8, 2 * s + (lane / 8) % 2));
        const std::uint32_t b_low[2] = {b[0], b[1]}, b_high[2] = {b[2], b[3]};
        mma<T>(s_acc[2 * pair], q_frag[s], b_low);
        mma<T>(s_acc[2 * pair + 1], q_frag[s], b_high);
      }

    // The online softmax, in registers. Element i of tile j is row
    // g + 8·(i / 2), key key0 + 8j + 2t + i % 2.
    const bool masked = key0 + kBlockCols > m || (causal && key0 + kBlockCols - 1 > row0 + (m - n));
    float tile_max[2] = {-INFINITY, -INFINITY};
    for (int j = 0; j < kKeyTiles; ++j)
      for (int i = 0; i < 4; ++i) {
        const int row = row0 + warp * kRowsPerWarp + g + 8 * (i / 2), key = key0 + 8 * j + 2 * t + i % 2;
        const bool visible = !masked || (key < m && !(causal && key > row + (m - n)));
        s_acc[j][i] = visible ? s_acc[j][i] * scale_log2 : -INFINITY;
        tile_max[i / 2] = fmaxf(tile_max[i / 2], s_acc[j][i]);
      }
    float rescale[2];
    for (int r = 0; r < 2; ++r) {
      // The row's 64 keys are in the 4 lanes of a quad (t = 0…3).
      tile_max[r] = fmaxf(tile_max[r], __shfl_xor_sync(0xffffffffu, tile_max[r], 1));
      tile_max[r] = fmaxf(tile_max[r], __shfl_xor_sync(0xffffffffu, tile_max[r], 2));
      const float new_max = fmaxf(row_max[r], tile_max[r]);
      rescale[r] = new_max == -INFINITY ? 1.0f : exp2f(row_max[r] - new_max);
      row_max[r] = new_max;
      row_sum[r] *= rescale[r];
    }
    for (int j = 0; j < kOutTiles; ++j)
      for (int i = 0; i < 4; ++i) o[j][i] *= rescale[i / 2];

    // P = 2^(S − m), packed as O += P V's A operand: keys 16c … 16c + 15 are
    // score tiles 2c and 2c + 1, registers (row g, tile 2c), (g + 8, 2c),
    // (g, 2c + 1), (g + 8, 2c + 1). V's rows are keys, mma's B wants them as
    // columns: ldmatrix .trans, lane l on key 16c + 8·((l / 8) % 2) + l % 8,
    // chunk 2u + l / 16 for output tiles 2u and 2u + 1.
    for (int c = 0; c < kBlockCols / 16; ++c) {
      std::uint32_t p[4];
      for (int half = 0; half < 2; ++half) {
        float* tile_scores = s_acc[2 * c + half];
        float values[4];
        for (int i = 0; i < 4; ++i) {
          const float max = row_max[i / 2];
          values[i] = max == -INFINITY ? 0.0f : exp2f(tile_scores[i] - max);
          row_sum[i / 2] += values[i];
        }
        p[2 * half] = pack<T>(values[0], values[1]);
        p[2 * half + 1] = pack<T>(values[2], values[3]);
      }
      for (int u = 0; u < kOutTiles / 2; ++u) {
        std::uint32_t b[4];
        tc::ldmatrix_x4_trans(b, v_tile + swizzled<D>(16 * c + 8 * ((lane / 8) % 2) + lane % 8, 2 * u + lane / 16));
        const std::uint32_t b_low[2] = {b[0], b[1]}, b_high[2] = {b[2], b[3]};
        mma<T>(o[2 * u], p, b_low);
        mma<T>(o[2 * u + 1], p, b_high);
      }
    }
    __syncthreads();  // every warp is done with this tile's buffers before they are refilled
  }
  if (tiles == 0) tc::cp_async_wait_all();  // Q's copies land before the block ends

  // l = the quad's parts; O / l as float2 stores (a row's 8 columns of a
  // tile are 4 lanes' 32 contiguous bytes), lse = (m + log₂ l) · ln 2.
  for (int r = 0; r < 2; ++r) {
    row_sum[r] += __shfl_xor_sync(0xffffffffu, row_sum[r], 1);
    row_sum[r] += __shfl_xor_sync(0xffffffffu, row_sum[r], 2);
    const int row = row0 + warp * kRowsPerWarp + g + 8 * r;
    if (row >= n) continue;
    const bool seen = row_sum[r] > 0.0f;
    const float inverse = seen ? 1.0f / row_sum[r] : 0.0f;
    float* out_row = out + (bh * n + row) * D;
    for (int j = 0; j < kOutTiles; ++j)
      *reinterpret_cast<float2*>(out_row + 8 * j + 2 * t) =
          make_float2(o[j][2 * r] * inverse, o[j][2 * r + 1] * inverse);
    if (t == 0) lse[bh * n + row] = seen ? (row_max[r] + log2f(row_sum[r])) * 0.6931471805599453f : -INFINITY;
  }
  // END SOLUTION
}

// inline: the student template leaves it unused until the launcher is written.
template <class T>
inline std::vector<T> to_16_bits(const std::vector<float>& values) {
  std::vector<T> converted(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    if constexpr (std::is_same_v<T, __half>)
      converted[i] = __float2half(values[i]);
    else
      converted[i] = __float2bfloat16(values[i]);
  }
  return converted;
}

template <class T, int D>
AttentionResult launch(const Tensor4& q, const Tensor4& k, const Tensor4& v, bool causal) {
  // BEGIN SOLUTION
  using rooflab::cuda::ceil_div;
  using rooflab::cuda::DeviceBuffer;
  const int n = static_cast<int>(q.rows()), m = static_cast<int>(k.rows());
  const int matrices = static_cast<int>(q.matrices());
  const std::size_t rows = static_cast<std::size_t>(matrices) * n;
  const DeviceBuffer<T> device_q(to_16_bits<T>(q.data)), device_k(to_16_bits<T>(k.data)),
      device_v(to_16_bits<T>(v.data));
  DeviceBuffer<float> out(rows * D);
  DeviceBuffer<float> lse(rows);
  const std::size_t bytes = shared_bytes<D>();
  ROOFLAB_CUDA_CHECK(cudaFuncSetAttribute(flash_forward_mma_sync<T, D>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          static_cast<int>(bytes)));
  const float scale_log2 = 1.4426950408889634f / std::sqrt(static_cast<float>(D));
  flash_forward_mma_sync<T, D><<<dim3(ceil_div(n, kBlockRows), matrices), kThreads, bytes>>>(
      device_q.get(), device_k.get(), device_v.get(), out.get(), lse.get(), n, m, scale_log2, causal);
  ROOFLAB_CUDA_CHECK(cudaGetLastError());
  return {Tensor4{{q.batch(), q.heads(), q.rows(), D}, out.to_host()}, lse.to_host()};
  // END SOLUTION
}

template <class T>
AttentionResult flash_attention_mma_sync_of(const Tensor4& q, const Tensor4& k, const Tensor4& v, bool causal) {
  // BEGIN SOLUTION
  require_valid(q, k, v);
  require_tensor_core_head_dim(q, v);
  return q.cols() == 64 ? launch<T, 64>(q, k, v, causal) : launch<T, 128>(q, k, v, causal);
  // END SOLUTION
}

}  // namespace

AttentionResult flash_attention_mma_sync(const Tensor4& q, const Tensor4& k, const Tensor4& v, bool causal) {
  return flash_attention_mma_sync_of<__half>(q, k, v, causal);
}
AttentionResult flash_attention_mma_sync_bf16(const Tensor4& q, const Tensor4& k, const Tensor4& v, bool causal) {
  return flash_attention_mma_sync_of<__nv_bfloat16>(q, k, v, causal);
}

}  // namespace a05_cuda_attention
