// Provided: the GPT-2-shaped transformer of transformer.hpp. Its linear layers
// and LM head read each weight once per step whatever the batch, and apply it
// to every row of the batch from registers, so a decode step costs what the
// roofline says it should: at batch 1 the weights' bytes, plus the cache's;
// at batch 8 or 32 their arithmetic as well. Each kernel is a template on
// how it reads W (F32, F16, BF16 below): a model held in 16 bits reads half
// the bytes and widens them in registers. (Prefill here is a step per prompt
// token; a batched prefill would use a05's flash attention.)
#include "a06_kv_cache_decode/transformer.hpp"

#include <omp.h>
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>  // F16C's and AVX-512's fp16 conversion (F16 below); elsewhere a lane at a time
#endif

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <memory>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "a06_kv_cache_decode/decode_attention.hpp"
#include "a06_kv_cache_decode/weight_layout.hpp"
#include "rooflab/call_counts.hpp"
#include "rooflab/fast_exp.hpp"
#include "weight_format.hpp"
#include "weight_tiles.hpp"

namespace a06_kv_cache_decode {
namespace {

// A model size that must be at least 1.
void require_size(std::int64_t value, const char* name) {
  if (value <= 0) throw std::invalid_argument(std::string(name) + ": must be positive");
}

void require_valid(const ModelConfig& c) {
  require_size(c.layers, "layers");
  require_size(c.d_model, "d_model");
  require_size(c.heads, "heads");
  require_size(c.kv_heads, "kv_heads");
  require_size(c.d_ff, "d_ff");
  require_size(c.vocab, "vocab");
  require_size(c.context, "context");
  if (c.d_model % c.heads != 0) throw std::invalid_argument("heads: must divide d_model");
  if (c.heads % c.kv_heads != 0) throw std::invalid_argument("kv_heads: must divide heads");
}

std::int64_t kv_width(const ModelConfig& c) { return c.kv_heads * c.head_dim(); }

std::vector<float> normal(std::size_t count, std::mt19937_64& engine, float scale = 0.02f) {
  std::vector<float> values(count);
  std::normal_distribution<float> distribution(0.0f, scale);
  for (float& v : values) v = distribution(engine);
  return values;
}

// The vector width and register tile of weight_tiles.hpp, which also fixes
// the tile order the layers' matrices are held in. GCC's vector extensions
// say which values live in registers without intrinsics; the arithmetic on
// them compiles to FMA.
using weight_tiles::ColumnTile;
using weight_tiles::kChunkRows;
using weight_tiles::kLanes;
using weight_tiles::kTileRows;
using weight_tiles::kTileVectors;
typedef float Vec __attribute__((vector_size(kLanes * 4)));
typedef std::int32_t IntVec __attribute__((vector_size(kLanes * 4)));

Vec load(const float* p) {
  Vec v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
void store(float* p, Vec v) { std::memcpy(p, &v, sizeof v); }

// How the kernels read a weight matrix held in each WeightFormat: `Bits` its
// element, vec() kLanes of them widened to fp32, one() a single one. The
// 16-bit forms halve the bytes a step reads; widening is exact, so the sums
// are the fp32 model's, in the same order.
struct F32 {
  using Bits = float;
  static Vec vec(const float* p) { return load(p); }
  static float one(const float* p) { return *p; }
};
struct BF16 {
  using Bits = std::uint16_t;
  // bf16 is fp32's upper half: widen each to 32 bits and shift it there.
  static Vec vec(const std::uint16_t* p) {
    typedef std::uint16_t Halves __attribute__((vector_size(kLanes * 2)));
    Halves halves;
    std::memcpy(&halves, p, sizeof halves);
    const IntVec wide = __builtin_convertvector(halves, IntVec) << 16;
    Vec v;
    std::memcpy(&v, &wide, sizeof v);
    return v;
  }
  static float one(const std::uint16_t* p) { return weight_format::bfloat16_to_float(*p); }
};
struct F16 {
  using Bits = std::uint16_t;
  // The hardware's conversion where the build has one (F16C, AVX-512), else a lane at a time.
  static Vec vec(const std::uint16_t* p) {
    Vec v;
#if defined(__AVX512F__) && (defined(__x86_64__) || defined(__i386__))
    static_assert(kLanes == 16);
    // The zero-masked form: GCC 12 warns that the plain one's undefined start value is "uninitialized".
    const __m512 wide =
        _mm512_maskz_cvtph_ps(static_cast<__mmask16>(0xffff), _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
    std::memcpy(&v, &wide, sizeof v);
#elif defined(__F16C__) && defined(__AVX__) && !defined(__AVX512F__)
    static_assert(kLanes == 8);
    const __m256 wide = _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
    std::memcpy(&v, &wide, sizeof v);
#else
    for (int i = 0; i < kLanes; ++i) v[i] = weight_format::half_to_float(p[i]);
#endif
    return v;
  }
  static float one(const std::uint16_t* p) { return weight_format::half_to_float(*p); }
};

// call(E{}) with the reader of `format`: the one place a kernel's format is chosen.
template <class Call>
void in_format(WeightFormat format, Call&& call) {
  switch (format) {
    case WeightFormat::f16:
      return call(F16{});
    case WeightFormat::bf16:
      return call(BF16{});
    default:
      return call(F32{});
  }
}

// A matrix's values as E reads them: the fp32 vector, or the 16-bit one.
template <class E>
const typename E::Bits* held(const std::vector<float>& f32, const std::vector<std::uint16_t>& b16) {
  if constexpr (std::is_same_v<E, F32>)
    return f32.data();
  else
    return b16.data();
}

template <class E>
struct LinearArgs {
  const float* x;             // (rows × in)
  const typename E::Bits* w;  // (in × out) in tile order (weight_tiles.hpp)
  float* y;                   // (rows × out), holding the bias and the sums so far
  std::int64_t rows, in, out;
  std::vector<ColumnTile> tiles;  // W's column tiles
  std::int64_t chunks;            // and its chunks of rows
  const typename E::Bits* block(std::int64_t c, const ColumnTile& tile) const {
    return w + weight_tiles::block_offset(in, out, c, tile);
  }
};

// The cache lines of a later block that a row tile asks for while it works:
// `per_row` of them at each of its rows of W, from `next` until `end`.
struct Prefetch {
  const char* next = nullptr;
  const char* end = nullptr;
  std::int64_t per_row = 0;
};

// y[r0 … r0+R−1][j0 … j0+V·kLanes−1] += Σ_{p0 ≤ p < p0+n} x[r][p] · W[p][j]:
// the R·V sums stay in registers, and each vector of W loaded is used R
// times. `block` holds W's n rows of these columns one after another (read
// as W reads it: the model's block, or the fp32 panel linear_block widened
// it into), and `ahead` spreads this tile's share of the prefetches over
// its n rows, so that they never queue up at once. kKeep: each vector of W
// also goes to `keep`, as the tiles after this one will read it.
template <int R, int V, class W, class E, bool kKeep = false>
void linear_tile(const LinearArgs<E>& a, std::int64_t r0, std::int64_t j0, std::int64_t p0, std::int64_t n,
                 const typename W::Bits* block, Prefetch ahead, float* keep = nullptr) {
  float* y = a.y + r0 * a.out + j0;
  const float* x = a.x + r0 * a.in + p0;
  Vec sums[R][V];
  for (int r = 0; r < R; ++r)
    for (int v = 0; v < V; ++v) sums[r][v] = load(y + r * a.out + v * kLanes);
  for (std::int64_t p = 0; p < n; ++p) {
    Vec w[V];
    for (int v = 0; v < V; ++v) w[v] = W::vec(block + (p * V + v) * kLanes);
    if constexpr (kKeep)
      for (int v = 0; v < V; ++v) store(keep + (p * V + v) * kLanes, w[v]);
    for (std::int64_t k = 0; k < ahead.per_row && ahead.next < ahead.end; ++k, ahead.next += 64)
      __builtin_prefetch(ahead.next, 0, 2);
    for (int r = 0; r < R; ++r) {
      const float xr = x[r * a.in + p];
      for (int v = 0; v < V; ++v) sums[r][v] += xr * w[v];
    }
  }
  for (int r = 0; r < R; ++r)
    for (int v = 0; v < V; ++v) store(y + r * a.out + v * kLanes, sums[r][v]);
}

// linear_tile with R = rows, for the batch's last rows (fewer than kTileRows).
template <int V, class W, int R = kTileRows, class E>
void linear_tile_rows(int rows, const LinearArgs<E>& a, std::int64_t r0, std::int64_t j0, std::int64_t p0,
                      std::int64_t n, const typename W::Bits* block, Prefetch ahead) {
  if constexpr (R > 0) {
    if (rows == R) return linear_tile<R, V, W>(a, r0, j0, p0, n, block, ahead);
    linear_tile_rows<V, W, R - 1>(rows, a, r0, j0, p0, n, block, ahead);
  }
}

// Block (c, tile) of W, V vectors wide, against every row of the batch, one
// row tile after another while the block is in L1; the row tiles share out
// the prefetching of `ahead` (the block this thread takes kBlocksAhead
// blocks later: nullptr for none), a cache line or a few per row of W.
// Held in 16 bits and read by more than one row tile, the block is widened
// once into an fp32 panel on the stack, which the other row tiles then read:
// the conversions stay off the FMA issue slots (docs/benchmarks.md). The
// first row tile widens it as it goes, so that the block's arrival and its
// conversions overlap with that tile's multiply-adds (a separate pass over
// the block before the tiles waited for both: about 7 % slower at batch 32).
template <int V, class E>
void linear_block(const LinearArgs<E>& a, std::int64_t c, const ColumnTile& tile, const char* ahead,
                  std::int64_t ahead_bytes) {
  constexpr std::int64_t kWidth = V * kLanes;
  const std::int64_t n = weight_tiles::chunk_rows(a.in, c), p0 = c * kChunkRows;
  const typename E::Bits* block = a.block(c, tile);
  const std::int64_t row_tiles = (a.rows + kTileRows - 1) / kTileRows;
  const std::int64_t lines = ahead ? (ahead_bytes + 63) / 64 : 0, share = (lines + row_tiles - 1) / row_tiles;
  const auto prefetch = [&](std::int64_t i) {
    const std::int64_t first = std::min(lines, i * share), last = std::min(lines, (i + 1) * share);
    return Prefetch{ahead + first * 64, ahead + last * 64, (last - first + n - 1) / n};
  };
  const auto rows_of = [&](std::int64_t r0) {
    return static_cast<int>(std::min<std::int64_t>(kTileRows, a.rows - r0));
  };
  if (!std::is_same_v<E, F32> && row_tiles > 1) {
    alignas(64) float panel[kChunkRows * kWidth];
    linear_tile<kTileRows, V, E, E, true>(a, 0, tile.start, p0, n, block, prefetch(0), panel);
    for (std::int64_t r0 = kTileRows, i = 1; r0 < a.rows; r0 += kTileRows, ++i)
      linear_tile_rows<V, F32>(rows_of(r0), a, r0, tile.start, p0, n, panel, prefetch(i));
    return;
  }
  for (std::int64_t r0 = 0, i = 0; r0 < a.rows; r0 += kTileRows, ++i)
    linear_tile_rows<V, E>(rows_of(r0), a, r0, tile.start, p0, n, block, prefetch(i));
}

// y[r][j] += Σ_{p<n} x[r][p] · block[p][j] for `rows` rows (x and y `stride`
// floats apart) and a block narrower than a vector (W's last out % kLanes
// columns), a column at a time: the batched path's y, or a batch of one's
// partial.
template <class E>
void narrow_block(const float* x, std::int64_t x_stride, const typename E::Bits* block, std::int64_t n,
                  std::int64_t width, std::int64_t rows, float* y, std::int64_t y_stride) {
  for (std::int64_t r = 0; r < rows; ++r)
    for (std::int64_t j = 0; j < width; ++j) {
      float sum = y[r * y_stride + j];
      // An explicit FMA: the same rounding whichever format E reads (a
      // compiler may contract a·b + c in one instantiation and not another).
      for (std::int64_t p = 0; p < n; ++p) sum = std::fma(x[r * x_stride + p], E::one(block + p * width + j), sum);
      y[r * y_stride + j] = sum;
    }
}

// whole(std::integral_constant<int, V>{}) for a tile V whole vectors wide,
// narrow() for one narrower than a vector: the one place a tile's width
// picks its kernel.
template <class Whole, class Narrow>
void by_tile_width(const ColumnTile& tile, Whole whole, Narrow narrow) {
  switch (tile.width / kLanes) {
    case 3:
      if constexpr (kTileVectors >= 3) whole(std::integral_constant<int, 3>{});
      return;
    case 2:
      return whole(std::integral_constant<int, 2>{});
    case 1:
      return whole(std::integral_constant<int, 1>{});
    default:
      return narrow();
  }
}

// How many blocks ahead of the one in use a thread asks for: enough that a
// block has arrived when its turn comes, few enough that the blocks in
// flight still fit in L2 beside the one in use.
constexpr std::int64_t kBlocksAhead = 3;

// y[j0 … j1) = the bias's columns, or zeros where there is none (b null).
void start_at_bias(const float* b, std::int64_t j0, std::int64_t j1, float* y) {
  if (b)
    std::copy(b + j0, b + j1, y + j0);
  else
    std::fill(y + j0, y + j1, 0.0f);
}

// Tiles [first, last) of W, tile by tile, each tile's chunks top to bottom:
// each block once, applied to the whole batch. A tile's rows × width sums
// stay in L1 from its first chunk to its last (chunk by chunk across the
// band, the LM head's were 3.2 MB a thread at batch 32, out of L2, and batch
// 32 ran 3–6 % slower: docs/benchmarks.md). The blocks come in the order
// this thread reads them, and each one prefetches the block kBlocksAhead
// places further in that order. y's columns of the band start as the bias
// (zeros without one); once a tile's last chunk is in, finish(j0, width)
// gets its columns, finished, while they are in cache.
template <class E, class Finish>
void linear_band(const LinearArgs<E>& a, const float* bias, std::int64_t first, std::int64_t last,
                 const Finish& finish) {
  if (first == last) return;
  const std::int64_t blocks = (last - first) * a.chunks;
  const ColumnTile &left = a.tiles[static_cast<std::size_t>(first)],
                   &right = a.tiles[static_cast<std::size_t>(last - 1)];
  for (std::int64_t r = 0; r < a.rows; ++r) start_at_bias(bias, left.start, right.start + right.width, a.y + r * a.out);
  // Block k of the band's order: chunk k % chunks of tile first + k / chunks.
  const auto chunk_of = [&](std::int64_t k) { return k % a.chunks; };
  const auto tile_of = [&](std::int64_t k) -> const ColumnTile& {
    return a.tiles[static_cast<std::size_t>(first + k / a.chunks)];
  };
  for (std::int64_t k = 0; k < blocks; ++k) {
    const std::int64_t c = chunk_of(k);
    const ColumnTile& tile = tile_of(k);
    const char* ahead = nullptr;
    std::int64_t ahead_bytes = 0;
    if (k + kBlocksAhead < blocks) {
      const std::int64_t c_ahead = chunk_of(k + kBlocksAhead);
      const ColumnTile& later = tile_of(k + kBlocksAhead);
      ahead = reinterpret_cast<const char*>(a.block(c_ahead, later));
      ahead_bytes =
          weight_tiles::chunk_rows(a.in, c_ahead) * later.width * static_cast<std::int64_t>(sizeof(typename E::Bits));
    }
    by_tile_width(
        tile, [&](auto vectors) { linear_block<decltype(vectors)::value>(a, c, tile, ahead, ahead_bytes); },
        [&] {
          narrow_block<E>(a.x + c * kChunkRows, a.in, a.block(c, tile), weight_tiles::chunk_rows(a.in, c), tile.width,
                          a.rows, a.y + tile.start, a.out);
        });
    if (c == a.chunks - 1) finish(tile.start, tile.width);
  }
}

// Blocks that a batch of one reads side by side: a row of each at a time,
// so that the hardware prefetcher follows that many streams at once (one
// stream per core left this Xeon's memory idle: docs/benchmarks.md). Their
// sums take G·kTileVectors of the registers: 24 of AVX-512's 32, 8 of AVX's 16.
constexpr int kStreamGroup = kLanes == 16 ? 8 : 4;

// partial[0 … G·V·kLanes) = Σ_{p<n} x[p] · W[p][·] for one row x over G
// adjacent blocks of one chunk (V vectors wide each, n rows, the first at
// `first`): the G·V sums in registers, stored once at the end. The partial's
// lines are asked for (for writing) as the unit starts: cold by then (the
// weights streamed through the cache since they were last read), they
// arrive while the blocks stream, not as the sums are stored (zeroing them
// first, the stalls on those lines took 2–5 % of a batch-1 decode's samples).
template <int G, int V, class E>
void stream_blocks(const float* x, const typename E::Bits* first, std::int64_t n, float* partial) {
  for (int line = 0; line < G * V * kLanes * 4 / 64; ++line) __builtin_prefetch(partial + line * 16, 1, 3);
  Vec sums[G][V] = {};
  for (std::int64_t p = 0; p < n; ++p)
    for (int g = 0; g < G; ++g)
      for (int v = 0; v < V; ++v) sums[g][v] += x[p] * E::vec(first + (g * n * V + p * V + v) * kLanes);
  for (int g = 0; g < G; ++g)
    for (int v = 0; v < V; ++v) store(partial + (g * V + v) * kLanes, sums[g][v]);
}

// Claims on one thread's share of a layer's units (linear_stream): its owner
// takes them from the front, the other threads, once their own shares are
// done, from the back; `claimed` counts both, so that the two ends never
// take a unit twice.
struct alignas(64) ShareClaims {
  std::atomic<std::int64_t> claimed{0}, from_back{0};
};

// y[0 … out) += x · W for one row x. A batch of one does a multiply-add per
// weight, so the layer is a pass over W at the speed memory delivers it.
// W's blocks go in units of up to kStreamGroup blocks side by side in one
// chunk, whole tiles read a row of each at a time, which keeps as many
// hardware prefetch streams busy (the column bands of the batched path, with
// each thread's software prefetches, were slower at batch 1:
// docs/benchmarks.md). Each thread streams its share of the units, a
// contiguous run of memory, from the front; one that finishes first takes
// the others' last units from the back, so that neither waits at the
// barrier for a share fixed in advance (with fixed shares, waiting threads
// took 15 % of a batch-1 decode's samples in fp16, and 8–13 % since; one
// counter handing out every unit, the threads' reads interleaved, was no
// faster than fixed shares: docs/benchmarks.md). A unit
// writes its sums into the partial of its chunk (`chunks` rows of `out`
// floats, each column of a row written by one unit), and after the barrier
// each thread sets its share of y to the bias plus the chunks' partials,
// chunk 0 first: the same sums in the same order whichever thread took
// which unit, and whatever the thread count. (y is not written before:
// the bias copied into it first was a pass over y on one thread while the
// other waited, 200 KB for the LM head's logits.)
template <class E, class Finish>
void linear_stream(const LinearArgs<E>& a, const float* bias, float* partials, ShareClaims* shares, int t, int count,
                   const Finish& finish) {
  const auto width = static_cast<std::int64_t>(a.tiles.size());
  const std::int64_t groups = (width + kStreamGroup - 1) / kStreamGroup, units = groups * a.chunks;
  const auto share_begin = [&](int s) { return units * s / count; };
  std::int64_t from_front = 0;
  // The next unit: this thread's own from the front, then the others' from the back; −1 once none is left.
  const auto claim = [&]() -> std::int64_t {
    for (int k = 0; k < count; ++k) {
      const int s = (t + k) % count;
      const std::int64_t size = share_begin(s + 1) - share_begin(s);
      ShareClaims& share = shares[s];
      if (share.claimed.load(std::memory_order_relaxed) >= size ||
          share.claimed.fetch_add(1, std::memory_order_relaxed) >= size)
        continue;
      if (k == 0) return share_begin(s) + from_front++;
      return share_begin(s + 1) - 1 - share.from_back.fetch_add(1, std::memory_order_relaxed);
    }
    return -1;
  };
  for (std::int64_t u = claim(); u >= 0; u = claim()) {
    const std::int64_t c = u / groups, first = u % groups * kStreamGroup, last = std::min(width, first + kStreamGroup);
    const std::int64_t n = weight_tiles::chunk_rows(a.in, c);
    const float* x = a.x + c * kChunkRows;
    float* partial = partials + c * a.out;
    const ColumnTile &left = a.tiles[static_cast<std::size_t>(first)],
                     &right = a.tiles[static_cast<std::size_t>(last - 1)];
    // The unit's blocks are whole tiles if its last one is: the narrower tiles come last.
    if (last - first == kStreamGroup && right.width == kTileVectors * kLanes) {
      stream_blocks<kStreamGroup, kTileVectors, E>(x, a.block(c, left), n, partial + left.start);
      continue;
    }
    for (std::int64_t i = first; i < last; ++i) {
      const ColumnTile& tile = a.tiles[static_cast<std::size_t>(i)];
      const typename E::Bits* block = a.block(c, tile);
      by_tile_width(
          tile, [&](auto vectors) { stream_blocks<1, decltype(vectors)::value, E>(x, block, n, partial + tile.start); },
          [&] {
            std::fill(partial + tile.start, partial + tile.start + tile.width, 0.0f);
            narrow_block<E>(x, 0, block, n, tile.width, 1, partial + tile.start, 0);
          });
    }
  }
#pragma omp barrier
  // Each thread its share of y's vectors; the last one also the columns that fill no vector.
  const std::int64_t vectors = a.out / kLanes, j0 = vectors * t / count * kLanes,
                     j1 = vectors * (t + 1) / count * kLanes;
  for (std::int64_t j = j0; j < j1; j += kLanes) {
    Vec sum = bias ? load(bias + j) : Vec{};
    for (std::int64_t c = 0; c < a.chunks; ++c) sum += load(partials + c * a.out + j);
    store(a.y + j, sum);
  }
  finish(j0, j1 - j0);
  if (t == count - 1) {
    for (std::int64_t j = vectors * kLanes; j < a.out; ++j) {
      a.y[j] = bias ? bias[j] : 0.0f;
      for (std::int64_t c = 0; c < a.chunks; ++c) a.y[j] += partials[c * a.out + j];
    }
    finish(vectors * kLanes, a.out - vectors * kLanes);
  }
}

// y (rows × out) = x (rows × in) · W + b (b null: no bias), W (in × out) in
// tile order, and then finish(j0, width) on every row's columns [j0, j0 +
// width), each once, by the thread that computed them: the GELU or the
// residual sum that follows the layer runs in the same parallel region, not
// as a serial pass over y while the other thread waits (at batch 32 those
// passes, the layer norms and the bias copies were a fifth of a step). One
// row: linear_stream. More: each thread owns a band of W's column tiles and
// reads only their blocks, once per step whatever the batch; register tiles
// apply each vector of W to up to kTileRows rows, so a batch of 8 or 32 does
// its arithmetic at FMA speed rather than waiting on a load and a store of a
// partial sum per multiply-add.
template <class E, class Finish>
void linear_in(const float* x, std::int64_t rows, const typename E::Bits* w, const float* b, std::int64_t in,
               std::int64_t out, float* y, const Finish& finish) {
  if (rows == 0) return;  // every sequence sat the step out
  const LinearArgs<E> args{x, w, y, rows, in, out, weight_tiles::column_tiles(out), weight_tiles::chunks(in)};
  if (rows == 1) {
    // Not zeroed: each unit stores its own columns of its chunk's partial (a narrow tile zeroes its few first).
    const std::unique_ptr<float[]> partials(new float[static_cast<std::size_t>(args.chunks * out)]);
    const std::unique_ptr<ShareClaims[]> shares(new ShareClaims[static_cast<std::size_t>(omp_get_max_threads())]);
#pragma omp parallel
    linear_stream(args, b, partials.get(), shares.get(), omp_get_thread_num(), omp_get_num_threads(), finish);
    return;
  }
  const auto tiles = static_cast<std::int64_t>(args.tiles.size());
#pragma omp parallel
  {
    const int t = omp_get_thread_num(), count = omp_get_num_threads();
    linear_band(args, b, tiles * t / count, tiles * (t + 1) / count, finish);
  }
}

// Nothing to do after a linear layer.
void no_finish(std::int64_t, std::int64_t) {}

// A layer's matrix in the model's format (the fp32 vector, or its 16 bits),
// and what follows it on each finished range of columns (linear_in).
template <class Finish = decltype(&no_finish)>
void linear(const Model& model, const float* x, std::int64_t rows, const std::vector<float>& w32,
            const std::vector<std::uint16_t>& w16, const std::vector<float>& b, std::int64_t in, std::int64_t out,
            float* y, const Finish& finish = no_finish) {
  in_format(model.format, [&](auto format) {
    using E = decltype(format);
    linear_in<E>(x, rows, held<E>(w32, w16), b.data(), in, out, y, finish);
  });
}

// Each row of x normalised, scaled and shifted into y, in double within a
// row; the threads share the rows.
void layer_norm(const float* x, std::int64_t rows, std::int64_t d, const std::vector<float>& scale,
                const std::vector<float>& shift, float* y) {
#pragma omp parallel for schedule(static) if (rows > 1)
  for (std::int64_t r = 0; r < rows; ++r) {
    const float* row = x + r * d;
    double mean = 0, variance = 0;
    for (std::int64_t i = 0; i < d; ++i) mean += row[i];
    mean /= static_cast<double>(d);
    for (std::int64_t i = 0; i < d; ++i) variance += (row[i] - mean) * (row[i] - mean);
    const auto inverse = static_cast<float>(1.0 / std::sqrt(variance / static_cast<double>(d) + 1e-5));
    for (std::int64_t i = 0; i < d; ++i)
      y[r * d + i] = (row[i] - static_cast<float>(mean)) * inverse * scale[static_cast<std::size_t>(i)] +
                     shift[static_cast<std::size_t>(i)];
  }
}

// GPT-2's GELU, the tanh approximation: 0.5·x·(1 + tanh(u)) with
// u = √(2/π)·(x + 0.044715·x³), which is x / (1 + e^(−2u)). With
// e = e^(−2|u|) ≤ 1 that is x / (1 + e) for u ≥ 0 and x·e / (1 + e) below:
// no overflow, and one vectorised exp instead of a call to libm's tanh per
// element (at batch 32, 1.2 M calls a step).
Vec gelu(Vec x) {
  const Vec u = 0.7978845608f * (x + 0.044715f * x * x * x);
  const Vec e = rooflab::exp_nonpositive_lanes(-2.0f * (u < 0.0f ? -u : u));
  return (u < 0.0f ? x * e : x) / (1.0f + e);
}

// gelu() on n values in place; the last few through a zero-padded vector, so
// that every value goes through the same arithmetic whatever n is.
void apply_gelu(float* values, std::int64_t n) {
  std::int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) store(values + i, gelu(load(values + i)));
  if (i == n) return;
  float tail[kLanes] = {};
  std::copy(values + i, values + n, tail);
  store(tail, gelu(load(tail)));
  std::copy(tail, tail + (n - i), values + i);
}

// logits (rows × vocab) = h · Eᵀ: the LM head, tied to the token embedding,
// which the model holds as Eᵀ (d_model × vocab) in the layers' tile order,
// so that the head is one more linear layer, without a bias: E is read once
// a step, a block at a time, each block meets every row of the batch from
// registers, and a value held in 16 bits is widened once. (Held row-major,
// E needed kernels of its own, which ended each dot product with a sum
// across vector lanes and read 16 rows of E side by side at batch 1: batch
// 8 ran at 0.67–0.91 of today's speed in fp32, docs/benchmarks.md.)
void lm_head(const Model& model, const float* h, std::int64_t rows, float* logits) {
  const std::int64_t d = model.config.d_model, vocab = model.config.vocab;
  in_format(model.format, [&](auto format) {
    using E = decltype(format);
    linear_in<E>(h, rows, held<E>(model.token_embedding, model.token_embedding_16), nullptr, d, vocab, logits,
                 no_finish);
  });
}

// Everything a layer does to x (rows × d_model) in place, given what its
// attention returns for the normalised rows' queries, keys and values.
template <class Attend>
void run_layer(const Model& model, const LayerWeights& layer, float* x, std::int64_t rows, Attend attend) {
  const ModelConfig& c = model.config;
  const std::int64_t d = c.d_model, width = d + 2 * kv_width(c);
  std::vector<float> normed(static_cast<std::size_t>(rows * d)), qkv(static_cast<std::size_t>(rows * width));
  std::vector<float> attended(static_cast<std::size_t>(rows * d)), projected(static_cast<std::size_t>(rows * d));
  layer_norm(x, rows, d, layer.norm1_scale, layer.norm1_shift, normed.data());
  linear(model, normed.data(), rows, layer.qkv, layer.qkv_16, layer.qkv_bias, d, width, qkv.data());
  attend(qkv.data(), width, attended.data());
  // The residual sums and the GELU run on each range of columns as a linear layer finishes it.
  const auto add_into_x = [&](std::int64_t j0, std::int64_t width) {
    for (std::int64_t r = 0; r < rows; ++r)
      for (std::int64_t j = j0; j < j0 + width; ++j) x[r * d + j] += projected[static_cast<std::size_t>(r * d + j)];
  };
  linear(model, attended.data(), rows, layer.out, layer.out_16, layer.out_bias, d, d, projected.data(), add_into_x);

  std::vector<float> hidden(static_cast<std::size_t>(rows * c.d_ff));
  layer_norm(x, rows, d, layer.norm2_scale, layer.norm2_shift, normed.data());
  const auto gelu_columns = [&](std::int64_t j0, std::int64_t width) {
    for (std::int64_t r = 0; r < rows; ++r) apply_gelu(hidden.data() + r * c.d_ff + j0, width);
  };
  linear(model, normed.data(), rows, layer.up, layer.up_16, layer.up_bias, d, c.d_ff, hidden.data(), gelu_columns);
  linear(model, hidden.data(), rows, layer.down, layer.down_16, layer.down_bias, c.d_ff, d, projected.data(),
         add_into_x);
}

void embed(const Model& model, std::int64_t token, std::int64_t position, float* x) {
  const std::int64_t d = model.config.d_model;
  in_format(model.format, [&](auto format) {
    using E = decltype(format);
    // The token's column of Eᵀ: one value in each of d rows of the tile order.
    const typename E::Bits* embedding = held<E>(model.token_embedding, model.token_embedding_16);
    for (std::int64_t i = 0; i < d; ++i)
      x[i] = E::one(embedding + weight_tiles::element_offset(d, model.config.vocab, i, token)) +
             model.position_embedding[static_cast<std::size_t>(position * d + i)];
  });
}

// What a decode state's sequences hold now: every layer's cache agrees, so the first layer's.
const std::vector<std::int64_t>& held_lengths(const DecodeState& state) {
  return state.paged ? state.pages.front().lengths : state.contiguous.front().lengths;
}

void require_sequence(const DecodeState& state, std::int64_t sequence) {
  const auto sequences = static_cast<std::int64_t>(held_lengths(state).size());
  if (sequence < 0 || sequence >= sequences)
    throw std::invalid_argument("sequence: " + std::to_string(sequence) + " is not in [0, " +
                                std::to_string(sequences) + ")");
}

// One query's softmax attention over the first `seen` keys and values, in
// double: key(j) and value(j) give row j's hd floats, wherever they are kept
// (a whole sequence's qkv rows in full_logits, the cache in extend).
template <class Key, class Value>
void attend_causally(const float* query, std::int64_t seen, std::int64_t hd, Key key, Value value,
                     std::vector<double>& scores, float* out) {
  double top = -INFINITY;
  for (std::int64_t j = 0; j < seen; ++j) {
    const float* k = key(j);
    double dot = 0;
    for (std::int64_t i = 0; i < hd; ++i) dot += double{query[i]} * k[i];
    scores[static_cast<std::size_t>(j)] = dot / std::sqrt(static_cast<double>(hd));
    top = std::max(top, scores[static_cast<std::size_t>(j)]);
  }
  double sum = 0;
  for (std::int64_t j = 0; j < seen; ++j)
    sum += (scores[static_cast<std::size_t>(j)] = std::exp(scores[static_cast<std::size_t>(j)] - top));
  for (std::int64_t i = 0; i < hd; ++i) {
    double o = 0;
    for (std::int64_t j = 0; j < seen; ++j) o += scores[static_cast<std::size_t>(j)] * value(j)[i];
    out[i] = static_cast<float>(o / sum);
  }
}

}  // namespace

Model random_model(const ModelConfig& config, std::uint64_t seed) {
  require_valid(config);
  const std::int64_t d = config.d_model, width = d + 2 * kv_width(config);
  std::mt19937_64 engine(seed);
  Model model;
  model.config = config;
  model.token_embedding =
      transposed_to_tiled(normal(static_cast<std::size_t>(config.vocab * d), engine), d, config.vocab);
  model.position_embedding = normal(static_cast<std::size_t>(config.context * d), engine, 0.01f);
  const auto ones = std::vector<float>(static_cast<std::size_t>(d), 1.0f);
  const auto zeros = [](std::int64_t n) { return std::vector<float>(static_cast<std::size_t>(n), 0.0f); };
  for (std::int64_t l = 0; l < config.layers; ++l) {
    LayerWeights layer;
    layer.norm1_scale = ones;
    layer.norm1_shift = zeros(d);
    // Drawn row-major, then put in tile order: the same model on every machine, whatever its vector width.
    layer.qkv = to_tiled(normal(static_cast<std::size_t>(d * width), engine), d, width);
    layer.qkv_bias = zeros(width);
    layer.out = to_tiled(normal(static_cast<std::size_t>(d * d), engine), d, d);
    layer.out_bias = zeros(d);
    layer.norm2_scale = ones;
    layer.norm2_shift = zeros(d);
    layer.up = to_tiled(normal(static_cast<std::size_t>(d * config.d_ff), engine), d, config.d_ff);
    layer.up_bias = zeros(config.d_ff);
    layer.down = to_tiled(normal(static_cast<std::size_t>(config.d_ff * d), engine), config.d_ff, d);
    layer.down_bias = zeros(d);
    model.layers.push_back(std::move(layer));
  }
  model.final_scale = ones;
  model.final_shift = zeros(d);
  return model;
}

DecodeState make_decode_state(const ModelConfig& config, std::int64_t sequences, std::int64_t capacity, bool paged,
                              std::int64_t page_size) {
  require_valid(config);
  // Checked here, before the pool's size divides by them (the caches check them too).
  if (sequences <= 0) throw std::invalid_argument("sequences: must be positive");
  if (capacity <= 0) throw std::invalid_argument("capacity: must be positive");
  if (paged && page_size <= 0) throw std::invalid_argument("page_size: must be positive");
  DecodeState state;
  state.paged = paged;
  for (std::int64_t l = 0; l < config.layers; ++l) {
    if (!paged) {
      state.contiguous.push_back(make_contiguous_cache(sequences, config.kv_heads, config.head_dim(), capacity));
      continue;
    }
    // Enough pages for every sequence at full capacity, handed out shuffled.
    std::vector<std::int64_t> pool(static_cast<std::size_t>(sequences * ((capacity + page_size - 1) / page_size)));
    std::iota(pool.begin(), pool.end(), 0);
    std::shuffle(pool.begin(), pool.end(), std::mt19937_64(static_cast<std::uint64_t>(l) + 1));
    state.pages.push_back(make_paged_cache(sequences, config.kv_heads, config.head_dim(), page_size, pool));
  }
  return state;
}

std::vector<float> step(const Model& model, DecodeState& state, const std::vector<std::int64_t>& tokens) {
  rooflab::count_call("a06_kv_cache_decode::step");  // a decode loop's tests count these
  const ModelConfig& c = model.config;
  const std::int64_t d = c.d_model, hd = c.head_dim(), kv = kv_width(c);
  const auto sequences = static_cast<std::int64_t>(held_lengths(state).size());
  if (static_cast<std::int64_t>(tokens.size()) != sequences)
    throw std::invalid_argument("tokens: one per sequence (" + std::to_string(sequences) + "), −1 to sit out");
  const auto length = [&](std::int64_t s) { return held_lengths(state)[static_cast<std::size_t>(s)]; };
  std::vector<std::int64_t> active;  // the sequences that take a step
  for (std::int64_t s = 0; s < sequences; ++s) {
    const std::int64_t token = tokens[static_cast<std::size_t>(s)];
    if (token == -1) continue;
    if (token < 0 || token >= c.vocab)
      throw std::invalid_argument("tokens: " + std::to_string(token) + " is not in the vocabulary");
    if (length(s) >= c.context) throw std::invalid_argument("context: sequence " + std::to_string(s) + " is full");
    active.push_back(s);
  }
  const auto rows = static_cast<std::int64_t>(active.size());
  std::vector<float> x(static_cast<std::size_t>(rows * d));
  for (std::int64_t r = 0; r < rows; ++r)
    embed(model, tokens[static_cast<std::size_t>(active[r])], length(active[r]), x.data() + r * d);

  for (std::size_t l = 0; l < model.layers.size(); ++l) {
    run_layer(model, model.layers[l], x.data(), rows, [&](const float* qkv, std::int64_t width, float* attended) {
      // Append each active row's key and value, then one query per sequence
      // (zeros for those sitting out: their rows are not used).
      Tensor4 q = rooflab::zeros(sequences, c.heads, 1, hd);
      for (std::int64_t r = 0; r < rows; ++r) {
        const float* row = qkv + r * width;
        std::copy(row, row + d, q.row(active[static_cast<std::size_t>(r)] * c.heads, 0));
        Tensor4 k{{1, c.kv_heads, 1, hd}, std::vector<float>(row + d, row + d + kv)};
        Tensor4 v{{1, c.kv_heads, 1, hd}, std::vector<float>(row + d + kv, row + d + 2 * kv)};
        if (state.paged)
          state.pages[l] = append(std::move(state.pages[l]), active[static_cast<std::size_t>(r)], k, v);
        else
          state.contiguous[l] = append(std::move(state.contiguous[l]), active[static_cast<std::size_t>(r)], k, v);
      }
      const DecodeResult result =
          state.paged ? decode_attention(q, state.pages[l], {}) : decode_attention(q, state.contiguous[l], {});
      for (std::int64_t r = 0; r < rows; ++r) {
        const float* out = result.output.row(active[static_cast<std::size_t>(r)] * c.heads, 0);
        std::copy(out, out + d, attended + r * d);
      }
    });
  }

  std::vector<float> normed(x.size()), logits(static_cast<std::size_t>(sequences * c.vocab), 0.0f);
  layer_norm(x.data(), rows, d, model.final_scale, model.final_shift, normed.data());
  if (rows == sequences) {  // every sequence stepped: the batch's rows are the logits' rows, in order
    lm_head(model, normed.data(), rows, logits.data());
    return logits;
  }
  std::vector<float> active_logits(static_cast<std::size_t>(rows * c.vocab));
  lm_head(model, normed.data(), rows, active_logits.data());
  for (std::int64_t r = 0; r < rows; ++r)
    std::copy(active_logits.begin() + r * c.vocab, active_logits.begin() + (r + 1) * c.vocab,
              logits.begin() + active[static_cast<std::size_t>(r)] * c.vocab);
  return logits;
}

std::vector<float> extend(const Model& model, DecodeState& state, std::int64_t sequence,
                          const std::vector<std::int64_t>& tokens) {
  rooflab::count_call("a06_kv_cache_decode::extend");
  const ModelConfig& c = model.config;
  const std::int64_t d = c.d_model, hd = c.head_dim(), kv = kv_width(c), n = static_cast<std::int64_t>(tokens.size());
  const std::int64_t group = c.heads / c.kv_heads;
  require_sequence(state, sequence);
  if (n == 0) throw std::invalid_argument("tokens: none to extend the sequence with");
  for (const std::int64_t token : tokens)
    if (token < 0 || token >= c.vocab)
      throw std::invalid_argument("tokens: " + std::to_string(token) + " is not in the vocabulary");
  const std::int64_t base = held_lengths(state)[static_cast<std::size_t>(sequence)];
  if (base + n > c.context)
    throw std::invalid_argument("context: sequence " + std::to_string(sequence) + " holds " + std::to_string(base) +
                                " tokens; " + std::to_string(n) + " more pass " + std::to_string(c.context));
  std::vector<float> x(static_cast<std::size_t>(n * d));
  for (std::int64_t r = 0; r < n; ++r) embed(model, tokens[static_cast<std::size_t>(r)], base + r, x.data() + r * d);
  for (std::size_t l = 0; l < model.layers.size(); ++l) {
    run_layer(model, model.layers[l], x.data(), n, [&](const float* qkv, std::int64_t width, float* attended) {
      // Every row's keys and values into the cache first, (1, kv_heads, n, hd) at once ...
      Tensor4 k = rooflab::zeros(1, c.kv_heads, n, hd), v = rooflab::zeros(1, c.kv_heads, n, hd);
      for (std::int64_t r = 0; r < n; ++r)
        for (std::int64_t g = 0; g < c.kv_heads; ++g) {
          std::copy(qkv + r * width + d + g * hd, qkv + r * width + d + (g + 1) * hd, k.row(g, r));
          std::copy(qkv + r * width + d + kv + g * hd, qkv + r * width + d + kv + (g + 1) * hd, v.row(g, r));
        }
      if (state.paged)
        state.pages[l] = append(std::move(state.pages[l]), sequence, k, v);
      else
        state.contiguous[l] = append(std::move(state.contiguous[l]), sequence, k, v);
      // ... then row r attends to what the cache holds up to its own position.
      const CachedKeysValues held =
          state.paged ? cached(state.pages[l], sequence) : cached(state.contiguous[l], sequence);
      std::vector<double> scores(static_cast<std::size_t>(base + n));
      for (std::int64_t r = 0; r < n; ++r)
        for (std::int64_t h = 0; h < c.heads; ++h) {
          const std::int64_t g = h / group;
          attend_causally(
              qkv + r * width + h * hd, base + r + 1, hd, [&](std::int64_t j) { return held.keys.row(g, j); },
              [&](std::int64_t j) { return held.values.row(g, j); }, scores, attended + r * d + h * hd);
        }
    });
  }
  std::vector<float> normed(x.size()), logits(static_cast<std::size_t>(n * c.vocab));
  layer_norm(x.data(), n, d, model.final_scale, model.final_shift, normed.data());
  lm_head(model, normed.data(), n, logits.data());
  return logits;
}

void rollback(DecodeState& state, std::int64_t sequence, std::int64_t length) {
  require_sequence(state, sequence);
  const auto s = static_cast<std::size_t>(sequence);
  const std::int64_t held = held_lengths(state)[s];
  if (length < 0 || length > held)
    throw std::invalid_argument("length: " + std::to_string(length) + " is not in [0, " + std::to_string(held) +
                                "], the tokens sequence " + std::to_string(sequence) + " holds");
  // Every layer's cache, by your truncate() (kv_cache.cpp), moved in and out.
  for (ContiguousKvCache& cache : state.contiguous) cache = truncate(std::move(cache), sequence, length);
  for (PagedKvCache& cache : state.pages) cache = truncate(std::move(cache), sequence, length);
}

std::vector<float> full_logits(const Model& model, const std::vector<std::int64_t>& tokens) {
  rooflab::count_call("a06_kv_cache_decode::full_logits");
  const ModelConfig& c = model.config;
  const std::int64_t d = c.d_model, hd = c.head_dim(), kv = kv_width(c), n = static_cast<std::int64_t>(tokens.size());
  const std::int64_t group = c.heads / c.kv_heads;
  if (n == 0 || n > c.context) throw std::invalid_argument("tokens: between 1 and context of them");
  std::vector<float> x(static_cast<std::size_t>(n * d));
  for (std::int64_t t = 0; t < n; ++t) embed(model, tokens[static_cast<std::size_t>(t)], t, x.data() + t * d);
  for (const LayerWeights& layer : model.layers) {
    run_layer(model, layer, x.data(), n, [&](const float* qkv, std::int64_t width, float* attended) {
      // Causal attention written out: row t sees keys 0…t.
      std::vector<double> scores(static_cast<std::size_t>(n));
      for (std::int64_t t = 0; t < n; ++t) {
        for (std::int64_t h = 0; h < c.heads; ++h) {
          const std::int64_t g = h / group;
          attend_causally(
              qkv + t * width + h * hd, t + 1, hd, [&](std::int64_t j) { return qkv + j * width + d + g * hd; },
              [&](std::int64_t j) { return qkv + j * width + d + kv + g * hd; }, scores, attended + t * d + h * hd);
        }
      }
    });
  }
  std::vector<float> normed(static_cast<std::size_t>(d)), logits(static_cast<std::size_t>(c.vocab));
  layer_norm(x.data() + (n - 1) * d, 1, d, model.final_scale, model.final_shift, normed.data());
  lm_head(model, normed.data(), 1, logits.data());
  return logits;
}

}  // namespace a06_kv_cache_decode
