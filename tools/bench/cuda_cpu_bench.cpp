// `rooflab bench cuda-cpu`: what the CPU runtime (rooflab/cuda_cpu.hpp) costs
// per thread switch and per block, the two costs that decide how long a
// kernel's tests take without a GPU.
#include <cstdio>

#include "attention_bench.hpp"
#include "rooflab/cuda_cpu.hpp"
#include "rooflab/timing.hpp"

namespace {

__global__ void barriers(int count) {
  for (int i = 0; i < count; ++i) __syncthreads();
}

}  // namespace

namespace rooflab::bench {

int run_cuda_cpu_bench() {
  using rooflab::cuda_cpu::launch;
  const bool race_check = rooflab::cuda_cpu::race_check();
  rooflab::cuda_cpu::set_race_check(false);  // one run per launch: the costs of a single order
  constexpr int kBlocks = 8, kThreads = 256, kBarriers = 1000, kTinyBlocks = 2000;
  launch("barriers", barriers, dim3(1), dim3(kThreads), 0, 10);  // warm-up: stacks, threads
  const double switching =
      rooflab::best_seconds(1, [&] { launch("barriers", barriers, dim3(kBlocks), dim3(kThreads), 0, kBarriers); });
  const double blocks =
      rooflab::best_seconds(1, [&] { launch("barriers", barriers, dim3(kTinyBlocks), dim3(32), 0, 1); });
  rooflab::cuda_cpu::set_race_check(race_check);
  std::printf("| measure | value |\n|---|---:|\n");
  std::printf("| one thread to a __syncthreads and back (%d blocks × %d threads × %d barriers) | %.1f ns |\n", kBlocks,
              kThreads, kBarriers, switching / (double{kBlocks} * kThreads * kBarriers) * 1e9);
  std::printf("| one block of 32 threads, started and finished (%d blocks) | %.1f µs |\n", kTinyBlocks,
              blocks / kTinyBlocks * 1e6);
  std::printf("\nEvery launch runs three times with the race check on (the default).\n");
  return 0;
}

}  // namespace rooflab::bench
