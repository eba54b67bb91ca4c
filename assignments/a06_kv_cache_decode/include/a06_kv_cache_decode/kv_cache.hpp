// The KV cache: the keys and values of every token a sequence has seen, kept
// so that each decode step computes attention for one new query instead of
// recomputing the whole prefix (docs/07_kv_cache_decode.md).
//
// Two layouts, both plain data (the grader carries them between processes):
//   ContiguousKvCache  each sequence owns a slab of `capacity` tokens;
//   PagedKvCache       tokens live in fixed-size pages drawn from one pool, and
//                      each sequence's block table lists its pages in order,
//                      so memory follows the tokens actually cached.
// Keys and values have kv_heads heads: as many as the queries' heads (MHA),
// fewer (GQA: query head h reads kv head h / (heads / kv_heads)), or one (MQA).
//
// Validation: a bad input throws std::invalid_argument whose message starts with
// its name ("capacity: ...") and names none of the other names the functions
// below use: sequences, kv_heads, head_dim, capacity, page_size, pages,
// sequence, keys, values, length (so a message about keys must not say kv_heads or
// head_dim, nor one about sequence say sequences). Tests make one input bad at a
// time. What each function checks is listed with it.
//
// C++17 on purpose: decode_attention.cu includes this header and nvcc compiles it.
#pragma once

#include <cstdint>
#include <vector>

#include "rooflab/tensor.hpp"

namespace a06_kv_cache_decode {

using rooflab::Tensor4;

struct ContiguousKvCache {
  std::int64_t kv_heads = 0, head_dim = 0;
  std::int64_t capacity = 0;          // tokens each sequence may hold
  std::vector<std::int64_t> lengths;  // tokens each sequence holds now
  // (sequences, kv_heads, capacity, head_dim), row-major: token t of kv head
  // g of sequence s at ((s·kv_heads + g)·capacity + t)·head_dim.
  std::vector<float> keys, values;
};

struct PagedKvCache {
  std::int64_t kv_heads = 0, head_dim = 0;
  std::int64_t page_size = 0;                           // tokens per page
  std::vector<std::int64_t> lengths;                    // tokens each sequence holds now
  std::vector<std::vector<std::int64_t>> block_tables;  // sequence -> its physical pages, in token order
  std::vector<std::int64_t> free_pages;                 // pages not yet used, handed out from the front
  // (pages, kv_heads, page_size, head_dim), row-major: slot i of kv head g of
  // physical page p at ((p·kv_heads + g)·page_size + i)·head_dim. Token t of a
  // sequence is slot t % page_size of page block_table[t / page_size].
  std::vector<float> keys, values;
};

// The keys and values one sequence holds, (1, kv_heads, length, head_dim) each.
struct CachedKeysValues {
  Tensor4 keys, values;
};

// An empty cache for `sequences` sequences of up to `capacity` tokens.
// Checks sequences, kv_heads, head_dim and capacity: each must be positive.
ContiguousKvCache make_contiguous_cache(std::int64_t sequences, std::int64_t kv_heads, std::int64_t head_dim,
                                        std::int64_t capacity);

// An empty cache whose pool holds pages.size() pages of page_size tokens,
// handed out in the order `pages` lists them (a permutation of 0…P−1; tests
// shuffle it, so a sequence's pages are rarely adjacent). Checks sequences,
// kv_heads, head_dim and page_size (each must be positive), and names pages when
// it is empty or is not a permutation of 0…P−1 (a page missing or listed twice).
PagedKvCache make_paged_cache(std::int64_t sequences, std::int64_t kv_heads, std::int64_t head_dim,
                              std::int64_t page_size, const std::vector<std::int64_t>& pages);

// The cache with T more tokens for `sequence`: keys and values are
// (1, kv_heads, T, head_dim). Throws std::invalid_argument naming
//   sequence  not in [0, number of sequences)
//   keys      a dimension not positive (so T >= 1), data.size() not the product
//             of its shape (rooflab::require_well_formed), or a shape other than
//             (1, the cache's kv_heads, T, the cache's head_dim)
//   values    the same well-formedness, or a shape other than keys'
//   capacity  contiguous: the tokens held plus T exceed capacity
//   pages     paged: the T tokens need more pages than free_pages has left
// (the cache is unchanged: it was passed by value).
ContiguousKvCache append(ContiguousKvCache cache, std::int64_t sequence, const Tensor4& keys, const Tensor4& values);
PagedKvCache append(PagedKvCache cache, std::int64_t sequence, const Tensor4& keys, const Tensor4& values);

// What `sequence` holds, in token order. Throws std::invalid_argument naming
// sequence when it is not in [0, number of sequences).
CachedKeysValues cached(const ContiguousKvCache& cache, std::int64_t sequence);
CachedKeysValues cached(const PagedKvCache& cache, std::int64_t sequence);

// The cache with `sequence` cut back to its first `length` tokens, the rest
// forgotten: what speculative decoding does when the target rejects the
// draft's proposals (docs/07_kv_cache_decode.md, "Decoding for real").
// Nothing is copied or cleared: the tokens kept stay where they are.
// Contiguous: only the length changes. Paged: the pages the first `length`
// tokens do not touch (past ceil(length / page_size)) leave the block table
// and go back to the front of free_pages, in the table's order, so the next
// append takes them first. Throws std::invalid_argument naming
//   sequence  not in [0, number of sequences)
//   length    negative, or more than the tokens the sequence holds
// (the cache is unchanged: it was passed by value).
ContiguousKvCache truncate(ContiguousKvCache cache, std::int64_t sequence, std::int64_t length);
PagedKvCache truncate(PagedKvCache cache, std::int64_t sequence, std::int64_t length);

}  // namespace a06_kv_cache_decode
