// Every number docs/04 and the a03 lab README quote, from the reference.
#include <string>

#include "a03_attention_memory/a03_attention_memory.hpp"
#include "doc_regions.hpp"

namespace rooflab::docs {
namespace {

constexpr double kMiB = 1 << 20;

using a03_attention_memory::Dtype;
using a03_attention_memory::Method;
using Estimate = a03_attention_memory::MemoryEstimate;

double estimate(Method method, std::int64_t b, std::int64_t h, std::int64_t n, Dtype dtype, double Estimate::*field) {
  return a03_attention_memory::estimate_memory(method, {b, h, n, 64}, dtype).*field;
}

}  // namespace

void add_a03_attention_memory_numbers(Values& values) {
  values["a03.usage_output"] = [] { return program_output_block(ROOFLAB_EXAMPLE_PATH_PREFIX "usage"); };
  values["a03.scores_4096_mib"] = [] {
    return fmt("%.1f", estimate(Method::standard, 1, 1, 4096, Dtype::fp32, &Estimate::scores) / kMiB);
  };
  values["a03.qkv_4096_mib"] = [] {
    return fmt("%.1f", estimate(Method::standard, 1, 1, 4096, Dtype::fp32, &Estimate::inputs) / kMiB);
  };
  values["a03.scores_b4h8n8192_fp16_gb"] = [] {
    return fmt("%.1f", estimate(Method::standard, 4, 8, 8192, Dtype::fp16, &Estimate::scores) / 1e9);
  };
  values["a03.linear_state_b4h8_fp16_mb"] = [] {
    return fmt("%.2f", estimate(Method::linear, 4, 8, 8192, Dtype::fp16, &Estimate::state) / 1e6);
  };
  values["a03.cumsum_state_b4h8n8192_fp16_gb"] = [] {
    return fmt("%.2f", estimate(Method::linear_causal_cumsum, 4, 8, 8192, Dtype::fp16, &Estimate::state) / 1e9);
  };
}

}  // namespace rooflab::docs
