// How the GPU benchmarks time a launch (gpu_attention_bench.cu,
// gpu_decode_bench.cu): CUDA events around it, the L2 cache flushed before
// each run by a write larger than any GPU's L2, three warm-ups, the median.
#pragma once

#include <algorithm>
#include <vector>

#include "rooflab/cuda_helpers.hpp"

namespace rooflab::bench {

// Median milliseconds of `runs` runs of `launch`, each after an L2 flush.
template <class Launch>
double median_ms(int runs, Launch launch) {
  static rooflab::cuda::DeviceBuffer<char> flush(256u << 20);
  cudaEvent_t start, stop;
  ROOFLAB_CUDA_CHECK(cudaEventCreate(&start));
  ROOFLAB_CUDA_CHECK(cudaEventCreate(&stop));
  for (int warm = 0; warm < 3; ++warm) launch();
  std::vector<float> times;
  for (int run = 0; run < runs; ++run) {
    ROOFLAB_CUDA_CHECK(cudaMemset(flush.get(), run, flush.bytes()));
    ROOFLAB_CUDA_CHECK(cudaEventRecord(start));
    launch();
    ROOFLAB_CUDA_CHECK(cudaEventRecord(stop));
    ROOFLAB_CUDA_CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    ROOFLAB_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    times.push_back(ms);
  }
  ROOFLAB_CUDA_CHECK(cudaGetLastError());
  ROOFLAB_CUDA_CHECK(cudaEventDestroy(start));
  ROOFLAB_CUDA_CHECK(cudaEventDestroy(stop));
  std::nth_element(times.begin(), times.begin() + static_cast<long>(times.size() / 2), times.end());
  return times[times.size() / 2];
}

}  // namespace rooflab::bench
