#include "rooflab/fma_peak.hpp"

#include <omp.h>

#include <cstdio>

#include "rooflab/timing.hpp"

namespace rooflab {
namespace {

// The build's widest fp32 vector (cmake/cpu.cmake compiles for this machine):
// GCC's vector extensions turn a·b + c on them into one FMA instruction.
#if defined(__AVX512F__)
constexpr int kLanes = 16;
#elif defined(__AVX__)
constexpr int kLanes = 8;
#else
constexpr int kLanes = 4;
#endif
typedef float Vec __attribute__((vector_size(kLanes * 4)));

// Two FMA units of latency 4 keep 8 FMAs in flight: 24 chains cover that on
// every current x86 core and fit AVX-512's 32 registers (AVX's 16 spill a
// few, which the loads hide).
constexpr int kChains = 24;

// `iterations` rounds of kChains FMAs; returns their sum so that none is dead.
__attribute__((noinline)) float fma_chains(long iterations, float seed) {
  Vec acc[kChains];
  for (int c = 0; c < kChains; ++c) acc[c] = Vec{} + seed * static_cast<float>(c + 1);
  const Vec a = Vec{} + 0.999999f, b = Vec{} + 1e-7f;
  for (long i = 0; i < iterations; ++i)
#pragma GCC unroll 24  // every chain in a register of its own, not in memory
    for (int c = 0; c < kChains; ++c) acc[c] = acc[c] * a + b;
  float total = 0;
  for (int c = 0; c < kChains; ++c)
    for (int l = 0; l < kLanes; ++l) total += acc[c][l];
  return total;
}

}  // namespace

FmaPeak measure_fma_peak(int repeats, long iterations) {
  FmaPeak peak;
  peak.threads = omp_get_max_threads();
  peak.lanes = kLanes;
  peak.chains = kChains;
  float sink = 0;
  const double seconds = best_seconds(repeats, [&] {
    float sum = 0;
#pragma omp parallel reduction(+ : sum)
    sum += fma_chains(iterations, 1.0f + static_cast<float>(omp_get_thread_num()));
    sink += sum;
  });
  if (sink == 12345.0f) std::printf("(never)\n");  // used, so the work stays
  peak.flops_per_s = 2.0 * kLanes * kChains * static_cast<double>(iterations) * peak.threads / seconds;
  return peak;
}

}  // namespace rooflab
