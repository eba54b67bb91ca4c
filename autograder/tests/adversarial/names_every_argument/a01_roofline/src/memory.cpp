// Adversarial submission "names_every_argument": right answers for valid
// input, and for any invalid input one message naming every argument, so that
// whichever name a validation test looks for is in it.
#include "a01_roofline/memory.hpp"

#include <cmath>
#include <stdexcept>

namespace a01_roofline {
namespace {

void check(bool valid) {
  if (!valid)
    throw std::invalid_argument(
        "num_params, bytes_per_param, dtype, bytes_per_token, bandwidth_bytes_per_s, batch, seq_len, num_layers, "
        "num_kv_heads, head_dim or bytes_per_element is not valid");
}

bool positive(double x) { return std::isfinite(x) && x > 0; }

}  // namespace

double bytes_per_element(DType dtype) {
  switch (dtype) {
    case DType::fp32:
      return 4;
    case DType::fp16:
    case DType::bf16:
      return 2;
    case DType::fp8:
    case DType::int8:
      return 1;
    case DType::int4:
      return 0.5;
  }
  check(false);
  return 0;
}

double model_memory_bytes(double num_params, double bytes_per_param) {
  check(positive(num_params) && positive(bytes_per_param));
  return num_params * bytes_per_param;
}

double model_memory_bytes(double num_params, DType dtype) {
  return model_memory_bytes(num_params, bytes_per_element(dtype));
}

double max_decode_tokens_per_s(double bytes_per_token, double bandwidth_bytes_per_s) {
  check(positive(bytes_per_token) && positive(bandwidth_bytes_per_s));
  return bandwidth_bytes_per_s / bytes_per_token;
}

double kv_cache_bytes(const KvCacheShape& shape) {
  check(positive(shape.batch) && positive(shape.seq_len) && positive(shape.num_layers) &&
        positive(shape.num_kv_heads) && positive(shape.head_dim) && positive(shape.bytes_per_element));
  return shape.batch * shape.seq_len * shape.num_layers * 2 * shape.num_kv_heads * shape.head_dim *
         shape.bytes_per_element;
}

}  // namespace a01_roofline
