#include "bandwidth.hpp"

#include <omp.h>

#include <cstdio>

#include "rooflab/bandwidth.hpp"

namespace rooflab::bench {

int run_bandwidth_bench() {
  const rooflab::Bandwidth measured = rooflab::measure_bandwidth();
  std::printf(
      "STREAM-style, 3 arrays of 256 MiB, %d threads, best of 5 (bytes counted as STREAM does: a write is "
      "one transfer)\n\n| kernel | GB/s |\n|---|---:|\n| copy | %.1f |\n| triad | %.1f |\n| read (a sum) | %.1f |\n",
      omp_get_max_threads(), measured.copy_bytes_per_s / 1e9, measured.triad_bytes_per_s / 1e9,
      measured.read_bytes_per_s / 1e9);
  return 0;
}

}  // namespace rooflab::bench
