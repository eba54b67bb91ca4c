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
constexpr int kSoftmaxRows = 4;  // rows of a tile whose softmax runs together

inline Vec load(const float* p) {
  Vec v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
inline void store(float* p, Vec v) { std::memcpy(p, &v, sizeof v); }
inline Vec splat(float x) { return Vec{} + x; }

// 2^f for f in [−½, ½]: a degree-5 polynomial fitted for the least relative
// error there (below 2e-7, less than the degree-6 Taylor series of e^(f·ln 2)).
inline Vec exp2_fraction(Vec f) {
  Vec p = splat(1.32647238e-3f);
  p = p * f + 9.67151299e-3f;
  p = p * f + 5.55073358e-2f;
  p = p * f + 0.240222424f;
  p = p * f + 0.693147004f;
  return p * f + 1.0f;
}

// 2^x for x <= 0, a lane at a time: 2^x = 2^k · 2^f with k = round(x) and
// f = x − k in [−½, ½]. Adding 1.5·2²³ rounds x to an integer, which lands in
// the low mantissa bits. Far below 0 the result must come out as an exact 0,
// not through an underflow: an operation whose result is subnormal (or
// underflows to 0) costs a microcode assist of a hundred cycles or more, and
// masked tiles are full of −∞.
#if defined(__AVX512F__)
// vscalefps multiplies by 2^k in one instruction; its zero-masked form writes
// 0 in the lanes below −125 (where 2^x is near or below fp32's subnormals)
// without computing them (for −∞, f is NaN there). Called through the
// compiler builtins that <immintrin.h>'s _mm512_cmp_ps_mask(x, c, _CMP_GE_OQ)
// and _mm512_maskz_scalef_ps wrap (predicate 29 is "≥, ordered"; rounding
// 4 is the current mode).
inline Vec exp2_nonpositive(Vec x) {
  constexpr float kRound = 12582912.0f;
  const Vec k = (x + kRound) - kRound;
  const auto normal = __builtin_ia32_cmpps512_mask(x, splat(-125.0f), 29, 0xFFFF, 4);
  return __builtin_ia32_scalefps512_mask(exp2_fraction(x - k), k, Vec{}, normal, 4);
}
#else
// 2^k written straight into the exponent bits: with 127 added to the rounding
// constant, k's bits are already biased, and shifted left by 23 they are
// 2^k's. x is clamped at −127, whose exponent field is 0: 2^k is then 0, and
// so is the product, exactly (for −∞ too); only scores between −127 and
// −126 below their row's max give subnormals.
inline Vec exp2_nonpositive(Vec x) {
  constexpr float kRound = 12582912.0f + 127.0f;
  const Vec clamped = x < -127.0f ? splat(-127.0f) : x;
  const Vec shifted = clamped + kRound;
  IntVec bits;
  std::memcpy(&bits, &shifted, sizeof bits);
  bits <<= 23;
  Vec two_to_k;
  std::memcpy(&two_to_k, &bits, sizeof bits);
  return exp2_fraction(clamped - (shifted - kRound)) * two_to_k;
}
#endif

inline float exp2_nonpositive(float x) {  // the same, one value (rows' tails and corrections)
  Vec v = splat(x);
  return exp2_nonpositive(v)[0];
}

// The largest and the sum of a register's lanes: log2(kLanes) steps, each
// combining every lane with its partner `width` lanes away, in registers (a
// pass through memory stalls on store forwarding, once per row of every tile).
template <int Width, int... L>
constexpr IntVec partner_lanes(std::integer_sequence<int, L...>) {
  return IntVec{(L ^ Width)...};
}
template <int Width, class Combine>
inline Vec butterfly(Vec v, Combine combine) {
  v = combine(v, __builtin_shuffle(v, partner_lanes<Width>(std::make_integer_sequence<int, kLanes>{})));
  if constexpr (Width > 1) v = butterfly<Width / 2>(v, combine);
  return v;
}
inline float horizontal_max(Vec v) {
  return butterfly<kLanes / 2>(v, [](Vec a, Vec b) { return a > b ? a : b; })[0];
}
inline float horizontal_sum(Vec v) {
  return butterfly<kLanes / 2>(v, [](Vec a, Vec b) { return a + b; })[0];
}

// C[r][0..V·kLanes) (+)= Σ_k A[r][k] · B[k][0..V·kLanes) for r < R:
// the register-blocked core of both tile products (S = Q Kᵀ and O += P V).
// Each step k loads one row of B's panel and broadcasts R entries of A into
// R·V fused multiply-adds; the R × V·kLanes sums stay in registers for the
// whole depth.
template <int R, int V, bool Accumulate>
void micro_tile(const float* a, std::int64_t lda, const float* b, std::int64_t ldb, float* c, std::int64_t ldc,
                std::int64_t depth) {
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
    for (int v = 0; v < V; ++v) store(c + r * ldc + v * kLanes, acc[r][v]);
}

// Every row of C against one panel of V vectors: kRows rows at a time, and
// the last few rows with a shorter micro-tile. The panel (depth × V·kLanes
// of B) stays in L1 while the rows go by.
template <int V, bool Accumulate>
void panel_rows(std::int64_t rows, const float* a, std::int64_t lda, const float* b, std::int64_t ldb, float* c,
                std::int64_t ldc, std::int64_t depth) {
  std::int64_t r0 = 0;
  for (; r0 + kRows <= rows; r0 += kRows)
    micro_tile<kRows, V, Accumulate>(a + r0 * lda, lda, b, ldb, c + r0 * ldc, ldc, depth);
  [&]<int... R>(std::integer_sequence<int, R...>) {  // the last rows % kRows rows, one call
    ((rows - r0 == R + 1 ? micro_tile<R + 1, V, Accumulate>(a + r0 * lda, lda, b, ldb, c + r0 * ldc, ldc, depth)
                         : void()),
     ...);
  }
  (std::make_integer_sequence<int, kRows - 1>{});
}

// C (rows × cols) = A (rows × depth) · B (depth × cols), or C += A · B
// when accumulating, A and C row-major. B is row-major (row stride ldb) or,
// `packed`, stored panel after panel: the kPanel columns from j0 on as a
// depth × w block of their own (w = min(kPanel, cols − j0), row stride w), as
// transpose_keys writes Kᵀ, so that each panel is one contiguous stream.
// Panels go in the outer loop; whole vectors by micro-tiles, the last
// cols % kLanes columns one dot product at a time.
template <bool Accumulate>
void tile_product(std::int64_t rows, std::int64_t cols, std::int64_t depth, const float* a, std::int64_t lda,
                  const float* b, std::int64_t ldb, bool packed, float* c, std::int64_t ldc) {
  for (std::int64_t j0 = 0; j0 < cols; j0 += kPanel) {
    const std::int64_t width = std::min(kPanel, cols - j0), vectors = width / kLanes;
    const float* panel = packed ? b + j0 * depth : b + j0;
    const std::int64_t ld = packed ? width : ldb;
    [&]<int... V>(std::integer_sequence<int, V...>) {  // vectors is 1 … kPanelVectors: one call
      ((vectors == V + 1 ? panel_rows<V + 1, Accumulate>(rows, a, lda, panel, ld, c + j0, ldc, depth) : void()), ...);
    }
    (std::make_integer_sequence<int, kPanelVectors>{});
    for (std::int64_t i = 0; i < rows; ++i)
      for (std::int64_t j = vectors * kLanes; j < width; ++j) {
        float sum = 0.0f;
        for (std::int64_t k = 0; k < depth; ++k) sum += a[i * lda + k] * panel[k * ld + j];
        c[i * ldc + j0 + j] = Accumulate ? c[i * ldc + j0 + j] + sum : sum;
      }
  }
}

// C += A · B for a row-major B, over slices of the depth. A panel of B is
// kPanel columns of every row, and every row of the tile streams it past, so
// it must stay in L1; but its rows are ldb floats apart, and with d_v = 128
// (512-byte rows, 256 bytes of each in the panel) 128 rows of it fall into
// half of L1's sets, 16 lines in each of a 12-way cache: lines of it are
// evicted before the next rows come back to them. A slice that spans at most
// kSliceBytes of memory puts no more than kSliceBytes / 4 KiB lines of it in
// any set.
constexpr std::int64_t kSliceBytes = 32 * 1024;
void accumulate_product(std::int64_t rows, std::int64_t cols, std::int64_t depth, const float* a, std::int64_t lda,
                        const float* b, std::int64_t ldb, float* c, std::int64_t ldc) {
  const std::int64_t slice =
      std::max<std::int64_t>(kLanes, kSliceBytes / static_cast<std::int64_t>(ldb * sizeof(float)));
  for (std::int64_t k0 = 0; k0 < depth; k0 += slice)
    tile_product<true>(rows, cols, std::min(slice, depth - k0), a + k0, lda, b + k0 * ldb, ldb, false, c, ldc);
}

// A two-register shuffle's lane choices as a constant: lane l of the result is
// lane f(l) of the pair, where kLanes + x names lane x of the second register.
template <class F, int... L>
constexpr IntVec lane_map(F f, std::integer_sequence<int, L...>) {
  return IntVec{f(L)...};
}
template <class F>
constexpr IntVec lane_map(F f) {
  return lane_map(f, std::make_integer_sequence<int, kLanes>{});
}
inline Vec shuffle(Vec a, Vec b, IntVec lanes) { return __builtin_shuffle(a, b, lanes); }

// Transposes a kLanes × kLanes block held in kLanes registers, in shuffles
// the vector unit does with an immediate operand (no index register to keep
// live, so that all kLanes rows stay in registers): within each 128-bit
// quarter, pairs of rows interleaved a value at a time, then pairs of pairs
// two values at a time, which transposes every 4 × 4 block in place; then
// the 4 × 4 blocks trade places as whole quarters. kLanes shuffles per step.
inline void transpose_block(Vec (&rows)[kLanes]) {
  constexpr int kQuarters = kLanes / 4;
  // Steps 1 and 2: t[2i], t[2i + 1] interleave rows 2i and 2i + 1 (values 0, 1
  // and 2, 3 of each quarter); then rows[4g + c] holds, in quarter q, column
  // 4q + c of the input's rows 4g … 4g + 3.
  constexpr IntVec low1 = lane_map([](int l) { return (l & 1) * kLanes + l / 4 * 4 + l % 4 / 2; });
  constexpr IntVec high1 = lane_map([](int l) { return (l & 1) * kLanes + l / 4 * 4 + 2 + l % 4 / 2; });
  constexpr IntVec low2 = lane_map([](int l) { return (l & 2) / 2 * kLanes + l / 4 * 4 + l % 2; });
  constexpr IntVec high2 = lane_map([](int l) { return (l & 2) / 2 * kLanes + l / 4 * 4 + 2 + l % 2; });
  Vec t[kLanes];
#pragma GCC unroll 16
  for (int i = 0; i < kLanes; i += 2) {
    t[i] = shuffle(rows[i], rows[i + 1], low1);
    t[i + 1] = shuffle(rows[i], rows[i + 1], high1);
  }
#pragma GCC unroll 16
  for (int g = 0; g < kLanes; g += 4) {
    rows[g] = shuffle(t[g], t[g + 2], low2);
    rows[g + 1] = shuffle(t[g], t[g + 2], high2);
    rows[g + 2] = shuffle(t[g + 1], t[g + 3], low2);
    rows[g + 3] = shuffle(t[g + 1], t[g + 3], high2);
  }
  // Step 3: the quarters. Output row 4q + c takes, as quarter g, quarter q
  // of rows[4g + c]: for each c a kQuarters × kQuarters transpose of quarters.
  if constexpr (kQuarters == 2) {
    constexpr IntVec first = lane_map([](int l) { return l < 4 ? l : kLanes + l - 4; });
    constexpr IntVec second = lane_map([](int l) { return l < 4 ? 4 + l : kLanes + l; });
#pragma GCC unroll 4
    for (int c = 0; c < 4; ++c) {
      const Vec a = rows[c], b = rows[4 + c];
      rows[c] = shuffle(a, b, first);
      rows[4 + c] = shuffle(a, b, second);
    }
  } else {
    // Two steps of whole-quarter shuffles: the halves (quarters 0, 1 and 2, 3)
    // of two registers, then the even and the odd quarters of two of those.
    constexpr IntVec halves_low = lane_map([](int l) { return l < 8 ? l : kLanes + l - 8; });
    constexpr IntVec halves_high = lane_map([](int l) { return l < 8 ? 8 + l : kLanes + l; });
    constexpr IntVec even = lane_map([](int l) { return (l < 8 ? 0 : kLanes) + (l / 4 % 2) * 8 + l % 4; });
    constexpr IntVec odd = lane_map([](int l) { return (l < 8 ? 0 : kLanes) + (l / 4 % 2) * 8 + 4 + l % 4; });
#pragma GCC unroll 4
    for (int c = 0; c < 4; ++c) {
      const Vec s0 = shuffle(rows[c], rows[4 + c], halves_low), s1 = shuffle(rows[c], rows[4 + c], halves_high);
      const Vec s2 = shuffle(rows[8 + c], rows[12 + c], halves_low),
                s3 = shuffle(rows[8 + c], rows[12 + c], halves_high);
      rows[c] = shuffle(s0, s2, even);
      rows[4 + c] = shuffle(s0, s2, odd);
      rows[8 + c] = shuffle(s1, s3, even);
      rows[12 + c] = shuffle(s1, s3, odd);
    }
  }
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

// Online softmax for R rows of a tile (row stride lds), in base 2: with
// scale = log2(e)/√d, exp(s/√d − m) = 2^(s·scale − m'), and s·scale − m' is
// one fused multiply-add per score. With m' = max(m, scale · max_j s_j)
// (scale > 0, so the largest score stays the largest):
//   l' = l·2^(m − m') + Σ_j 2^(s_j·scale − m')   and   O' = O·2^(m − m') + Σ_j 2^(s_j·scale − m') v_j,
// so that at the end O / l is softmax(s/√d) V over every key, although no row
// ever saw more than one tile of scores at a time. Turns s into P in place
// and rescales the rows' accumulators o (row stride ldo). A row that has seen
// only masked keys (m' = −∞) gets P = 0: its scores are all −∞, and 2^(−∞ − 0)
// is 0. The R rows go through each loop together: a row alone is a chain of
// dependent maxima, then of sums, too short to keep the vector unit busy.
template <int R>
void online_softmax_rows(float* s, std::int64_t lds, std::int64_t cols, float scale, float* row_max, float* row_sum,
                         float* o, std::int64_t ldo, std::int64_t dv) {
  const std::int64_t whole = cols / kLanes * kLanes;
  Vec max_v[R];
  for (int r = 0; r < R; ++r) max_v[r] = splat(kMinusInfinity);
  for (std::int64_t j = 0; j < whole; j += kLanes)
    for (int r = 0; r < R; ++r) {
      const Vec x = load(s + r * lds + j);
      max_v[r] = x > max_v[r] ? x : max_v[r];
    }
  float new_max[R];
  Vec subtract[R], sum_v[R];
  for (int r = 0; r < R; ++r) {
    float block_max = horizontal_max(max_v[r]);
    for (std::int64_t j = whole; j < cols; ++j) block_max = std::max(block_max, s[r * lds + j]);
    new_max[r] = std::max(row_max[r], block_max * scale);
    subtract[r] = splat(new_max[r] == kMinusInfinity ? 0.0f : new_max[r]);
    sum_v[r] = Vec{};
  }
  for (std::int64_t j = 0; j < whole; j += kLanes)
    for (int r = 0; r < R; ++r) {
      const Vec p = exp2_nonpositive(load(s + r * lds + j) * scale - subtract[r]);
      store(s + r * lds + j, p);
      sum_v[r] += p;
    }
  for (int r = 0; r < R; ++r) {
    float block_sum = horizontal_sum(sum_v[r]);
    for (std::int64_t j = whole; j < cols; ++j)
      block_sum += (s[r * lds + j] = exp2_nonpositive(s[r * lds + j] * scale - subtract[r][0]));
    if (new_max[r] != row_max[r]) {  // the running max moved: scale what was summed under the old one
      const float correction = exp2_nonpositive(row_max[r] - new_max[r]);  // 0 on the first visible tile
      row_sum[r] *= correction;
      for (std::int64_t c = 0; c < dv; ++c) o[r * ldo + c] *= correction;
    }
    row_sum[r] += block_sum;
    row_max[r] = new_max[r];
  }
}

// One worker's scratch, allocated once per thread: everything flash attention
// holds besides its output is these few tiles.
struct Tiles {
  std::vector<float> scores;   // B_r × B_c: S = Q_tile K_tileᵀ, then P
  std::vector<float> keys_t;   // d × B_c: the key tile transposed into panels, so that S is a row-major product
  std::vector<float> acc;      // B_r × d_v: unnormalised output rows
  std::vector<float> row_max;  // m_i: the largest scaled score seen so far in row i (base 2)
  std::vector<float> row_sum;  // l_i: Σ_j 2^(s_ij · scale − m_i) over the keys seen so far
};

}  // namespace
// END SOLUTION

FlashResult flash_attention(const Tensor4& q, const Tensor4& k, const Tensor4& v, const FlashOptions& options) {
  // BEGIN SOLUTION
  require_valid(q, k, v, options);
  const std::int64_t n = q.rows(), m = k.rows(), d = q.cols(), dv = v.cols();
  const std::int64_t br = std::min(options.block_rows, n), bc = std::min(options.block_cols, m);
  // The softmax in base 2: exp(s/√d) = 2^(s · log2(e)/√d).
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

      // Every other block sweeps the keys backwards: the tiles the last
      // sweep ended on are still in this core's L2 when the next one starts.
      const std::int64_t key_tiles = (key_end + bc - 1) / bc;
      for (std::int64_t tile = 0; tile < key_tiles; ++tile) {
        const std::int64_t j0 = (t % 2 ? key_tiles - 1 - tile : tile) * bc, cols = std::min(bc, key_end - j0);
        transpose_keys(k.row(bh, j0), cols, d, tiles.keys_t.data());
        // S_tile = Q_tile K_tileᵀ.
        tile_product<false>(rows, cols, d, q.row(bh, i0), d, tiles.keys_t.data(), 0, true, tiles.scores.data(), bc);
        for (std::int64_t r = 0; r < rows; ++r) {
          float* s = tiles.scores.data() + r * bc;
          const std::int64_t i = i0 + r;
          if (options.causal && j0 + cols - 1 > i)
            for (std::int64_t j = std::max<std::int64_t>(0, i + 1 - j0); j < cols; ++j) s[j] = kMinusInfinity;
          if (masked)
            for (std::int64_t j = 0; j < cols; ++j)
              if (!options.keep[static_cast<std::size_t>(i * m + j0 + j)]) s[j] = kMinusInfinity;
        }
        std::int64_t r = 0;
        for (; r + kSoftmaxRows <= rows; r += kSoftmaxRows)
          online_softmax_rows<kSoftmaxRows>(tiles.scores.data() + r * bc, bc, cols, scale, tiles.row_max.data() + r,
                                            tiles.row_sum.data() + r, tiles.acc.data() + r * dv, dv, dv);
        for (; r < rows; ++r)
          online_softmax_rows<1>(tiles.scores.data() + r * bc, bc, cols, scale, tiles.row_max.data() + r,
                                 tiles.row_sum.data() + r, tiles.acc.data() + r * dv, dv, dv);
        // O_tile += P_tile V_tile.
        accumulate_product(rows, dv, cols, tiles.scores.data(), bc, v.row(bh, j0), dv, tiles.acc.data(), dv);
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
