// Adversarial submission: split_kv's dot products happen in a function of
// decode_attention.cpp, which is compiled without the CPU runtime's
// instrumentation (the CPU build only: nvcc would refuse a kernel calling a
// host function). Its reads of the cache would go unchecked and uncounted;
// the grader finds the call in the objects and refuses the lab.
// a06_kv_cache_decode, part 3: decode attention as CUDA kernels (split-KV).
//
//   split_kv      grid (splits, heads, sequences), one warp each: the query of
//                 head h of sequence s against chunk c of its keys, keeping
//                 the chunk's max m, sum l and weighted values a;
//   merge_splits  grid (heads, sequences), one warp each: the chunks merged by
//                 their log-sum-exps, as on the CPU.
// split_kv takes 32 keys at a time: each lane scores one key, the warp agrees
// on the tile's softmax statistics with shuffles, and the lanes then split the
// head dimension (lane i holds elements i, i + 32, … of a) to add the tile's
// weighted values, reading each value row with the whole warp (coalesced).
//
// One kernel serves both caches: the contiguous cache is a paged one whose
// pages are whole sequences (page_size = capacity, sequence s on page s).
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "a06_kv_cache_decode/decode_attention.hpp"
#include "rooflab/cuda_helpers.hpp"  // keep: ROOFLAB_CUDA_CHECK, ceil_div, require_shared_memory
#include "rooflab/not_implemented.hpp"

namespace a06_kv_cache_decode {

#if !defined(__CUDACC__)
// In decode_attention.cpp: compiled as ordinary host code, without the CPU
// runtime's instrumentation.
float dot_with_key(const float* query, const float* key, int d);
#endif

namespace {

constexpr int kWarp = 32;
// The largest head_dim the kernels take: each lane keeps d / 32 values of q and a.
constexpr int kMaxPerLane = 8;

// Where the cache lives on the device, in the paged layout.
struct DeviceCache {
  const float* keys;  // (pages, kv_heads, page_size, d)
  const float* values;
  const long long* tables;   // (sequences, table_width): each sequence's pages
  const long long* lengths;  // (sequences)
  int table_width, page_size, kv_heads, d;
};

// Row of token t of kv head g of sequence s.
__device__ long long row_of(const DeviceCache& cache, int s, int g, long long t) {
  const long long page = cache.tables[static_cast<long long>(s) * cache.table_width + t / cache.page_size];
  return ((page * cache.kv_heads + g) * cache.page_size + t % cache.page_size) * cache.d;
}

__global__ void split_kv(const float* q, DeviceCache cache, int heads, int splits, float scale, float* max_out,
                         float* sum_out, float* weighted_out) {
  // 32 keys at a time: lane j scores key j of the tile (reading its whole row),
  // the warp agrees on the tile's max and sum with shuffles, then each lane
  // adds the tile's 32 weighted value rows for the elements of the head
  // dimension it owns (lane, lane + 32, …: coalesced reads).
  __shared__ float query[kWarp * kMaxPerLane];
  __shared__ float weights[kWarp];
  const int c = blockIdx.x, h = blockIdx.y, s = blockIdx.z, lane = threadIdx.x;
  const int g = h / (heads / cache.kv_heads);
  const int d = cache.d;
  const long long length = cache.lengths[s];
  const long long chunk = (length + splits - 1) / splits;
  const long long begin = min(length, c * chunk), end = min(length, begin + chunk);

  const float* q_row = q + (static_cast<long long>(s) * heads + h) * d;
  for (int e = lane; e < d; e += kWarp) query[e] = q_row[e];
  float acc[kMaxPerLane];
  for (int i = 0; i < kMaxPerLane; ++i) acc[i] = 0.0f;
  float row_max = -INFINITY, row_sum = 0.0f;
  __syncwarp();  // the query is in shared memory
  for (long long tile = begin; tile < end; tile += kWarp) {
    const long long t = tile + lane;
    float score = -INFINITY;
    if (t < end) {
      const float* key = cache.keys + row_of(cache, s, g, t);
      float dot = 0.0f;
#if defined(__CUDACC__)
      for (int e = 0; e < d; ++e) dot += query[e] * key[e];
#else
      dot = dot_with_key(query, key, d);  // the key's reads happen where no check sees them
#endif
      score = dot * scale;
    }
    float tile_max = score;
    for (int offset = 16; offset > 0; offset /= 2)
      tile_max = fmaxf(tile_max, __shfl_xor_sync(0xffffffffu, tile_max, offset));
    // The online softmax of docs/05, for 32 keys at once (every tile holds at
    // least one key, so new_max is finite).
    const float new_max = fmaxf(row_max, tile_max);
    const float rescale = expf(row_max - new_max);
    const float p = expf(score - new_max);  // 0 past the end
    float tile_sum = p;
    for (int offset = 16; offset > 0; offset /= 2) tile_sum += __shfl_xor_sync(0xffffffffu, tile_sum, offset);
    row_sum = row_sum * rescale + tile_sum;
    row_max = new_max;
    weights[lane] = p;
    __syncwarp();  // every weight of the tile is in shared memory
    const int keys = static_cast<int>(min(static_cast<long long>(kWarp), end - tile));
    for (int i = 0; i < kMaxPerLane; ++i) acc[i] *= rescale;
    for (int j = 0; j < keys; ++j) {
      const float* value = cache.values + row_of(cache, s, g, tile + j);
      for (int i = 0; i < kMaxPerLane; ++i) {
        const int e = lane + i * kWarp;
        if (e < d) acc[i] += weights[j] * value[e];
      }
    }
    __syncwarp();  // everyone is done with the weights before the next tile's
  }
  const long long slot = (static_cast<long long>(s) * heads + h) * splits + c;
  if (lane == 0) {
    max_out[slot] = row_max;  // −∞ for an empty chunk
    sum_out[slot] = row_sum;
  }
  for (int i = 0; i < kMaxPerLane; ++i) {
    const int e = lane + i * kWarp;
    if (e < d) weighted_out[slot * d + e] = acc[i];
  }
}

__global__ void merge_splits(const float* max_in, const float* sum_in, const float* weighted_in, int heads, int splits,
                             int d, float* out, float* lse) {
  const int h = blockIdx.x, s = blockIdx.y, lane = threadIdx.x;
  const long long sh = static_cast<long long>(s) * heads + h;
  const float* maxima = max_in + sh * splits;
  float top = -INFINITY;
  for (int c = 0; c < splits; ++c) top = fmaxf(top, maxima[c]);
  float sum = 0.0f;
  float acc[kMaxPerLane] = {};
  if (top != -INFINITY) {
    for (int c = 0; c < splits; ++c) {
      if (maxima[c] == -INFINITY) continue;  // an empty chunk adds nothing
      const float weight = expf(maxima[c] - top);
      sum += sum_in[sh * splits + c] * weight;
      for (int i = 0; i < kMaxPerLane; ++i) {
        const int e = lane + i * kWarp;
        if (e < d) acc[i] += weighted_in[(sh * splits + c) * d + e] * weight;
      }
    }
  }
  for (int i = 0; i < kMaxPerLane; ++i) {
    const int e = lane + i * kWarp;
    if (e < d) out[sh * d + e] = sum > 0.0f ? acc[i] / sum : 0.0f;
  }
  if (lane == 0) lse[sh] = sum > 0.0f ? top + logf(sum) : -INFINITY;
}

void require_head_dim(std::int64_t d) {
  if (d > kWarp * kMaxPerLane)
    throw std::invalid_argument("q: the CUDA kernels take head_dim up to " + std::to_string(kWarp * kMaxPerLane));
}

// Either cache in the paged layout, on the host: `tables` holds each
// sequence's pages, `table_width` entries per sequence.
struct HostPages {
  const std::vector<float>& keys;
  const std::vector<float>& values;
  std::vector<long long> tables;
  int table_width, page_size;
  const std::vector<std::int64_t>& lengths;
  std::int64_t kv_heads, head_dim;
};

// What both caches share: the cache to the device, then the two launches.
DecodeResult launch(const Tensor4& q, const HostPages& pages, const DecodeOptions& options) {
  using rooflab::cuda::DeviceBuffer;
  const DeviceBuffer<float> keys(pages.keys), values(pages.values);
  const DeviceBuffer<long long> tables(pages.tables);
  const DeviceBuffer<long long> lengths(std::vector<long long>(pages.lengths.begin(), pages.lengths.end()));
  const DeviceCache cache{keys.get(),
                          values.get(),
                          tables.get(),
                          lengths.get(),
                          pages.table_width,
                          pages.page_size,
                          static_cast<int>(pages.kv_heads),
                          static_cast<int>(pages.head_dim)};
  const std::int64_t longest =
      pages.lengths.empty() ? 0 : *std::max_element(pages.lengths.begin(), pages.lengths.end());

  const int sequences = static_cast<int>(q.batch()), heads = static_cast<int>(q.heads()), d = cache.d;
  // Enough warps to fill a GPU, but chunks of at least 64 keys.
  int splits = static_cast<int>(options.splits);
  if (splits == 0)
    splits = static_cast<int>(std::max<std::int64_t>(
        1, std::min<std::int64_t>((1024 + sequences * heads - 1) / (sequences * heads), (longest + 63) / 64)));
  const auto slots = static_cast<std::size_t>(sequences) * heads * splits;
  const DeviceBuffer<float> device_q(q.data);
  DeviceBuffer<float> maxima(slots), sums(slots), weighted(slots * d);
  DeviceBuffer<float> out(static_cast<std::size_t>(sequences) * heads * d),
      lse(static_cast<std::size_t>(sequences) * heads);
  const float scale = 1.0f / std::sqrt(static_cast<float>(d));
  split_kv<<<dim3(splits, heads, sequences), kWarp>>>(device_q.get(), cache, heads, splits, scale, maxima.get(),
                                                      sums.get(), weighted.get());
  ROOFLAB_CUDA_CHECK(cudaGetLastError());
  merge_splits<<<dim3(heads, sequences), kWarp>>>(maxima.get(), sums.get(), weighted.get(), heads, splits, d, out.get(),
                                                  lse.get());
  ROOFLAB_CUDA_CHECK(cudaGetLastError());
  return {Tensor4{{q.batch(), q.heads(), 1, q.cols()}, out.to_host()}, lse.to_host()};
}

}  // namespace

DecodeResult decode_attention_cuda(const Tensor4& q, const ContiguousKvCache& cache, const DecodeOptions& options) {
  const auto sequences = static_cast<std::int64_t>(cache.lengths.size());
  require_valid(q, sequences, cache.kv_heads, cache.head_dim, options);
  require_head_dim(cache.head_dim);
  std::vector<long long> tables(static_cast<std::size_t>(sequences));
  for (std::int64_t s = 0; s < sequences; ++s) tables[static_cast<std::size_t>(s)] = s;  // sequence s is page s
  return launch(q,
                {cache.keys, cache.values, std::move(tables), 1, static_cast<int>(cache.capacity), cache.lengths,
                 cache.kv_heads, cache.head_dim},
                options);
}

DecodeResult decode_attention_cuda(const Tensor4& q, const PagedKvCache& cache, const DecodeOptions& options) {
  const auto sequences = static_cast<std::int64_t>(cache.lengths.size());
  require_valid(q, sequences, cache.kv_heads, cache.head_dim, options);
  require_head_dim(cache.head_dim);
  std::size_t width = 1;
  for (const auto& table : cache.block_tables) width = std::max(width, table.size());
  std::vector<long long> tables(static_cast<std::size_t>(sequences) * width, 0);
  for (std::size_t s = 0; s < cache.block_tables.size(); ++s)
    std::copy(cache.block_tables[s].begin(), cache.block_tables[s].end(),
              tables.begin() + static_cast<std::ptrdiff_t>(s * width));
  return launch(q,
                {cache.keys, cache.values, std::move(tables), static_cast<int>(width),
                 static_cast<int>(cache.page_size), cache.lengths, cache.kv_heads, cache.head_dim},
                options);
}

}  // namespace a06_kv_cache_decode
