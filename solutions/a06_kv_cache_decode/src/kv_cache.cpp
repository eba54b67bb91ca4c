// a06_kv_cache_decode, part 1: the contiguous and the paged KV cache.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "a06_kv_cache_decode/kv_cache.hpp"
#include "rooflab/not_implemented.hpp"

namespace a06_kv_cache_decode {

// BEGIN SOLUTION
namespace {

void require_positive(std::int64_t value, const char* name) {
  if (value <= 0) throw std::invalid_argument(std::string(name) + ": must be positive");
}

void require_sequence(const std::vector<std::int64_t>& lengths, std::int64_t sequence) {
  if (sequence < 0 || sequence >= static_cast<std::int64_t>(lengths.size()))
    throw std::invalid_argument("sequence: " + std::to_string(sequence) + " is not one of the cache's " +
                                std::to_string(lengths.size()));
}

// keys and values must be (1, kv_heads, T, head_dim) with the same T.
std::int64_t new_tokens(const Tensor4& keys, const Tensor4& values, std::int64_t kv_heads, std::int64_t head_dim) {
  rooflab::require_well_formed(keys, "keys");
  rooflab::require_well_formed(values, "values");
  if (keys.batch() != 1 || keys.heads() != kv_heads || keys.cols() != head_dim)
    throw std::invalid_argument("keys: must be (1, H_kv, T, d) with the cache's H_kv = " + std::to_string(kv_heads) +
                                " and d = " + std::to_string(head_dim));
  if (values.shape != keys.shape) throw std::invalid_argument("values: must have the shape of the new key tokens");
  return keys.rows();
}

// length must be in [0, the tokens the sequence holds].
void require_length(std::int64_t length, std::int64_t held) {
  if (length < 0 || length > held)
    throw std::invalid_argument("length: " + std::to_string(length) + " is not in [0, " + std::to_string(held) +
                                "], the tokens held");
}

// Copies token t of kv head g of `from` (1, kv_heads, T, d) to `to`.
void copy_token(const Tensor4& from, std::int64_t g, std::int64_t t, float* to) {
  const float* row = from.row(g, t);
  std::copy(row, row + from.cols(), to);
}

}  // namespace
// END SOLUTION

ContiguousKvCache make_contiguous_cache(std::int64_t sequences, std::int64_t kv_heads, std::int64_t head_dim,
                                        std::int64_t capacity) {
  // BEGIN SOLUTION
  require_positive(sequences, "sequences");
  require_positive(kv_heads, "kv_heads");
  require_positive(head_dim, "head_dim");
  require_positive(capacity, "capacity");
  ContiguousKvCache cache;
  cache.kv_heads = kv_heads;
  cache.head_dim = head_dim;
  cache.capacity = capacity;
  cache.lengths.assign(static_cast<std::size_t>(sequences), 0);
  const auto elements = static_cast<std::size_t>(sequences * kv_heads * capacity * head_dim);
  cache.keys.assign(elements, 0.0f);
  cache.values.assign(elements, 0.0f);
  return cache;
  // END SOLUTION
}

PagedKvCache make_paged_cache(std::int64_t sequences, std::int64_t kv_heads, std::int64_t head_dim,
                              std::int64_t page_size, const std::vector<std::int64_t>& pages) {
  // BEGIN SOLUTION
  require_positive(sequences, "sequences");
  require_positive(kv_heads, "kv_heads");
  require_positive(head_dim, "head_dim");
  require_positive(page_size, "page_size");
  std::vector<std::int64_t> sorted = pages;
  std::sort(sorted.begin(), sorted.end());
  for (std::size_t i = 0; i < sorted.size(); ++i)
    if (sorted[i] != static_cast<std::int64_t>(i)) throw std::invalid_argument("pages: must list each page 0…P−1 once");
  if (pages.empty()) throw std::invalid_argument("pages: the pool needs at least one page");
  PagedKvCache cache;
  cache.kv_heads = kv_heads;
  cache.head_dim = head_dim;
  cache.page_size = page_size;
  cache.lengths.assign(static_cast<std::size_t>(sequences), 0);
  cache.block_tables.assign(static_cast<std::size_t>(sequences), {});
  cache.free_pages = pages;
  const auto elements =
      static_cast<std::size_t>(static_cast<std::int64_t>(pages.size()) * kv_heads * page_size * head_dim);
  cache.keys.assign(elements, 0.0f);
  cache.values.assign(elements, 0.0f);
  return cache;
  // END SOLUTION
}

ContiguousKvCache append(ContiguousKvCache cache, std::int64_t sequence, const Tensor4& keys, const Tensor4& values) {
  // BEGIN SOLUTION
  require_sequence(cache.lengths, sequence);
  const std::int64_t count = new_tokens(keys, values, cache.kv_heads, cache.head_dim);
  std::int64_t& length = cache.lengths[static_cast<std::size_t>(sequence)];
  if (length + count > cache.capacity)
    throw std::invalid_argument("capacity: " + std::to_string(length) + " + " + std::to_string(count) +
                                " tokens do not fit in " + std::to_string(cache.capacity));
  for (std::int64_t g = 0; g < cache.kv_heads; ++g) {
    for (std::int64_t t = 0; t < count; ++t) {
      const auto at =
          static_cast<std::size_t>(((sequence * cache.kv_heads + g) * cache.capacity + length + t) * cache.head_dim);
      copy_token(keys, g, t, cache.keys.data() + at);
      copy_token(values, g, t, cache.values.data() + at);
    }
  }
  length += count;
  return cache;
  // END SOLUTION
}

PagedKvCache append(PagedKvCache cache, std::int64_t sequence, const Tensor4& keys, const Tensor4& values) {
  // BEGIN SOLUTION
  require_sequence(cache.lengths, sequence);
  const std::int64_t count = new_tokens(keys, values, cache.kv_heads, cache.head_dim);
  std::int64_t& length = cache.lengths[static_cast<std::size_t>(sequence)];
  std::vector<std::int64_t>& table = cache.block_tables[static_cast<std::size_t>(sequence)];
  const std::int64_t pages_needed = (length + count + cache.page_size - 1) / cache.page_size;
  const auto more = pages_needed - static_cast<std::int64_t>(table.size());
  if (more > static_cast<std::int64_t>(cache.free_pages.size()))
    throw std::invalid_argument("pages: " + std::to_string(count) + " more tokens need " + std::to_string(more) +
                                " more pages, the pool has " + std::to_string(cache.free_pages.size()) + " left");
  table.insert(table.end(), cache.free_pages.begin(), cache.free_pages.begin() + more);
  cache.free_pages.erase(cache.free_pages.begin(), cache.free_pages.begin() + more);
  for (std::int64_t t = 0; t < count; ++t) {
    const std::int64_t token = length + t;
    const std::int64_t page = table[static_cast<std::size_t>(token / cache.page_size)];
    for (std::int64_t g = 0; g < cache.kv_heads; ++g) {
      const auto at = static_cast<std::size_t>(
          ((page * cache.kv_heads + g) * cache.page_size + token % cache.page_size) * cache.head_dim);
      copy_token(keys, g, t, cache.keys.data() + at);
      copy_token(values, g, t, cache.values.data() + at);
    }
  }
  length += count;
  return cache;
  // END SOLUTION
}

CachedKeysValues cached(const ContiguousKvCache& cache, std::int64_t sequence) {
  // BEGIN SOLUTION
  require_sequence(cache.lengths, sequence);
  const std::int64_t length = cache.lengths[static_cast<std::size_t>(sequence)];
  CachedKeysValues out{rooflab::zeros(1, cache.kv_heads, length, cache.head_dim),
                       rooflab::zeros(1, cache.kv_heads, length, cache.head_dim)};
  for (std::int64_t g = 0; g < cache.kv_heads; ++g) {
    const auto from = static_cast<std::size_t>((sequence * cache.kv_heads + g) * cache.capacity * cache.head_dim);
    const auto count = static_cast<std::ptrdiff_t>(length * cache.head_dim);
    std::copy(cache.keys.begin() + static_cast<std::ptrdiff_t>(from),
              cache.keys.begin() + static_cast<std::ptrdiff_t>(from) + count, out.keys.row(g, 0));
    std::copy(cache.values.begin() + static_cast<std::ptrdiff_t>(from),
              cache.values.begin() + static_cast<std::ptrdiff_t>(from) + count, out.values.row(g, 0));
  }
  return out;
  // END SOLUTION
}

CachedKeysValues cached(const PagedKvCache& cache, std::int64_t sequence) {
  // BEGIN SOLUTION
  require_sequence(cache.lengths, sequence);
  const std::int64_t length = cache.lengths[static_cast<std::size_t>(sequence)];
  const std::vector<std::int64_t>& table = cache.block_tables[static_cast<std::size_t>(sequence)];
  CachedKeysValues out{rooflab::zeros(1, cache.kv_heads, length, cache.head_dim),
                       rooflab::zeros(1, cache.kv_heads, length, cache.head_dim)};
  for (std::int64_t t = 0; t < length; ++t) {
    const std::int64_t page = table[static_cast<std::size_t>(t / cache.page_size)];
    for (std::int64_t g = 0; g < cache.kv_heads; ++g) {
      const auto at = static_cast<std::size_t>(((page * cache.kv_heads + g) * cache.page_size + t % cache.page_size) *
                                               cache.head_dim);
      std::copy(cache.keys.data() + at, cache.keys.data() + at + cache.head_dim, out.keys.row(g, t));
      std::copy(cache.values.data() + at, cache.values.data() + at + cache.head_dim, out.values.row(g, t));
    }
  }
  return out;
  // END SOLUTION
}

ContiguousKvCache truncate(ContiguousKvCache cache, std::int64_t sequence, std::int64_t length) {
  // BEGIN SOLUTION
  require_sequence(cache.lengths, sequence);
  std::int64_t& held = cache.lengths[static_cast<std::size_t>(sequence)];
  require_length(length, held);
  held = length;  // the slots past it are overwritten by the next append
  return cache;
  // END SOLUTION
}

PagedKvCache truncate(PagedKvCache cache, std::int64_t sequence, std::int64_t length) {
  // BEGIN SOLUTION
  require_sequence(cache.lengths, sequence);
  std::int64_t& held = cache.lengths[static_cast<std::size_t>(sequence)];
  require_length(length, held);
  held = length;
  std::vector<std::int64_t>& table = cache.block_tables[static_cast<std::size_t>(sequence)];
  const auto keep = static_cast<std::ptrdiff_t>((length + cache.page_size - 1) / cache.page_size);
  // Freed pages to the front of the pool: the next append takes them first,
  // while they are still warm in the caches.
  cache.free_pages.insert(cache.free_pages.begin(), table.begin() + keep, table.end());
  table.erase(table.begin() + keep, table.end());
  return cache;
  // END SOLUTION
}

}  // namespace a06_kv_cache_decode
