// The lab text's worked example: run it once your functions pass the tests
// (build target a03_attention_memory_usage). Its output is quoted in README.md.
#include <cstdio>

#include "a03_attention_memory/a03_attention_memory.hpp"

int main() {
  using namespace a03_attention_memory;
  const MemoryEstimate at_4k = estimate_memory(Method::standard, {1, 1, 4096, 64}, Dtype::fp32);
  std::printf("standard attention, N=4096, d=64, fp32:\n");
  std::printf("  Q, K, V     %6.1f MiB\n", at_4k.inputs / (1 << 20));
  std::printf("  scores S    %6.1f MiB\n", at_4k.scores / (1 << 20));
  std::printf("  weights P   %6.1f MiB\n", at_4k.weights / (1 << 20));
  std::printf("  output O    %6.1f MiB\n", at_4k.output / (1 << 20));

  std::printf("peak extra memory in MiB, measured vs estimated (B=1, H=1, d=64, fp32):\n");
  std::printf("  %-24s %6s %9s %9s\n", "method", "N", "measured", "estimated");
  for (const Method method :
       {Method::standard, Method::linear, Method::linear_causal_cumsum, Method::linear_causal_recurrent}) {
    for (const ScalingPoint& point : profile_memory_scaling(method, {1, 1, 0, 64}, {512, 1024}, 1))
      std::printf("  %-24s %6lld %9.2f %9.2f\n", to_string(method), static_cast<long long>(point.seq_len),
                  point.measured_bytes / (1 << 20), point.estimated_bytes / (1 << 20));
  }
  return 0;
}
