// a01_roofline — contract, part 1: how many bytes a model moves.
//
// Conventions (docs/01_memory_bound_inference.md): sizes are in bytes, GB means
// 1e9 bytes.
//
// Validation, the same in every header of this lab: each input a function lists
// as checked must be a positive finite number; 0, a negative, NaN or ±inf throws
// std::invalid_argument whose message names that input as a word of its own and
// no other input of the function, e.g. "num_params must be a positive finite
// number, got -1" (what rooflab::require_positive in rooflab/validate.hpp
// throws). A struct's field is named by its field name, e.g. num_kv_heads. With
// several bad inputs, any one of them may be named: tests make one input bad at
// a time.
#pragma once

#include <string_view>

namespace a01_roofline {

enum class DType { fp32, fp16, bf16, fp8, int8, int4 };

// Bytes one element of `dtype` occupies: fp32 4, fp16/bf16 2, fp8/int8 1, int4 0.5.
// A value outside the enum (e.g. static_cast<DType>(99)) throws
// std::invalid_argument naming dtype.
double bytes_per_element(DType dtype);

// DType from its lowercase name ("fp32", "fp16", "bf16", "fp8", "int8", "int4");
// throws std::invalid_argument naming the unknown name.
DType parse_dtype(std::string_view name);

// Bytes to store the weights: num_params × bytes_per_param.
// Checks num_params and bytes_per_param. The DType overload checks num_params,
// and names dtype for a value outside the enum (as bytes_per_element does).
double model_memory_bytes(double num_params, double bytes_per_param);
double model_memory_bytes(double num_params, DType dtype);

// Upper bound on single-stream decode speed when every token must read
// `bytes_per_token` from memory at `bandwidth_bytes_per_s`: bandwidth / bytes.
// Checks bytes_per_token and bandwidth_bytes_per_s.
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
// Checks every field, each named by itself: batch, seq_len, num_layers,
// num_kv_heads, head_dim, bytes_per_element.
double kv_cache_bytes(const KvCacheShape& shape);

}  // namespace a01_roofline
