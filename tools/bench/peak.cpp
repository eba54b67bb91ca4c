#include "peak.hpp"

#include <cstdio>

#include "rooflab/bandwidth.hpp"
#include "rooflab/fma_peak.hpp"

namespace rooflab::bench {

int run_peak_bench() {
  const FmaPeak peak = measure_fma_peak();
  const Bandwidth bandwidth = measure_bandwidth();
  std::printf(
      "fp32 FMA peak: %d independent chains of %d-lane FMAs on each of %d threads, best of 5; bandwidth: "
      "STREAM-style over 256 MiB arrays, best of 5\n\n",
      peak.chains, peak.lanes, peak.threads);
  std::printf("| measure | value |\n|---|---:|\n");
  std::printf("| fp32 FMA peak, all threads | %.1f GFLOP/s |\n", peak.flops_per_s / 1e9);
  std::printf("| fp32 FMA peak, per thread | %.1f GFLOP/s |\n", peak.flops_per_s / peak.threads / 1e9);
  std::printf("| read bandwidth (a sum) | %.1f GB/s |\n", bandwidth.read_bytes_per_s / 1e9);
  std::printf("| ridge point: peak / read bandwidth | %.1f FLOP/byte |\n",
              peak.flops_per_s / bandwidth.read_bytes_per_s);
  return 0;
}

}  // namespace rooflab::bench
