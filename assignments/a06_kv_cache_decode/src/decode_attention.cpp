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

#include "a06_kv_cache_decode/decode_attention.hpp"
#include "rooflab/fast_exp.hpp"  // keep: rooflab::exp_nonpositive, an exp the compiler vectorises
#include "rooflab/not_implemented.hpp"

namespace a06_kv_cache_decode {

// YOUR CODE HERE

DecodeResult decode_attention(const Tensor4& q, const ContiguousKvCache& cache, const DecodeOptions& options) {
  // YOUR CODE HERE
  rooflab::todo("a06_kv_cache_decode::decode_attention", q, cache, options);
}

DecodeResult decode_attention(const Tensor4& q, const PagedKvCache& cache, const DecodeOptions& options) {
  // YOUR CODE HERE
  rooflab::todo("a06_kv_cache_decode::decode_attention", q, cache, options);
}

}  // namespace a06_kv_cache_decode
