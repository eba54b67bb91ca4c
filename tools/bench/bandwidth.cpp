#include "bandwidth.hpp"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <limits>
#include <memory>

namespace rooflab::bench {
namespace {

template <class Kernel>
double best_seconds(int repeats, Kernel kernel) {
  double best = std::numeric_limits<double>::infinity();
  for (int run = 0; run < repeats; ++run) {
    const auto start = std::chrono::steady_clock::now();
    kernel();
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  return best;
}

}  // namespace

Bandwidth measure_bandwidth(int mib, int repeats) {
  const std::size_t n = static_cast<std::size_t>(mib) * (1u << 20) / sizeof(float);
  // Not value-initialised: each thread first touches the part it will stream
  // (on a NUMA machine, its own node's memory).
  std::unique_ptr<float[]> a(new float[n]), b(new float[n]), c(new float[n]);
  const auto size = static_cast<std::ptrdiff_t>(n);
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t i = 0; i < size; ++i) {
    a[i] = 1.0f;
    b[i] = 2.0f;
    c[i] = 0.0f;
  }
  const double copy = best_seconds(repeats, [&] {
#pragma omp parallel for schedule(static)
    for (std::ptrdiff_t i = 0; i < size; ++i) c[i] = a[i];
  });
  const double triad = best_seconds(repeats, [&] {
#pragma omp parallel for schedule(static)
    for (std::ptrdiff_t i = 0; i < size; ++i) a[i] = b[i] + 3.0f * c[i];
  });
  float total = 0.0f;
  const double read = best_seconds(repeats, [&] {
    float sum = 0.0f;
#pragma omp parallel reduction(+ : sum)
    {
      // 16 running sums: one add's latency is not on every element's path.
      float lanes[16] = {};
#pragma omp for schedule(static)
      for (std::ptrdiff_t block = 0; block < size / 16; ++block)
        for (int k = 0; k < 16; ++k) lanes[k] += b[block * 16 + k];
      for (const float lane : lanes) sum += lane;
    }
    total += sum;  // used, so the loop stays
  });
  if (total < 0) std::printf("(never: %f)\n", static_cast<double>(total));
  return {8.0 * static_cast<double>(n) / copy, 12.0 * static_cast<double>(n) / triad,
          4.0 * static_cast<double>(n) / read};
}

int run_bandwidth_bench() {
  const Bandwidth measured = measure_bandwidth();
  std::printf(
      "STREAM-style, 3 arrays of 256 MiB, %d threads, best of 5 (bytes counted as STREAM does: a write is "
      "one transfer)\n\n| kernel | GB/s |\n|---|---:|\n| copy | %.1f |\n| triad | %.1f |\n| read (a sum) | %.1f |\n",
      omp_get_max_threads(), measured.copy_bytes_per_s / 1e9, measured.triad_bytes_per_s / 1e9,
      measured.read_bytes_per_s / 1e9);
  return 0;
}

}  // namespace rooflab::bench
