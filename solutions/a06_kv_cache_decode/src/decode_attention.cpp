// a06_kv_cache_decode, part 2: decode attention on the CPU, split over keys
// (Flash-Decoding).
//
// Work item (sequence s, chunk c): every head's query against the keys of
// chunk c, a run of tokens at a time (in the paged cache, one page: its kv
// heads lie side by side, so the item reads the page in one sweep). Each key
// and value row is read once for all the query heads that share its kv head,
// which is what makes GQA and MQA cheaper to decode. Each item leaves, per
// query, its chunk's max score m, its sum l = Σ exp(s_j − m) and its weighted
// sum a = Σ exp(s_j − m) v_j. A second pass merges a query's
// chunks: with M = max_c m_c,
//   l = Σ_c l_c · exp(m_c − M),   o = Σ_c a_c · exp(m_c − M) / l,   lse = M + log l.
#include <omp.h>  // keep: OpenMP

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "a06_kv_cache_decode/decode_attention.hpp"
#include "rooflab/fast_exp.hpp"  // keep: rooflab::exp_nonpositive, an exp the compiler vectorises
#include "rooflab/not_implemented.hpp"

namespace a06_kv_cache_decode {

// BEGIN SOLUTION
namespace {

constexpr float kMinusInfinity = -std::numeric_limits<float>::infinity();

// Where the keys and values of token t of (sequence, kv head) live: rows of
// head_dim floats, contiguous for a run of tokens (a whole sequence in the
// contiguous cache, the rest of a page in the paged one).
struct Run {
  const float* keys;
  const float* values;
  std::int64_t tokens;
};

struct ContiguousRows {
  static constexpr bool kPaged = false;  // a run is the whole chunk: nothing to prefetch
  const ContiguousKvCache& cache;
  Run run(std::int64_t s, std::int64_t g, std::int64_t t, std::int64_t end) const {
    const std::int64_t at = ((s * cache.kv_heads + g) * cache.capacity + t) * cache.head_dim;
    return {cache.keys.data() + at, cache.values.data() + at, end - t};
  }
};

struct PagedRows {
  static constexpr bool kPaged = true;
  const PagedKvCache& cache;
  Run run(std::int64_t s, std::int64_t g, std::int64_t t, std::int64_t end) const {
    const std::int64_t page =
        cache.block_tables[static_cast<std::size_t>(s)][static_cast<std::size_t>(t / cache.page_size)];
    const std::int64_t slot = t % cache.page_size;
    const std::int64_t at = ((page * cache.kv_heads + g) * cache.page_size + slot) * cache.head_dim;
    return {cache.keys.data() + at, cache.values.data() + at, std::min(end - t, cache.page_size - slot)};
  }
};

// The hardware prefetcher follows a stream of reads but loses it at every
// jump to another page of the cache, and needs a few misses to find the next
// one. Asking for the first 2 KiB of the next page as this one starts covers
// that (docs/benchmarks.md measures it: more, or later, is no better).
inline void prefetch_start(const float* rows, std::int64_t floats) {
  const char* bytes = reinterpret_cast<const char*>(rows);
  const std::int64_t wanted = std::min<std::int64_t>(2048, floats * static_cast<std::int64_t>(sizeof(float)));
  for (std::int64_t at = 0; at < wanted; at += 64) __builtin_prefetch(bytes + at);
}

// out[0..d) += Σ_j p[j] · values[j·d .. j·d + d): with kDim known, the d sums
// live in registers for the whole run of tokens.
template <std::int64_t kDim>
void accumulate(float* out, const float* p, const float* values, std::int64_t tokens, std::int64_t d) {
  if constexpr (kDim > 0) {
    float sums[kDim];
    for (std::int64_t i = 0; i < kDim; ++i) sums[i] = out[i];
    for (std::int64_t j = 0; j < tokens; ++j) {
      const float* value = values + j * kDim;
#pragma omp simd
      for (std::int64_t i = 0; i < kDim; ++i) sums[i] += p[j] * value[i];
    }
    for (std::int64_t i = 0; i < kDim; ++i) out[i] = sums[i];
  } else {
    for (std::int64_t j = 0; j < tokens; ++j) {
      const float* value = values + j * d;
#pragma omp simd
      for (std::int64_t i = 0; i < d; ++i) out[i] += p[j] * value[i];
    }
  }
}

// One chunk's statistics for one query: m, l and the d weighted values a.
struct Partial {
  float max = kMinusInfinity;
  float sum = 0.0f;
};

std::int64_t choose_splits(const DecodeOptions& options, std::int64_t items_per_split, std::int64_t longest,
                           int threads) {
  if (options.splits > 0) return options.splits;
  // Enough items to keep every thread busy, but chunks of at least 256 keys
  // (shorter ones cost more in their merges than they gain) ...
  const std::int64_t wanted = (4 * threads + items_per_split - 1) / items_per_split;
  const std::int64_t splits = std::max<std::int64_t>(1, std::min(wanted, (longest + 255) / 256));
  if (splits * items_per_split >= threads) return splits;
  // ... unless that leaves a thread idle: a batch of one at a few hundred
  // keys was one item, and one thread attended in each decode step while
  // the other waited (docs/benchmarks.md). Then a chunk for each thread, of
  // 64 keys or more.
  const std::int64_t each = (threads + items_per_split - 1) / items_per_split;
  return std::max(splits, std::min(each, longest / 64));
}

// kDim > 0: the head dimension is known when compiling (64 and 128, the usual
// ones), so the dot products unroll and the weighted sums stay in registers.
template <std::int64_t kDim, class Rows>
DecodeResult decode(const Tensor4& q, const Rows& rows, const std::vector<std::int64_t>& lengths, std::int64_t kv_heads,
                    const DecodeOptions& options) {
  const std::int64_t sequences = q.batch(), heads = q.heads(), d = kDim > 0 ? kDim : q.cols();
  const std::int64_t group = heads / kv_heads;  // query heads per kv head
  const float scale = 1.0f / std::sqrt(static_cast<float>(d));
  const int threads = options.threads > 0 ? static_cast<int>(options.threads) : omp_get_max_threads();
  const std::int64_t longest = lengths.empty() ? 0 : *std::max_element(lengths.begin(), lengths.end());
  const std::int64_t splits = choose_splits(options, sequences, longest, threads);

  // Per (sequence, head, chunk): the statistics and the weighted values.
  const auto slots = static_cast<std::size_t>(sequences * heads * splits);
  std::vector<Partial> partials(slots);
  std::vector<float> weighted(slots * static_cast<std::size_t>(d), 0.0f);

  const std::int64_t items = sequences * splits;
#pragma omp parallel num_threads(threads)
  {
    std::vector<float> scores;
#pragma omp for schedule(dynamic)
    for (std::int64_t item = 0; item < items; ++item) {
      const std::int64_t c = item % splits, s = item / splits;
      const std::int64_t length = lengths[static_cast<std::size_t>(s)];
      const std::int64_t chunk = (length + splits - 1) / splits;
      const std::int64_t begin = std::min(length, c * chunk), end = std::min(length, begin + chunk);
      if (begin == end) continue;
      const std::int64_t count = end - begin;
      scores.resize(static_cast<std::size_t>(heads * count));  // every entry is written below
      const float* queries = q.row(s * heads, 0);              // (H, d): query head h at row h

      // Scores, a run of tokens at a time (a page, in the paged cache: all its
      // kv heads lie side by side). Each key row is read once for its group.
      for (std::int64_t t = begin; t < end;) {
        const std::int64_t tokens = rows.run(s, 0, t, end).tokens;  // the same for every kv head
        if (Rows::kPaged && t + tokens < end) {
          const Run next = rows.run(s, 0, t + tokens, end);
          prefetch_start(next.keys, next.tokens * d);
        }
        for (std::int64_t g = 0; g < kv_heads; ++g) {
          const float* keys = rows.run(s, g, t, end).keys;
          for (std::int64_t j = 0; j < tokens; ++j) {
            const float* key = keys + j * d;
            for (std::int64_t h = g * group; h < (g + 1) * group; ++h) {
              const float* query = queries + h * d;
              float dot = 0.0f;
#pragma omp simd reduction(+ : dot)
              for (std::int64_t i = 0; i < d; ++i) dot += query[i] * key[i];
              scores[static_cast<std::size_t>(h * count + t - begin + j)] = dot * scale;
            }
          }
        }
        t += tokens;
      }

      // exp(s − m) per query head: the chunk's statistics.
      for (std::int64_t h = 0; h < heads; ++h) {
        float* row = scores.data() + h * count;
        float max = kMinusInfinity;
        for (std::int64_t j = 0; j < count; ++j) max = std::max(max, row[j]);
        float sum = 0.0f;
#pragma omp simd reduction(+ : sum)
        for (std::int64_t j = 0; j < count; ++j) sum += (row[j] = rooflab::exp_nonpositive(row[j] - max));
        Partial& partial = partials[static_cast<std::size_t>((s * heads + h) * splits + c)];
        partial.max = max;
        partial.sum = sum;
      }

      // The weighted values, each value row read once for its group.
      for (std::int64_t t = begin; t < end;) {
        const std::int64_t tokens = rows.run(s, 0, t, end).tokens;
        if (Rows::kPaged && t + tokens < end) {
          const Run next = rows.run(s, 0, t + tokens, end);
          prefetch_start(next.values, next.tokens * d);
        }
        for (std::int64_t g = 0; g < kv_heads; ++g) {
          const float* values = rows.run(s, g, t, end).values;
          for (std::int64_t h = g * group; h < (g + 1) * group; ++h) {
            const float* p = scores.data() + h * count + (t - begin);
            float* out = weighted.data() + ((s * heads + h) * splits + c) * d;
            accumulate<kDim>(out, p, values, tokens, d);
          }
        }
        t += tokens;
      }
    }
  }

  // Merge each query's chunks by their log-sum-exps.
  DecodeResult result{rooflab::zeros(sequences, heads, 1, d),
                      std::vector<float>(static_cast<std::size_t>(sequences * heads), kMinusInfinity)};
  for (std::int64_t sh = 0; sh < sequences * heads; ++sh) {
    const Partial* chunk = partials.data() + sh * splits;
    float max = kMinusInfinity;
    for (std::int64_t c = 0; c < splits; ++c) max = std::max(max, chunk[c].max);
    if (max == kMinusInfinity) continue;  // no cached token: output 0, lse −∞
    float sum = 0.0f;
    float* out = result.output.row(sh, 0);
    for (std::int64_t c = 0; c < splits; ++c) {
      if (chunk[c].max == kMinusInfinity) continue;
      const float weight = std::exp(chunk[c].max - max);
      sum += chunk[c].sum * weight;
      const float* a = weighted.data() + (sh * splits + c) * d;
      for (std::int64_t i = 0; i < d; ++i) out[i] += a[i] * weight;
    }
    for (std::int64_t i = 0; i < d; ++i) out[i] /= sum;
    result.lse[static_cast<std::size_t>(sh)] = max + std::log(sum);
  }
  return result;
}

template <class Rows>
DecodeResult decode_any(const Tensor4& q, const Rows& rows, const std::vector<std::int64_t>& lengths,
                        std::int64_t kv_heads, const DecodeOptions& options) {
  if (q.cols() == 64) return decode<64>(q, rows, lengths, kv_heads, options);
  if (q.cols() == 128) return decode<128>(q, rows, lengths, kv_heads, options);
  return decode<0>(q, rows, lengths, kv_heads, options);
}

}  // namespace
// END SOLUTION

DecodeResult decode_attention(const Tensor4& q, const ContiguousKvCache& cache, const DecodeOptions& options) {
  // BEGIN SOLUTION
  require_valid(q, static_cast<std::int64_t>(cache.lengths.size()), cache.kv_heads, cache.head_dim, options);
  return decode_any(q, ContiguousRows{cache}, cache.lengths, cache.kv_heads, options);
  // END SOLUTION
}

DecodeResult decode_attention(const Tensor4& q, const PagedKvCache& cache, const DecodeOptions& options) {
  // BEGIN SOLUTION
  require_valid(q, static_cast<std::int64_t>(cache.lengths.size()), cache.kv_heads, cache.head_dim, options);
  return decode_any(q, PagedRows{cache}, cache.lengths, cache.kv_heads, options);
  // END SOLUTION
}

}  // namespace a06_kv_cache_decode
