// The scaling run the grader plots in every report: each method at growing N,
// its wall time and the peak heap bytes it allocated, as CSV on stdout. The
// grader runs it built with the submission and built with the reference; the
// reference run's estimated_bytes column is the theory curve.
//
// Provided code: students may run it too (target a03_attention_memory_profile).
#include <omp.h>

#include <chrono>
#include <cstdio>
#include <exception>
#include <iostream>

#include "a03_attention_memory/a03_attention_memory.hpp"
#include "rooflab/machine_load.hpp"
#include "rooflab/memory_tracker.hpp"

int main() {
  const rooflab::LoadWatch watch;  // its times are meaningless if others took the cores
  using namespace a03_attention_memory;
  std::printf("method,seq_len,seconds,peak_bytes,estimated_bytes\n");
  for (const Method method : {Method::standard, Method::linear, Method::linear_causal_recurrent}) {
    for (std::int64_t n = 128; n <= 2048; n *= 2) {
      try {
        const Tensor4 q = rooflab::random_normal(1, 1, n, 64, 1), k = rooflab::random_normal(1, 1, n, 64, 2),
                      v = rooflab::random_normal(1, 1, n, 64, 3);
        const auto start = std::chrono::steady_clock::now();
        const auto measured = rooflab::memory::measure_peak([&] { return run_method(method, q, k, v); });
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        double estimated = 0;  // the grader draws the reference's estimate; a missing one here is no loss
        try {
          estimated = estimate_memory(method, {1, 1, n, 64}, Dtype::fp32).peak_extra;
        } catch (const std::exception&) {
        }
        std::printf("%s,%lld,%.6g,%zu,%.0f\n", to_string(method), static_cast<long long>(n), seconds,
                    measured.peak_extra_bytes, estimated);
        std::fflush(stdout);
      } catch (const std::exception& error) {
        std::fprintf(stderr, "%s at N=%lld: %s\n", to_string(method), static_cast<long long>(n), error.what());
        break;  // larger N would fail the same way
      }
    }
  }
  watch.warn_if_busy(std::cerr, omp_get_max_threads());
  return 0;
}
