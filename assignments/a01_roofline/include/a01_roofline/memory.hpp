// a01_roofline — contract, part 1: how many bytes a model moves.
//
// Conventions (docs/01_memory_bound_inference.md): sizes are in bytes, GB means
// 1e9 bytes. Every function throws std::invalid_argument naming the argument when
// an input is non-positive or non-finite.
#pragma once

#include <string_view>

namespace a01_roofline {

enum class DType { fp32, fp16, bf16, fp8, int8, int4 };

// Bytes one element of `dtype` occupies: fp32 4, fp16/bf16 2, fp8/int8 1, int4 0.5.
double bytes_per_element(DType dtype);

// DType from its lowercase name ("fp32", "fp16", "bf16", "fp8", "int8", "int4");
// throws std::invalid_argument naming the unknown name.
DType parse_dtype(std::string_view name);

// Bytes to store the weights: num_params × bytes_per_param. Throws
// std::invalid_argument naming num_params or bytes_per_param, whichever is not
// a positive finite number (the DType overload checks num_params).
double model_memory_bytes(double num_params, double bytes_per_param);
double model_memory_bytes(double num_params, DType dtype);

// Upper bound on single-stream decode speed when every token must read
// `bytes_per_token` from memory at `bandwidth_bytes_per_s`: bandwidth / bytes.
// Throws std::invalid_argument naming bytes_per_token or bandwidth_bytes_per_s,
// whichever is not a positive finite number.
double max_decode_tokens_per_s(double bytes_per_token, double bandwidth_bytes_per_s);

// Shape of a KV cache. With num_kv_heads == num_heads this is multi-head
// attention (MHA); fewer KV heads is grouped-query attention (GQA).
struct KvCacheShape {
  double batch = 1;
  double seq_len = 1;
  double num_layers = 1;
  double num_kv_heads = 1;
  double head_dim = 1;
  double bytes_per_element = 2;
};

// batch × seq_len × num_layers × 2 (K and V) × num_kv_heads × head_dim × bytes.
// Throws std::invalid_argument naming the field (batch, seq_len, num_layers,
// num_kv_heads, head_dim or bytes_per_element) that is not a positive finite number.
double kv_cache_bytes(const KvCacheShape& shape);

}  // namespace a01_roofline
