// a04_flash_attention, part 1: the tiled forward pass with an online softmax.
#include "a04_flash_attention/flash_attention.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "rooflab/fast_exp.hpp"  // keep: rooflab::exp_nonpositive, an exp the compiler vectorises
#include "rooflab/not_implemented.hpp"

namespace a04_flash_attention {

// BEGIN SOLUTION
namespace {

constexpr float kMinusInfinity = -std::numeric_limits<float>::infinity();

using rooflab::exp_nonpositive;  // exp for x <= 0, vectorizable (rooflab/fast_exp.hpp)

// Eight fp32 lanes: one AVX register. GCC's vector extensions let the tile
// products below say which values live in registers without intrinsics.
typedef float v8 __attribute__((vector_size(32)));
constexpr std::int64_t kLanes = 8, kPanel = 2 * kLanes;  // a micro-tile is kRows × 16 columns
constexpr int kRows = 6;                                 // 6 × 2 accumulators + 2 panel loads fit in 16 registers

inline v8 load(const float* p) {
  v8 v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
inline void store(float* p, v8 v) { std::memcpy(p, &v, sizeof v); }

// C[r][0..16) (+)= Σ_k A[r][k] · B[k][0..16) for r < R: the register-blocked
// core of both tile products (S = Q Kᵀ and O += P V). Each step k loads one
// 16-wide row of B and broadcasts R entries of A into 2R fused multiply-adds.
template <int R, bool Accumulate>
void micro_tile(const float* a, std::int64_t lda, const float* b, std::int64_t ldb, float* c, std::int64_t ldc,
                std::int64_t depth) {
  v8 acc[R][2];
  for (int r = 0; r < R; ++r) {
    acc[r][0] = Accumulate ? load(c + r * ldc) : v8{};
    acc[r][1] = Accumulate ? load(c + r * ldc + kLanes) : v8{};
  }
  for (std::int64_t k = 0; k < depth; ++k) {
    const v8 b0 = load(b + k * ldb), b1 = load(b + k * ldb + kLanes);
    for (int r = 0; r < R; ++r) {
      const float ark = a[r * lda + k];
      acc[r][0] += ark * b0;
      acc[r][1] += ark * b1;
    }
  }
  for (int r = 0; r < R; ++r) {
    store(c + r * ldc, acc[r][0]);
    store(c + r * ldc + kLanes, acc[r][1]);
  }
}

template <bool Accumulate, int R = kRows>
void micro_tile_rows(int rows, const float* a, std::int64_t lda, const float* b, std::int64_t ldb, float* c,
                     std::int64_t ldc, std::int64_t depth) {
  if constexpr (R > 0) {
    if (rows == R) return micro_tile<R, Accumulate>(a, lda, b, ldb, c, ldc, depth);
    micro_tile_rows<Accumulate, R - 1>(rows, a, lda, b, ldb, c, ldc, depth);
  }
}

// C (rows × cols) (+)= A (rows × depth) · B (depth × cols), all row-major:
// micro-tiles where 16 columns fit, plain loops for the last few columns.
template <bool Accumulate>
void tile_product(std::int64_t rows, std::int64_t cols, std::int64_t depth, const float* a, std::int64_t lda,
                  const float* b, std::int64_t ldb, float* c, std::int64_t ldc) {
  const std::int64_t panels = cols / kPanel * kPanel;
  for (std::int64_t r0 = 0; r0 < rows; r0 += kRows) {
    const int r = static_cast<int>(std::min<std::int64_t>(kRows, rows - r0));
    for (std::int64_t j = 0; j < panels; j += kPanel)
      micro_tile_rows<Accumulate>(r, a + r0 * lda, lda, b + j, ldb, c + r0 * ldc + j, ldc, depth);
  }
  for (std::int64_t i = 0; i < rows; ++i)
    for (std::int64_t j = panels; j < cols; ++j) {
      float sum = Accumulate ? c[i * ldc + j] : 0.0f;
      for (std::int64_t k = 0; k < depth; ++k) sum += a[i * lda + k] * b[k * ldb + j];
      c[i * ldc + j] = sum;
    }
}

// One worker's scratch, allocated once per thread: everything flash attention
// holds besides its output is these few tiles.
struct Tiles {
  std::vector<float> scores;   // B_r × B_c: S = Q_tile K_tileᵀ, then P = exp(S/√d − m)
  std::vector<float> keys_t;   // d × B_c: the key tile transposed, so that S is a row-major product
  std::vector<float> acc;      // B_r × d_v: unnormalised output rows
  std::vector<float> row_max;  // m_i: the largest scaled score seen so far in row i
  std::vector<float> row_sum;  // l_i: Σ exp(s_ij/√d − m_i) over the keys seen so far
};

}  // namespace
// END SOLUTION

FlashResult flash_attention(const Tensor4& q, const Tensor4& k, const Tensor4& v, const FlashOptions& options) {
  // BEGIN SOLUTION
  require_valid(q, k, v, options);
  const std::int64_t n = q.rows(), m = k.rows(), d = q.cols(), dv = v.cols();
  const std::int64_t br = std::min(options.block_rows, n), bc = std::min(options.block_cols, m);
  const float scale = 1.0f / std::sqrt(static_cast<float>(d));
  const std::int64_t row_blocks = (n + br - 1) / br;
  const bool masked = !options.keep.empty();

  FlashResult result{rooflab::zeros(q.batch(), q.heads(), n, dv),
                     std::vector<float>(static_cast<std::size_t>(q.matrices() * n))};
#pragma omp parallel
  {
    Tiles tiles{std::vector<float>(static_cast<std::size_t>(br * bc)),
                std::vector<float>(static_cast<std::size_t>(d * bc)),
                std::vector<float>(static_cast<std::size_t>(br * dv)), std::vector<float>(static_cast<std::size_t>(br)),
                std::vector<float>(static_cast<std::size_t>(br))};
#pragma omp for schedule(dynamic)
    for (std::int64_t task = 0; task < q.matrices() * row_blocks; ++task) {
      const std::int64_t bh = task / row_blocks, i0 = task % row_blocks * br, rows = std::min(br, n - i0);
      std::fill(tiles.acc.begin(), tiles.acc.end(), 0.0f);
      std::fill(tiles.row_max.begin(), tiles.row_max.end(), kMinusInfinity);
      std::fill(tiles.row_sum.begin(), tiles.row_sum.end(), 0.0f);
      // Causal: keys beyond the block's last row are invisible to all of it.
      const std::int64_t key_end = options.causal ? std::min(m, i0 + rows) : m;

      for (std::int64_t j0 = 0; j0 < key_end; j0 += bc) {
        const std::int64_t cols = std::min(bc, key_end - j0);
        for (std::int64_t j = 0; j < cols; ++j)
          for (std::int64_t c = 0; c < d; ++c) tiles.keys_t[c * bc + j] = k.row(bh, j0 + j)[c];

        // S_tile = Q_tile K_tileᵀ (the 1/√d is applied with the max, below).
        tile_product<false>(rows, cols, d, q.row(bh, i0), d, tiles.keys_t.data(), bc, tiles.scores.data(), bc);
        for (std::int64_t r = 0; r < rows; ++r) {
          float* s = tiles.scores.data() + r * bc;
          const std::int64_t i = i0 + r;
          if (options.causal && j0 + cols - 1 > i)
            for (std::int64_t j = std::max<std::int64_t>(0, i + 1 - j0); j < cols; ++j) s[j] = kMinusInfinity;
          if (masked)
            for (std::int64_t j = 0; j < cols; ++j)
              if (!options.keep[static_cast<std::size_t>(i * m + j0 + j)]) s[j] = kMinusInfinity;
        }

        // Online softmax. With m' = max(m, max_j s_ij/√d):
        //   l' = l·exp(m − m') + Σ_j exp(s_ij/√d − m')   and   O' = O·exp(m − m') + Σ_j exp(s_ij/√d − m') v_j,
        // so that at the end O / l is softmax(s_i·/√d) V over every key,
        // although no row ever saw more than one tile of scores at a time.
        for (std::int64_t r = 0; r < rows; ++r) {
          float* s = tiles.scores.data() + r * bc;
          float block_max = kMinusInfinity;
#pragma omp simd reduction(max : block_max)
          for (std::int64_t j = 0; j < cols; ++j) block_max = std::max(block_max, s[j]);
          const float old_max = tiles.row_max[r], new_max = std::max(old_max, block_max * scale);
          float* o = tiles.acc.data() + r * dv;
          if (new_max == kMinusInfinity) {  // every key so far masked: P is 0 for this row
            std::fill(s, s + cols, 0.0f);
            continue;
          }
          float block_sum = 0;
#pragma omp simd reduction(+ : block_sum)
          for (std::int64_t j = 0; j < cols; ++j) block_sum += (s[j] = exp_nonpositive(s[j] * scale - new_max));
          const float correction = exp_nonpositive(old_max - new_max);  // 0 on the first visible tile
          tiles.row_sum[r] = tiles.row_sum[r] * correction + block_sum;
          tiles.row_max[r] = new_max;
#pragma omp simd
          for (std::int64_t c = 0; c < dv; ++c) o[c] *= correction;
        }
        // O_tile += P_tile V_tile.
        tile_product<true>(rows, dv, cols, tiles.scores.data(), bc, v.row(bh, j0), dv, tiles.acc.data(), dv);
      }

      // O_i = acc_i / l_i and lse_i = m_i + log l_i; a row that saw no key keeps O_i = 0, lse_i = −∞.
      for (std::int64_t r = 0; r < rows; ++r) {
        const float sum = tiles.row_sum[r];
        float* out = result.output.row(bh, i0 + r);
        const float* o = tiles.acc.data() + r * dv;
        for (std::int64_t c = 0; c < dv; ++c) out[c] = sum > 0 ? o[c] / sum : 0.0f;
        result.lse[static_cast<std::size_t>(bh * n + i0 + r)] =
            sum > 0 ? tiles.row_max[r] + std::log(sum) : kMinusInfinity;
      }
    }
  }
  return result;
  // END SOLUTION
}

}  // namespace a04_flash_attention
