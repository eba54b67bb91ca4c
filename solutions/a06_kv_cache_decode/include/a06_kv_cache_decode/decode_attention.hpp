// Decode attention: one new query per sequence against everything its cache
// holds. The query is the newest token, so it sees every cached key (causal
// attention aligned at the bottom right, as in docs/06), and the whole cost
// is reading the cache once: decoding is memory-bound (docs/07).
//
// The CPU version splits each sequence's keys into chunks that threads work on
// at once, each keeping its own softmax statistics (m, l) and weighted sum,
// then merges the chunks with their log-sum-exps (Flash-Decoding). The CUDA
// version does the same with a split-KV kernel and a reduction kernel; without
// a GPU it runs in the course's CPU runtime (rooflab/cuda_cpu.hpp).
//
// C++17 on purpose: decode_attention.cu includes this header and nvcc compiles it.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "a06_kv_cache_decode/kv_cache.hpp"

namespace a06_kv_cache_decode {

struct DecodeOptions {
  std::int64_t splits = 0;   // key chunks per (sequence, head); 0: the implementation chooses
  std::int64_t threads = 0;  // CPU threads; 0: OpenMP's default
};

struct DecodeResult {
  Tensor4 output;          // (sequences, heads, 1, head_dim)
  std::vector<float> lse;  // (sequences, heads): log Σ_j exp(q·k_j/√d), −∞ for an empty sequence
};

// softmax(q Kᵀ/√d) V for each sequence s and query head h, q (S, H, 1, d),
// over the cache's lengths[s] tokens of kv head h / (H / kv_heads). A sequence
// with no cached token gives output 0 and lse −∞.
//
// Validation, by require_valid below (provided; every implementation calls it
// first): std::invalid_argument whose message starts with the culprit's name and
// names no other of q, heads, splits, threads (so a message about q must not say
// heads):
//   q        not well formed (a dimension not positive, or data.size() not the
//            product of its shape), its rows dimension not 1 (one query per
//            (sequence, head)), its batch not the cache's number of sequences,
//            or its head_dim not the cache's
//   heads    q's heads dimension not a multiple of the cache's kv_heads
//   splits, threads  negative (0 lets the implementation choose)
DecodeResult decode_attention(const Tensor4& q, const ContiguousKvCache& cache, const DecodeOptions& options);
DecodeResult decode_attention(const Tensor4& q, const PagedKvCache& cache, const DecodeOptions& options);

// The same as a split-KV CUDA kernel and a reduction kernel (options.threads
// is ignored, but still checked). On a GPU where there is one, in the CPU
// runtime elsewhere. Validation as above, then q is also named when the cache's
// head_dim exceeds what the kernels take, 256 (require_head_dim in
// decode_attention.cu, provided).
DecodeResult decode_attention_cuda(const Tensor4& q, const ContiguousKvCache& cache, const DecodeOptions& options);
DecodeResult decode_attention_cuda(const Tensor4& q, const PagedKvCache& cache, const DecodeOptions& options);

// The checks above, shared by every implementation.
inline void require_valid(const Tensor4& q, std::int64_t sequences, std::int64_t kv_heads, std::int64_t head_dim,
                          const DecodeOptions& options) {
  rooflab::require_well_formed(q, "q");
  if (q.rows() != 1) throw std::invalid_argument("q: one query per (sequence, head): its rows dimension must be 1");
  if (q.batch() != sequences)
    throw std::invalid_argument("q: " + std::to_string(q.batch()) + " sequences, the cache has " +
                                std::to_string(sequences));
  if (q.cols() != head_dim)
    throw std::invalid_argument("q: its head dimension " + std::to_string(q.cols()) + " differs from the cache's " +
                                std::to_string(head_dim));
  if (kv_heads <= 0 || q.heads() % kv_heads != 0)  // a hand-built cache may say 0
    throw std::invalid_argument("heads: " + std::to_string(q.heads()) + " query heads are not a multiple of " +
                                std::to_string(kv_heads) + " kv heads");
  if (options.splits < 0) throw std::invalid_argument("splits: must not be negative");
  if (options.threads < 0) throw std::invalid_argument("threads: must not be negative");
}

}  // namespace a06_kv_cache_decode
