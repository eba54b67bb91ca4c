#include "rooflab/bandwidth.hpp"

#include <omp.h>

#include <cstdio>
#include <memory>

#include "rooflab/timing.hpp"

namespace rooflab {

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

}  // namespace rooflab
