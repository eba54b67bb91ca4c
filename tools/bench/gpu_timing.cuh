// How the GPU benchmarks time a launch (gpu_attention_bench.cu,
// gpu_decode_bench.cu): CUDA events around it, the L2 cache flushed before
// each run by a write larger than any GPU's L2, warm-ups, the median. A slow
// kernel is timed fewer times (at least three): the ladder's first rungs take
// most of a second at N = 16384, where the fast ones take milliseconds, and a
// lent GPU gives minutes.
#pragma once

#include <algorithm>
#include <vector>

#include "rooflab/cuda_helpers.hpp"

namespace rooflab::bench {

// Median milliseconds of up to `runs` runs of `launch`, each after an L2
// flush: as many as fit in about kTimedMs, and never fewer than three.
inline constexpr float kTimedMs = 250;
template <class Launch>
double median_ms(int runs, Launch launch) {
  static rooflab::cuda::DeviceBuffer<char> flush(256u << 20);
  cudaEvent_t start, stop;
  ROOFLAB_CUDA_CHECK(cudaEventCreate(&start));
  ROOFLAB_CUDA_CHECK(cudaEventCreate(&stop));
  const auto timed = [&](int run) {
    ROOFLAB_CUDA_CHECK(cudaMemset(flush.get(), run, flush.bytes()));
    ROOFLAB_CUDA_CHECK(cudaEventRecord(start));
    launch();
    ROOFLAB_CUDA_CHECK(cudaEventRecord(stop));
    ROOFLAB_CUDA_CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    ROOFLAB_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    return ms;
  };
  // The first run warms up (and says how long one takes); two more under 10 ms.
  const float first = timed(0);
  if (first < 10)
    for (int warm = 0; warm < 2; ++warm) timed(warm);
  runs = std::max(3, std::min(runs, static_cast<int>(kTimedMs / std::max(first, 1e-3f))));
  std::vector<float> times;
  for (int run = 0; run < runs; ++run) times.push_back(timed(run));
  ROOFLAB_CUDA_CHECK(cudaGetLastError());
  ROOFLAB_CUDA_CHECK(cudaEventDestroy(start));
  ROOFLAB_CUDA_CHECK(cudaEventDestroy(stop));
  std::nth_element(times.begin(), times.begin() + static_cast<long>(times.size() / 2), times.end());
  return times[times.size() / 2];
}

}  // namespace rooflab::bench
