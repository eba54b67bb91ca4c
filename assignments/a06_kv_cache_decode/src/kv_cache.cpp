// a06_kv_cache_decode, part 1: the contiguous and the paged KV cache.

#include "a06_kv_cache_decode/kv_cache.hpp"
#include "rooflab/not_implemented.hpp"

namespace a06_kv_cache_decode {

// YOUR CODE HERE

ContiguousKvCache make_contiguous_cache(std::int64_t sequences, std::int64_t kv_heads, std::int64_t head_dim,
                                        std::int64_t capacity) {
  // YOUR CODE HERE
  rooflab::todo("a06_kv_cache_decode::make_contiguous_cache", sequences, kv_heads, head_dim, capacity);
}

PagedKvCache make_paged_cache(std::int64_t sequences, std::int64_t kv_heads, std::int64_t head_dim,
                              std::int64_t page_size, const std::vector<std::int64_t>& pages) {
  // YOUR CODE HERE
  rooflab::todo("a06_kv_cache_decode::make_paged_cache", sequences, kv_heads, head_dim, page_size, pages);
}

ContiguousKvCache append(ContiguousKvCache cache, std::int64_t sequence, const Tensor4& keys, const Tensor4& values) {
  // YOUR CODE HERE
  rooflab::todo("a06_kv_cache_decode::append", cache, sequence, keys, values);
}

PagedKvCache append(PagedKvCache cache, std::int64_t sequence, const Tensor4& keys, const Tensor4& values) {
  // YOUR CODE HERE
  rooflab::todo("a06_kv_cache_decode::append", cache, sequence, keys, values);
}

CachedKeysValues cached(const ContiguousKvCache& cache, std::int64_t sequence) {
  // YOUR CODE HERE
  rooflab::todo("a06_kv_cache_decode::cached", cache, sequence);
}

CachedKeysValues cached(const PagedKvCache& cache, std::int64_t sequence) {
  // YOUR CODE HERE
  rooflab::todo("a06_kv_cache_decode::cached", cache, sequence);
}

ContiguousKvCache truncate(ContiguousKvCache cache, std::int64_t sequence, std::int64_t length) {
  // YOUR CODE HERE
  rooflab::todo("a06_kv_cache_decode::truncate", cache, sequence, length);
}

PagedKvCache truncate(PagedKvCache cache, std::int64_t sequence, std::int64_t length) {
  // YOUR CODE HERE
  rooflab::todo("a06_kv_cache_decode::truncate", cache, sequence, length);
}

}  // namespace a06_kv_cache_decode
