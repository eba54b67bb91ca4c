// a01_roofline, part 1: bytes of weights, decode speed limit, KV cache.
#include "a01_roofline/memory.hpp"

#include <stdexcept>

#include "rooflab/not_implemented.hpp"
#include "rooflab/validate.hpp"  // keep: rooflab::require_positive

namespace a01_roofline {

double bytes_per_element(DType dtype) {
  // BEGIN SOLUTION
  switch (dtype) {
    case DType::fp32:
      return 4.0;
    case DType::fp16:
    case DType::bf16:
      return 2.0;
    case DType::fp8:
    case DType::int8:
      return 1.0;
    case DType::int4:
      return 0.5;  // two weights share a byte
  }
  throw std::invalid_argument("dtype is not a known DType value");
  // END SOLUTION
}

double model_memory_bytes(double num_params, double bytes_per_param) {
  // BEGIN SOLUTION
  rooflab::require_positive(num_params, "num_params");
  rooflab::require_positive(bytes_per_param, "bytes_per_param");
  return num_params * bytes_per_param;
  // END SOLUTION
}

double model_memory_bytes(double num_params, DType dtype) {
  // BEGIN SOLUTION
  return model_memory_bytes(num_params, bytes_per_element(dtype));
  // END SOLUTION
}

double max_decode_tokens_per_s(double bytes_per_token, double bandwidth_bytes_per_s) {
  // BEGIN SOLUTION
  rooflab::require_positive(bytes_per_token, "bytes_per_token");
  rooflab::require_positive(bandwidth_bytes_per_s, "bandwidth_bytes_per_s");
  // Each token needs every byte once; bandwidth sets how many such passes fit in a second.
  return bandwidth_bytes_per_s / bytes_per_token;
  // END SOLUTION
}

double kv_cache_bytes(const KvCacheShape& shape) {
  // BEGIN SOLUTION
  rooflab::require_positive(shape.batch, "batch");
  rooflab::require_positive(shape.seq_len, "seq_len");
  rooflab::require_positive(shape.num_layers, "num_layers");
  rooflab::require_positive(shape.num_kv_heads, "num_kv_heads");
  rooflab::require_positive(shape.head_dim, "head_dim");
  rooflab::require_positive(shape.bytes_per_element, "bytes_per_element");
  // One K and one V vector per token, per layer, per KV head.
  return shape.batch * shape.seq_len * shape.num_layers * 2.0 * shape.num_kv_heads * shape.head_dim *
         shape.bytes_per_element;
  // END SOLUTION
}

}  // namespace a01_roofline
