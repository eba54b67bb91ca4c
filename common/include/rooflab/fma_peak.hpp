// This machine's fp32 arithmetic peak, measured: every thread multiply-adds
// independent chains of the widest vectors the build targets (AVX-512's 16
// lanes, AVX's 8, SSE's 4), enough chains that no FMA waits for the one
// before it, so the cores' FMA units, not their latency, set the pace. The
// roof that compute-bound work is measured against (`lab bench peak`; decode
// at batch 8 and 32 in `lab generate --compare`), as the bandwidth is memory-bound
// work's (rooflab/bandwidth.hpp).
#pragma once

namespace rooflab {

struct FmaPeak {
  double flops_per_s = 0;  // all threads, 2 FLOPs per lane per FMA
  int threads = 0;         // OpenMP's default threads, as measured
  int lanes = 0;           // fp32 lanes per vector in this build
  int chains = 0;          // independent accumulators per thread
};

// Best of `repeats` runs of `iterations` FMAs per chain on every thread.
FmaPeak measure_fma_peak(int repeats = 5, long iterations = 4'000'000);

}  // namespace rooflab
