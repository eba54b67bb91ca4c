#include "bandwidth.hpp"

#include <omp.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "rooflab/bandwidth.hpp"

namespace rooflab::bench {

int run_bandwidth_bench() {
  const rooflab::Bandwidth measured = rooflab::measure_bandwidth();
  std::printf(
      "STREAM-style, 3 arrays of 256 MiB, %d threads, best of 5 (bytes counted as STREAM does: a write is "
      "one transfer)\n\n| kernel | GB/s |\n|---|---:|\n| copy | %.1f |\n| triad | %.1f |\n| read (a sum) | %.1f |\n",
      omp_get_max_threads(), measured.copy_bytes_per_s / 1e9, measured.triad_bytes_per_s / 1e9,
      measured.read_bytes_per_s / 1e9);
  // The same sum pass after pass: how far a best-of figure (every roof
  // above, and `generate`'s) stands from the typical pass.
  constexpr int kPasses = 30;
  std::vector<double> passes = rooflab::ReadBandwidthProbe().each_pass(kPasses);
  std::sort(passes.begin(), passes.end());
  std::printf(
      "\nread (a sum over 256 MiB), %d passes one after another: slowest %.1f, median %.1f, fastest %.1f GB/s "
      "(the fastest is %.0f %% above the median)\n",
      kPasses, passes.front() / 1e9, passes[kPasses / 2] / 1e9, passes.back() / 1e9,
      100.0 * (passes.back() / passes[kPasses / 2] - 1.0));
  return 0;
}

}  // namespace rooflab::bench
