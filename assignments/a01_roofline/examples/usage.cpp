// The lab text's worked example: run it once your functions pass the tests
// (build target a01_roofline_usage). Its output is quoted in README.md.
#include <cstdio>

#include "a01_roofline/a01_roofline.hpp"

int main() {
  using namespace a01_roofline;

  const double weights = model_memory_bytes(7e9, DType::fp16);
  std::printf("7B fp16 weights:        %.1f GB\n", weights / 1e9);

  const GpuSpec& a100 = find_gpu("a100-sxm-80gb");
  std::printf("max decode on A100:     %.1f tokens/s\n", max_decode_tokens_per_s(weights, a100.bandwidth_bytes_per_s));

  const double kv = kv_cache_bytes(
      {.batch = 8, .seq_len = 2048, .num_layers = 32, .num_kv_heads = 32, .head_dim = 128, .bytes_per_element = 2});
  std::printf("KV cache, batch 8x2048: %.2f GB\n", kv / 1e9);

  const GpuSpec& h100 = find_gpu("h100-sxm-fp16");
  std::printf("H100 FP16 ridge point:  %.1f FLOP/byte\n",
              ridge_point(h100.peak_flops_per_s, h100.bandwidth_bytes_per_s));

  const AttentionBreakdown attention = attention_breakdown(4096, 128, 2);
  std::printf("attention AI d=128 N=4096: %.1f FLOP/byte\n", attention.total.intensity);

  const ModelConfig model{"7b", 7e9, 32, 4096, 32, 32, 2};
  const InferenceAnalysis analysis = analyze_inference(model, a100, 1, 2048);
  std::printf("decode AI (batch 1, 2048 ctx): %.2f FLOP/byte -> %s\n", analysis.decode_intensity,
              analysis.memory_bound ? "memory-bound" : "compute-bound");
  std::printf("compute utilization at best: %.2f%%\n", 100.0 * analysis.compute_utilization);
  return 0;
}
