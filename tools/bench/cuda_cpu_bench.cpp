// `rooflab bench cuda-cpu`: what the CPU runtime (rooflab/cuda_cpu.hpp) costs,
// and what its checks cost: the same kernels built checked (every access goes
// to the race checker, memcheck and the counters, as in every test and
// grading) and unchecked, timed side by side in one run.
#include <cstdio>

#include "attention_bench.hpp"
#include "cuda_cpu_bench_kernels.hpp"

namespace rooflab::bench {

int run_cuda_cpu_bench() {
  constexpr int kRepeats = 3;
  using Timer = KernelTiming (*)(int);
  const Timer unchecked_timers[] = {unchecked::time_copy,     unchecked::time_transpose,   unchecked::time_row_softmax,
                                    unchecked::time_barriers, unchecked::time_tiny_blocks, unchecked::time_wmma_gemm,
                                    unchecked::time_mma_gemm};
  const Timer checked_timers[] = {checked::time_copy,     checked::time_transpose,   checked::time_row_softmax,
                                  checked::time_barriers, checked::time_tiny_blocks, checked::time_wmma_gemm,
                                  checked::time_mma_gemm};
  std::printf("| kernel | unchecked | checked | slowdown | checked accesses/s |\n|---|---:|---:|---:|---:|\n");
  for (std::size_t k = 0; k < std::size(checked_timers); ++k) {
    std::fprintf(stderr, "bench cuda-cpu: kernel %zu of %zu\n", k + 1, std::size(checked_timers));
    const KernelTiming plain = unchecked_timers[k](kRepeats);
    const KernelTiming checked = checked_timers[k](kRepeats);
    char rate[32] = "–";
    if (checked.accesses > 0) std::snprintf(rate, sizeof rate, "%.0f M", checked.accesses / checked.seconds / 1e6);
    std::printf("| %s | %.1f ms | %.1f ms | %.1f× | %s |\n", checked.kernel, plain.seconds * 1e3, checked.seconds * 1e3,
                checked.seconds / plain.seconds, rate);
  }
  std::printf("\nBest of %d launches each. Checked is how every test and grading runs CUDA kernels on the CPU.\n",
              kRepeats);
  return 0;
}

}  // namespace rooflab::bench
