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

#include "a06_kv_cache_decode/decode_attention.hpp"
#include "rooflab/cuda_helpers.hpp"  // keep: ROOFLAB_CUDA_CHECK, ceil_div, require_shared_memory
#include "rooflab/not_implemented.hpp"

namespace a06_kv_cache_decode {
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
  // YOUR CODE HERE
  (void)q;
  (void)cache;
  (void)heads;
  (void)splits;
  (void)scale;
  (void)max_out;
  (void)sum_out;
  (void)weighted_out;
}

__global__ void merge_splits(const float* max_in, const float* sum_in, const float* weighted_in, int heads, int splits,
                             int d, float* out, float* lse) {
  // YOUR CODE HERE
  (void)max_in;
  (void)sum_in;
  (void)weighted_in;
  (void)heads;
  (void)splits;
  (void)d;
  (void)out;
  (void)lse;
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
  // YOUR CODE HERE
  rooflab::todo("a06_kv_cache_decode::launch", q, pages, options);
}

}  // namespace

DecodeResult decode_attention_cuda(const Tensor4& q, const ContiguousKvCache& cache, const DecodeOptions& options) {
  // YOUR CODE HERE
  rooflab::todo("a06_kv_cache_decode::decode_attention_cuda", q, cache, options);
}

DecodeResult decode_attention_cuda(const Tensor4& q, const PagedKvCache& cache, const DecodeOptions& options) {
  // YOUR CODE HERE
  rooflab::todo("a06_kv_cache_decode::decode_attention_cuda", q, cache, options);
}

}  // namespace a06_kv_cache_decode
