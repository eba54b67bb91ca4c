// The lab text's worked example: run it once your functions pass the tests
// (build target a02_transformer_costs_usage). Its output is quoted in README.md.
#include <cstdio>

#include "a02_transformer_costs/a02_transformer_costs.hpp"

int main() {
  using namespace a02_transformer_costs;
  const TransformerConfig model = gpt2_xl();
  const Hardware t4 = lab_t4();

  std::printf("GPT-2 XL parameters:        %.0f\n", parameter_count(model));
  std::printf("weights read per pass:      %.2f GB\n", weight_bytes(model) / 1e9);
  std::printf("KV cache, batch 1 x 1024:   %.1f MB\n", kv_cache_bytes(model, 1, 1024) / 1e6);

  for (const Pass& pass : {prefill(1, 1024), decode(1, 1024)}) {
    const Cost cost = model_cost(model, pass);
    const Timing time = roofline_time(cost, t4);
    std::printf("%s B=1 N=1024: %8.1f GFLOP %8.2f GB  AI %6.1f  T_compute %7.2f ms  T_memory %7.2f ms  %s\n",
                pass.new_tokens == 1 ? "decode " : "prefill", cost.flops / 1e9, cost.bytes / 1e9,
                cost.flops / cost.bytes, 1e3 * time.compute_s, 1e3 * time.memory_s,
                time.memory_bound ? "memory-bound" : "compute-bound");
  }
  std::printf("KV cache speed-up at N=1024: %.1fx\n", cached_decode_speedup(model, 1, 1024, t4));

  const DecodeTime decode_time = decode_time_breakdown(model, 1024, t4);
  std::printf("batch-1 decode step: weights %.2f ms, other memory %.2f ms, compute %.3f ms\n",
              1e3 * decode_time.weights_s, 1e3 * decode_time.other_memory_s, 1e3 * decode_time.compute_s);
  std::printf("speculative decoding (alpha 0.8, gamma 4, c 0.05): %.2fx\n", speculative_speedup(0.8, 4, 0.05));
  return 0;
}
