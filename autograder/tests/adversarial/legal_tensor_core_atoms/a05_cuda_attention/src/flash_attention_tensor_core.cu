// Legal submission "legal_tensor_core_atoms": the reference tensor-core
// kernel with its K and V tiles brought in by cp.async (waited for before
// the barrier that publishes them) and S = Q·Kᵀ computed by the course's
// mma.sync and ldmatrix atoms (rooflab/tensor_core.hpp) instead of WMMA;
// P·V stays on WMMA. Q comes in as __half2 pairs, the softmax's row maximum
// and sum are cooperative groups' reductions over a warp tile, and O goes
// out as float4. It keeps every point.
//
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
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_fp16.h>  // keep: __half
#include <mma.h>

#include <cmath>
#include <vector>

#include "a05_cuda_attention/cuda_attention.hpp"
#include "rooflab/cuda_helpers.hpp"  // keep: ROOFLAB_CUDA_CHECK, ceil_div, require_shared_memory
#include "rooflab/not_implemented.hpp"
#include "rooflab/tensor_core.hpp"

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
  using S = Strides<D>;
  extern __shared__ unsigned char shared[];
  __half* q_tile = reinterpret_cast<__half*>(shared);                    // kBlockRows × D
  __half* k_tile = q_tile + kBlockRows * S::qkv;                         // kBlockCols × D
  __half* v_tile = k_tile + kBlockCols * S::qkv;                         // kBlockCols × D
  __half* p_tile = v_tile + kBlockCols * S::qkv;                         // kBlockRows × kBlockCols
  float* s_tile = reinterpret_cast<float*>(p_tile + kBlockRows * S::p);  // kBlockRows × kBlockCols
  float* o_tile = s_tile + kBlockRows * S::s;                            // kBlockRows × D
  float* row_max = o_tile + kBlockRows * S::o;                           // m, per row
  float* row_sum = row_max + kBlockRows;                                 // l, per row

  const long long bh = blockIdx.y;
  const int row0 = blockIdx.x * kBlockRows;
  const int warp = threadIdx.x / warpSize, lane = threadIdx.x % warpSize;
  const __half* q_rows = q + bh * n * D;
  const __half* k_rows = k + bh * m * D;
  const __half* v_rows = v + bh * m * D;

  // Q in pairs of halves: one 4-byte access a lane.
  const __half2* q_pairs = reinterpret_cast<const __half2*>(q_rows);
  for (int e = threadIdx.x; e < kBlockRows * D / 2; e += blockDim.x) {
    const int r = e / (D / 2), c = e % (D / 2) * 2;
    *reinterpret_cast<__half2*>(q_tile + r * S::qkv + c) =
        row0 + r < n ? q_pairs[(static_cast<long long>(row0 + r) * D + c) / 2] : __floats2half2_rn(0.0f, 0.0f);
  }
  for (int e = threadIdx.x; e < kBlockRows * D; e += blockDim.x) o_tile[e / D * S::o + e % D] = 0.0f;
  for (int r = threadIdx.x; r < kBlockRows; r += blockDim.x) {
    row_max[r] = -INFINITY;
    row_sum[r] = 0.0f;
  }

  const cooperative_groups::thread_block_tile<32> lanes =
      cooperative_groups::tiled_partition<32>(cooperative_groups::this_thread_block());
  // This warp's 16 rows of each tile.
  const int my_rows = warp * kFragment;
  const int key_end = causal ? max(0, min(m, row0 + kBlockRows + (m - n))) : m;
  for (int key0 = 0; key0 < key_end; key0 += kBlockCols) {
    __syncthreads();  // Q is loaded; every warp is done with the last K/V tile
    // 16 bytes (8 halves) a copy; keys past m are zero-filled (src_size 0).
    for (int e = threadIdx.x; e < kBlockCols * D / 8; e += blockDim.x) {
      const int j = e / (D / 8), c = e % (D / 8) * 8;
      const bool inside = key0 + j < m;
      const long long at = inside ? static_cast<long long>(key0 + j) * D + c : 0;
      rooflab::tensor_core::cp_async_16_cg(k_tile + j * S::qkv + c, k_rows + at, inside ? 16 : 0);
      rooflab::tensor_core::cp_async_16_cg(v_tile + j * S::qkv + c, v_rows + at, inside ? 16 : 0);
    }
    rooflab::tensor_core::cp_async_commit_group();
    rooflab::tensor_core::cp_async_wait_group<0>();
    __syncthreads();

    // S_w = Q_w K_tileᵀ with mma.m16n8k16: A is 16 rows × 16 of Q (ldmatrix_x4:
    // lane l gives row l % 16, columns c + 8·(l / 16)); B is 8 keys × 16 of K,
    // which K's rows give untransposed (ldmatrix_x2: lane l gives key l % 8,
    // columns c + 8·(l / 8 % 2)); D lands in rows g, g + 8, keys 2t, 2t + 1.
    for (int key_part = 0; key_part < kBlockCols / 8; ++key_part) {
      float s[4] = {0.0f, 0.0f, 0.0f, 0.0f};
      for (int c = 0; c < D; c += kFragment) {
        std::uint32_t a[4], b[2];
        rooflab::tensor_core::ldmatrix_x4(a, q_tile + (my_rows + lane % 16) * S::qkv + c + 8 * (lane / 16));
        rooflab::tensor_core::ldmatrix_x2(b, k_tile + (key_part * 8 + lane % 8) * S::qkv + c + 8 * (lane / 8 % 2));
        rooflab::tensor_core::mma_m16n8k16_f16(s, a, b, s);
      }
      for (int i = 0; i < 4; ++i) {
        const rooflab::tensor_core::Element at = rooflab::tensor_core::c_m16n8(lane, i);
        s_tile[(my_rows + at.row) * S::s + key_part * 8 + at.col] = s[i];
      }
    }
    __syncwarp();

    // Online softmax, the warp on one row at a time, lane j on keys j and
    // j + 32: P = exp(S − m'), l and O rescaled by exp(m − m').
    for (int r = my_rows; r < my_rows + kFragment; ++r) {
      const int i = row0 + r;
      float s_pair[2];
      float tile_max = -INFINITY;
      for (int part = 0; part < 2; ++part) {
        const int j = lane + part * 32, key = key0 + j;
        const bool visible = i < n && key < m && !(causal && key > i + (m - n));
        s_pair[part] = visible ? s_tile[r * S::s + j] * scale : -INFINITY;
        tile_max = fmaxf(tile_max, s_pair[part]);
      }
      tile_max = cooperative_groups::reduce(lanes, tile_max, cooperative_groups::greater<float>());
      const float old_max = row_max[r];
      const float new_max = fmaxf(old_max, tile_max);
      const float rescale = new_max == -INFINITY ? 1.0f : expf(old_max - new_max);
      float sum = 0.0f;
      for (int part = 0; part < 2; ++part) {
        const float p = new_max == -INFINITY ? 0.0f : expf(s_pair[part] - new_max);
        sum += p;
        p_tile[r * S::p + lane + part * 32] = __float2half(p);
      }
      sum = cooperative_groups::reduce(lanes, sum, cooperative_groups::plus<float>());
      for (int c = lane; c < D; c += warpSize) o_tile[r * S::o + c] *= rescale;
      __syncwarp();  // every lane has read m before lane 0 replaces it
      if (lane == 0) {
        row_max[r] = new_max;
        row_sum[r] = row_sum[r] * rescale + sum;
      }
    }
    __syncwarp();

    // O_w += P_w V_tile, 16 columns of O at a time.
    for (int c = 0; c < D; c += kFragment) {
      wmma::fragment<wmma::accumulator, kFragment, kFragment, kFragment, float> o;
      wmma::load_matrix_sync(o, o_tile + my_rows * S::o + c, S::o, wmma::mem_row_major);
      for (int j = 0; j < kBlockCols; j += kFragment) {
        wmma::fragment<wmma::matrix_a, kFragment, kFragment, kFragment, __half, wmma::row_major> a;
        wmma::fragment<wmma::matrix_b, kFragment, kFragment, kFragment, __half, wmma::row_major> b;
        wmma::load_matrix_sync(a, p_tile + my_rows * S::p + j, S::p);
        wmma::load_matrix_sync(b, v_tile + j * S::qkv + c, S::qkv);
        wmma::mma_sync(o, a, b, o);
      }
      wmma::store_matrix_sync(o_tile + my_rows * S::o + c, o, S::o, wmma::mem_row_major);
    }
  }
  __syncthreads();

  // O out as float4: one 16-byte access a lane.
  for (int e = threadIdx.x; e < kBlockRows * D / 4; e += blockDim.x) {
    const int r = e / (D / 4), c = e % (D / 4) * 4, i = row0 + r;
    if (i >= n) continue;
    const bool seen = row_sum[r] > 0.0f;
    const float inverse = seen ? 1.0f / row_sum[r] : 0.0f;
    const float4 o = *reinterpret_cast<const float4*>(o_tile + r * S::o + c);
    *reinterpret_cast<float4*>(out + (bh * n + i) * D + c) =
        make_float4(o.x * inverse, o.y * inverse, o.z * inverse, o.w * inverse);
    if (c == 0) lse[bh * n + i] = seen ? row_max[r] + logf(row_sum[r]) : -INFINITY;
  }
}

// inline: the student template leaves it unused until the launcher is written.
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
  ROOFLAB_CUDA_CHECK(cudaFuncSetAttribute(flash_forward_tensor_core<D>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          static_cast<int>(bytes)));
  const dim3 grid(ceil_div(n, kBlockRows), matrices);
  flash_forward_tensor_core<D><<<grid, kWarps * 32, bytes>>>(device_q.get(), device_k.get(), device_v.get(), out.get(),
                                                             lse.get(), n, m, 1.0f / std::sqrt(static_cast<float>(D)),
                                                             causal);
  ROOFLAB_CUDA_CHECK(cudaGetLastError());
  return {Tensor4{{q.batch(), q.heads(), q.rows(), D}, out.to_host()}, lse.to_host()};
}

}  // namespace

AttentionResult flash_attention_tensor_core(const Tensor4& q, const Tensor4& k, const Tensor4& v, bool causal) {
  require_valid(q, k, v);
  require_tensor_core_head_dim(q, v);
  return q.cols() == 64 ? launch<64>(q, k, v, causal) : launch<128>(q, k, v, causal);
}

}  // namespace a05_cuda_attention
