#include "rooflab/bandwidth.hpp"

#include <omp.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <vector>

#include "rooflab/timing.hpp"

namespace rooflab {
namespace {

// Seconds of each of `passes` timed sums over values[0 … n), one after
// another: reads only, as a decode step's pass over its weights.
std::vector<double> read_pass_seconds(const float* values, std::size_t n, int passes) {
  const auto blocks = static_cast<std::ptrdiff_t>(n / 16);
  float total = 0.0f;
  std::vector<double> seconds;
  for (int pass = 0; pass < passes; ++pass)
    seconds.push_back(best_seconds(1, [&] {
      float sum = 0.0f;
#pragma omp parallel reduction(+ : sum)
      {
        // 16 running sums: one add's latency is not on every element's path.
        float lanes[16] = {};
#pragma omp for schedule(static)
        for (std::ptrdiff_t block = 0; block < blocks; ++block)
          for (int k = 0; k < 16; ++k) lanes[k] += values[block * 16 + k];
        for (const float lane : lanes) sum += lane;
      }
      total += sum;  // used, so the loop stays
    }));
  if (total < 0) std::printf("(never: %f)\n", static_cast<double>(total));
  return seconds;
}

// The best of `repeats` such sums.
double read_seconds(const float* values, std::size_t n, int repeats) {
  const std::vector<double> seconds = read_pass_seconds(values, n, std::max(1, repeats));
  return *std::min_element(seconds.begin(), seconds.end());
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
  const double read = read_seconds(b.get(), n, repeats);
  return {8.0 * static_cast<double>(n) / copy, 12.0 * static_cast<double>(n) / triad,
          4.0 * static_cast<double>(n) / read};
}

ReadBandwidthProbe::ReadBandwidthProbe(int mib)
    : n_(static_cast<std::size_t>(mib) * (1u << 20) / sizeof(float)), values_(new float[n_]) {
  const auto size = static_cast<std::ptrdiff_t>(n_);
  float* values = values_.get();
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t i = 0; i < size; ++i) values[i] = 1.0f;
}

double ReadBandwidthProbe::measure(int repeats) {
  return 4.0 * static_cast<double>(n_) / read_seconds(values_.get(), n_, repeats);
}

std::vector<double> ReadBandwidthProbe::each_pass(int passes) {
  std::vector<double> rates;
  for (const double seconds : read_pass_seconds(values_.get(), n_, passes))
    rates.push_back(4.0 * static_cast<double>(n_) / seconds);
  return rates;
}

}  // namespace rooflab
