// a04_flash_attention, part 1: the tiled forward pass with an online softmax.
#include "a04_flash_attention/flash_attention.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <utility>
#include <vector>

#include "rooflab/fast_exp.hpp"  // keep: rooflab::exp_nonpositive, an exp the compiler vectorises
#include "rooflab/not_implemented.hpp"

namespace a04_flash_attention {

// BEGIN SOLUTION
namespace {

constexpr float kMinusInfinity = -std::numeric_limits<float>::infinity();

// One vector register of fp32 lanes: AVX-512's 16 where the target has it,
// AVX's 8 elsewhere. GCC's vector extensions let the kernels below say which
// values live in registers without intrinsics; the arithmetic on them is FMA.
#if defined(__AVX512F__)
constexpr int kLanes = 16;
constexpr int kPanelVectors = 4;  // a micro-tile is kRows × 64 columns: 24 accumulators + 4 loads of 32 registers
#else
constexpr int kLanes = 8;
constexpr int kPanelVectors = 2;  // kRows × 16 columns: 12 accumulators + 2 loads of 16 registers
#endif
using Vec [[gnu::vector_size(kLanes * sizeof(float))]] = float;
using IntVec [[gnu::vector_size(kLanes * sizeof(std::int32_t))]] = std::int32_t;
constexpr std::int64_t kPanel = kPanelVectors * kLanes;
constexpr int kRows = 6;

inline Vec load(const float* p) {
  Vec v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
inline void store(float* p, Vec v) { std::memcpy(p, &v, sizeof v); }
inline Vec splat(float x) { return Vec{} + x; }

// 2^x for x <= 0, a lane at a time: 2^x = 2^k · 2^f with k = round(x) and
// f = x − k in [−½, ½]; 2^f = e^(f·ln 2) by its degree-6 Taylor series
// (relative error below 2e-7), with the powers of ln 2 folded into the
// coefficients; 2^k written straight into the exponent bits. Adding
// 1.5·2²³ + 127 rounds x to an integer that lands in the low mantissa bits,
// already biased: shifted left by 23 those bits are 2^k's. x is clamped at
// −127, whose exponent field is 0: the result is then 0 (so for −∞, masked
// scores), and between −127 and −126.5 it is 0 where fp32 would be subnormal.
inline Vec exp2_nonpositive(Vec x) {
  constexpr float kRound = 12582912.0f + 127.0f;
  const Vec clamped = x < -127.0f ? splat(-127.0f) : x;
  const Vec shifted = clamped + kRound;
  const Vec f = clamped - (shifted - kRound);
  Vec p = splat(1.5403530e-4f);  // (ln 2)^6 / 720
  p = p * f + 1.3333558e-3f;     // (ln 2)^5 / 120
  p = p * f + 9.6181291e-3f;     // (ln 2)^4 / 24
  p = p * f + 5.5504109e-2f;     // (ln 2)^3 / 6
  p = p * f + 0.24022651f;       // (ln 2)^2 / 2
  p = p * f + 0.69314718f;       // ln 2
  p = p * f + 1.0f;
  IntVec bits;
  std::memcpy(&bits, &shifted, sizeof bits);
  bits <<= 23;
  Vec two_to_k;
  std::memcpy(&two_to_k, &bits, sizeof bits);
  return p * two_to_k;
}

inline float exp2_nonpositive(float x) {  // the same, one value (rows' tails and corrections)
  Vec v = splat(x);
  return exp2_nonpositive(v)[0];
}

// The largest and the sum of a register's lanes, halving it each step.
float horizontal_max(Vec v) {
  float lanes[kLanes];
  std::memcpy(lanes, &v, sizeof v);
  for (int width = kLanes / 2; width >= 1; width /= 2)
    for (int i = 0; i < width; ++i) lanes[i] = std::max(lanes[i], lanes[i + width]);
  return lanes[0];
}
float horizontal_sum(Vec v) {
  float lanes[kLanes];
  std::memcpy(lanes, &v, sizeof v);
  for (int width = kLanes / 2; width >= 1; width /= 2)
    for (int i = 0; i < width; ++i) lanes[i] += lanes[i + width];
  return lanes[0];
}

// C[r][0..V·kLanes) (+)= scale · Σ_k A[r][k] · B[k][0..V·kLanes) for r < R:
// the register-blocked core of both tile products (S = Q Kᵀ and O += P V).
// Each step k loads one row of B's panel and broadcasts R entries of A into
// R·V fused multiply-adds; the R × V·kLanes sums stay in registers for the
// whole depth.
template <int R, int V, bool Accumulate>
void micro_tile(const float* a, std::int64_t lda, const float* b, std::int64_t ldb, float* c, std::int64_t ldc,
                std::int64_t depth, float scale) {
  Vec acc[R][V];
  for (int r = 0; r < R; ++r)
    for (int v = 0; v < V; ++v) acc[r][v] = Accumulate ? load(c + r * ldc + v * kLanes) : Vec{};
  for (std::int64_t k = 0; k < depth; ++k) {
    Vec bk[V];
    for (int v = 0; v < V; ++v) bk[v] = load(b + k * ldb + v * kLanes);
    for (int r = 0; r < R; ++r) {
      const float ark = a[r * lda + k];
      for (int v = 0; v < V; ++v) acc[r][v] += ark * bk[v];
    }
  }
  for (int r = 0; r < R; ++r)
    for (int v = 0; v < V; ++v) store(c + r * ldc + v * kLanes, Accumulate ? acc[r][v] : acc[r][v] * scale);
}

// Every row of C against one panel of V vectors: kRows rows at a time, and
// the last few rows with a shorter micro-tile. The panel (depth × V·kLanes
// of B) stays in L1 while the rows go by.
template <int V, bool Accumulate>
void panel_rows(std::int64_t rows, const float* a, std::int64_t lda, const float* b, std::int64_t ldb, float* c,
                std::int64_t ldc, std::int64_t depth, float scale) {
  std::int64_t r0 = 0;
  for (; r0 + kRows <= rows; r0 += kRows)
    micro_tile<kRows, V, Accumulate>(a + r0 * lda, lda, b, ldb, c + r0 * ldc, ldc, depth, scale);
  [&]<int... R>(std::integer_sequence<int, R...>) {  // the last rows % kRows rows, one call
    ((rows - r0 == R + 1 ? micro_tile<R + 1, V, Accumulate>(a + r0 * lda, lda, b, ldb, c + r0 * ldc, ldc, depth, scale)
                         : void()),
     ...);
  }
  (std::make_integer_sequence<int, kRows - 1>{});
}

// C (rows × cols) = scale · A (rows × depth) · B (depth × cols), or C += A · B
// when accumulating, A and C row-major. B is row-major (row stride ldb) or,
// `packed`, stored panel after panel: the kPanel columns from j0 on as a
// depth × w block of their own (w = min(kPanel, cols − j0), row stride w), as
// transpose_keys writes Kᵀ, so that each panel is one contiguous stream.
// Panels go in the outer loop; whole vectors by micro-tiles, the last
// cols % kLanes columns one dot product at a time.
template <bool Accumulate>
void tile_product(std::int64_t rows, std::int64_t cols, std::int64_t depth, const float* a, std::int64_t lda,
                  const float* b, std::int64_t ldb, bool packed, float* c, std::int64_t ldc, float scale = 1.0f) {
  for (std::int64_t j0 = 0; j0 < cols; j0 += kPanel) {
    const std::int64_t width = std::min(kPanel, cols - j0), vectors = width / kLanes;
    const float* panel = packed ? b + j0 * depth : b + j0;
    const std::int64_t ld = packed ? width : ldb;
    [&]<int... V>(std::integer_sequence<int, V...>) {  // vectors is 1 … kPanelVectors: one call
      ((vectors == V + 1 ? panel_rows<V + 1, Accumulate>(rows, a, lda, panel, ld, c + j0, ldc, depth, scale) : void()),
       ...);
    }
    (std::make_integer_sequence<int, kPanelVectors>{});
    for (std::int64_t i = 0; i < rows; ++i)
      for (std::int64_t j = vectors * kLanes; j < width; ++j) {
        float sum = 0.0f;
        for (std::int64_t k = 0; k < depth; ++k) sum += a[i * lda + k] * panel[k * ld + j];
        c[i * ldc + j0 + j] = Accumulate ? c[i * ldc + j0 + j] + sum : sum * scale;
      }
  }
}

// The lane choices of one level of transpose_block, as constants: for the
// rows (i, i + B) of a 2B × 2B block, row i keeps its lanes l < B (mod 2B) and
// takes row i + B's lane l − B for the others (`low`); row i + B takes row i's
// lane l + B for l < B and keeps the others (`high`). Lane kLanes + x of a
// two-register shuffle is lane x of the second register.
template <int B, int... L>
constexpr IntVec low_lanes(std::integer_sequence<int, L...>) {
  return IntVec{((L & B) ? kLanes + L - B : L)...};
}
template <int B, int... L>
constexpr IntVec high_lanes(std::integer_sequence<int, L...>) {
  return IntVec{((L & B) ? kLanes + L : L + B)...};
}

// One level: the off-diagonal B × B sub-blocks of every 2B × 2B block trade places.
template <int B>
inline void transpose_level(Vec (&rows)[kLanes]) {
  constexpr IntVec low = low_lanes<B>(std::make_integer_sequence<int, kLanes>{});
  constexpr IntVec high = high_lanes<B>(std::make_integer_sequence<int, kLanes>{});
#pragma GCC unroll 16
  for (int i = 0; i < kLanes; ++i) {
    if (i & B) continue;
    const Vec top = rows[i], bottom = rows[i + B];
    rows[i] = __builtin_shuffle(top, bottom, low);
    rows[i + B] = __builtin_shuffle(top, bottom, high);
  }
}

// Transposes a kLanes × kLanes block held in kLanes registers: log2(kLanes)
// levels of two-register shuffles, kLanes of them per level.
inline void transpose_block(Vec (&rows)[kLanes]) {
  if constexpr (kLanes == 16) transpose_level<8>(rows);
  transpose_level<4>(rows);
  transpose_level<2>(rows);
  transpose_level<1>(rows);
}

// keys_t = the key rows k[0..cols) (each d long) transposed into
// tile_product's packed panels: key j, feature c at
// j0·d + c·w + (j − j0), with j0 = j rounded down to a panel and w that
// panel's width. kLanes × kLanes blocks go through registers; the edges one
// value at a time.
void transpose_keys(const float* k, std::int64_t cols, std::int64_t d, float* keys_t) {
  const auto at = [&](std::int64_t j, std::int64_t c) {
    const std::int64_t j0 = j / kPanel * kPanel, width = std::min(kPanel, cols - j0);
    return keys_t + j0 * d + c * width + (j - j0);
  };
  const std::int64_t whole_cols = cols / kLanes * kLanes, whole_d = d / kLanes * kLanes;
  for (std::int64_t j = 0; j < whole_cols; j += kLanes)
    for (std::int64_t c = 0; c < whole_d; c += kLanes) {
      Vec block[kLanes];
#pragma GCC unroll 16
      for (int i = 0; i < kLanes; ++i) block[i] = load(k + (j + i) * d + c);
      transpose_block(block);
      float* first = at(j, c);
      const std::int64_t width = at(j, c + 1) - first;
#pragma GCC unroll 16
      for (int i = 0; i < kLanes; ++i) store(first + i * width, block[i]);
    }
  for (std::int64_t j = 0; j < cols; ++j)
    for (std::int64_t c = (j < whole_cols ? whole_d : 0); c < d; ++c) *at(j, c) = k[j * d + c];
}

// Online softmax for one row of a tile, in base 2 (the scores arrive
// multiplied by log2(e)/√d, so exp(s/√d − m) = 2^(s' − m')). With
// m' = max(m, max_j s'_j):
//   l' = l·2^(m − m') + Σ_j 2^(s'_j − m')   and   O' = O·2^(m − m') + Σ_j 2^(s'_j − m') v_j,
// so that at the end O / l is softmax(s/√d) V over every key, although no row
// ever saw more than one tile of scores at a time. Turns s' into P in place
// and rescales the row's accumulator o; returns false when every key so far
// is masked (P is then 0: the row has nothing to add).
bool online_softmax_row(float* s, std::int64_t cols, float& row_max, float& row_sum, float* o, std::int64_t dv) {
  const std::int64_t whole = cols / kLanes * kLanes;
  Vec max_v = splat(kMinusInfinity);
  for (std::int64_t j = 0; j < whole; j += kLanes) {
    const Vec x = load(s + j);
    max_v = x > max_v ? x : max_v;
  }
  float block_max = horizontal_max(max_v);
  for (std::int64_t j = whole; j < cols; ++j) block_max = std::max(block_max, s[j]);
  const float new_max = std::max(row_max, block_max);
  if (new_max == kMinusInfinity) {
    std::fill(s, s + cols, 0.0f);
    return false;
  }
  Vec sum_v{};
  for (std::int64_t j = 0; j < whole; j += kLanes) {
    const Vec p = exp2_nonpositive(load(s + j) - new_max);
    store(s + j, p);
    sum_v += p;
  }
  float block_sum = horizontal_sum(sum_v);
  for (std::int64_t j = whole; j < cols; ++j) block_sum += (s[j] = exp2_nonpositive(s[j] - new_max));
  if (new_max != row_max) {  // the running max moved: scale what was summed under the old one
    const float correction = exp2_nonpositive(row_max - new_max);  // 0 on the first visible tile
    row_sum *= correction;
    for (std::int64_t c = 0; c < dv; ++c) o[c] *= correction;
  }
  row_sum += block_sum;
  row_max = new_max;
  return true;
}

// One worker's scratch, allocated once per thread: everything flash attention
// holds besides its output is these few tiles.
struct Tiles {
  std::vector<float> scores;   // B_r × B_c: S = Q_tile K_tileᵀ, then P
  std::vector<float> keys_t;   // d × B_c: the key tile transposed into panels, so that S is a row-major product
  std::vector<float> acc;      // B_r × d_v: unnormalised output rows
  std::vector<float> row_max;  // m_i: the largest scaled score seen so far in row i (base 2)
  std::vector<float> row_sum;  // l_i: Σ 2^(s'_ij − m_i) over the keys seen so far
};

}  // namespace
// END SOLUTION

FlashResult flash_attention(const Tensor4& q, const Tensor4& k, const Tensor4& v, const FlashOptions& options) {
  // BEGIN SOLUTION
  require_valid(q, k, v, options);
  const std::int64_t n = q.rows(), m = k.rows(), d = q.cols(), dv = v.cols();
  const std::int64_t br = std::min(options.block_rows, n), bc = std::min(options.block_cols, m);
  // Scores in base 2: s' = s · log2(e)/√d, so the softmax's exponentials are 2^x.
  const float log2e = 1.44269504f, scale = log2e / std::sqrt(static_cast<float>(d));
  const std::int64_t row_blocks = (n + br - 1) / br, tasks = q.matrices() * row_blocks;
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
    for (std::int64_t t = 0; t < tasks; ++t) {
      // Causal row blocks cost more the further down they are: hand out the
      // last (largest) first, so that no thread is left with a big one at the end.
      const std::int64_t task = options.causal ? tasks - 1 - t : t;
      const std::int64_t bh = task / row_blocks, i0 = task % row_blocks * br, rows = std::min(br, n - i0);
      std::fill(tiles.acc.begin(), tiles.acc.end(), 0.0f);
      std::fill(tiles.row_max.begin(), tiles.row_max.end(), kMinusInfinity);
      std::fill(tiles.row_sum.begin(), tiles.row_sum.end(), 0.0f);
      // Causal: keys beyond the block's last row are invisible to all of it.
      const std::int64_t key_end = options.causal ? std::min(m, i0 + rows) : m;

      for (std::int64_t j0 = 0; j0 < key_end; j0 += bc) {
        const std::int64_t cols = std::min(bc, key_end - j0);
        transpose_keys(k.row(bh, j0), cols, d, tiles.keys_t.data());
        // S'_tile = (log2(e)/√d) · Q_tile K_tileᵀ.
        tile_product<false>(rows, cols, d, q.row(bh, i0), d, tiles.keys_t.data(), 0, true, tiles.scores.data(), bc,
                            scale);
        for (std::int64_t r = 0; r < rows; ++r) {
          float* s = tiles.scores.data() + r * bc;
          const std::int64_t i = i0 + r;
          if (options.causal && j0 + cols - 1 > i)
            for (std::int64_t j = std::max<std::int64_t>(0, i + 1 - j0); j < cols; ++j) s[j] = kMinusInfinity;
          if (masked)
            for (std::int64_t j = 0; j < cols; ++j)
              if (!options.keep[static_cast<std::size_t>(i * m + j0 + j)]) s[j] = kMinusInfinity;
          online_softmax_row(s, cols, tiles.row_max[r], tiles.row_sum[r], tiles.acc.data() + r * dv, dv);
        }
        // O_tile += P_tile V_tile.
        tile_product<true>(rows, dv, cols, tiles.scores.data(), bc, v.row(bh, j0), dv, false, tiles.acc.data(), dv);
      }

      // O_i = acc_i / l_i and lse_i = (m_i + log2 l_i) · ln 2 (natural log, as
      // the contract's lse); a row that saw no key keeps O_i = 0, lse_i = −∞.
      for (std::int64_t r = 0; r < rows; ++r) {
        const float sum = tiles.row_sum[r];
        float* out = result.output.row(bh, i0 + r);
        const float* o = tiles.acc.data() + r * dv;
        const float inverse = sum > 0 ? 1.0f / sum : 0.0f;
        for (std::int64_t c = 0; c < dv; ++c) out[c] = o[c] * inverse;
        result.lse[static_cast<std::size_t>(bh * n + i0 + r)] =
            sum > 0 ? (tiles.row_max[r] + std::log2(sum)) * 0.693147181f : kMinusInfinity;
      }
    }
  }
  return result;
  // END SOLUTION
}

}  // namespace a04_flash_attention
