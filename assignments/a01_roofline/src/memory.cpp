// a01_roofline, part 1: bytes of weights, decode speed limit, KV cache.
#include "a01_roofline/memory.hpp"

#include "rooflab/not_implemented.hpp"
#include "rooflab/validate.hpp"  // keep: rooflab::require_positive

namespace a01_roofline {

double bytes_per_element(DType dtype) {
  // YOUR CODE HERE
  rooflab::todo("a01_roofline::bytes_per_element", dtype);
}

double model_memory_bytes(double num_params, double bytes_per_param) {
  // YOUR CODE HERE
  rooflab::todo("a01_roofline::model_memory_bytes", num_params, bytes_per_param);
}

double model_memory_bytes(double num_params, DType dtype) {
  // YOUR CODE HERE
  rooflab::todo("a01_roofline::model_memory_bytes", num_params, dtype);
}

double max_decode_tokens_per_s(double bytes_per_token, double bandwidth_bytes_per_s) {
  // YOUR CODE HERE
  rooflab::todo("a01_roofline::max_decode_tokens_per_s", bytes_per_token, bandwidth_bytes_per_s);
}

double kv_cache_bytes(const KvCacheShape& shape) {
  // YOUR CODE HERE
  rooflab::todo("a01_roofline::kv_cache_bytes", shape);
}

}  // namespace a01_roofline
