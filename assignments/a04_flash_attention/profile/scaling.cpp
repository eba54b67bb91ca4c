// The scaling run the grader plots in every report: flash attention at growing
// N, its wall time and the peak heap bytes it allocated, as CSV on stdout. The
// grader runs it built with the submission and built with the reference; the
// reference run's estimated_bytes column is the theory curve.
//
// Provided code: students may run it too (target a04_flash_attention_profile).
#include <omp.h>

#include <chrono>
#include <cstdio>
#include <exception>
#include <iostream>

#include "a04_flash_attention/a04_flash_attention.hpp"
#include "rooflab/machine_load.hpp"
#include "rooflab/memory_tracker.hpp"

int main() {
  const rooflab::LoadWatch watch;  // its times are meaningless if others took the cores
  using namespace a04_flash_attention;
  std::printf("method,seq_len,seconds,peak_bytes,estimated_bytes\n");
  for (std::int64_t n = 128; n <= 2048; n *= 2) {
    try {
      const Tensor4 q = rooflab::random_normal(1, 1, n, 64, 1), k = rooflab::random_normal(1, 1, n, 64, 2),
                    v = rooflab::random_normal(1, 1, n, 64, 3);
      const auto start = std::chrono::steady_clock::now();
      const auto measured = rooflab::memory::measure_peak([&] { return flash_attention(q, k, v, {}); });
      const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      double estimated = 0;  // the grader draws the reference's estimate; a missing one here is no loss
      try {
        estimated = flash_extra_bytes({1, 1, n, 64}, FlashOptions{}.block_rows, FlashOptions{}.block_cols,
                                      omp_get_max_threads());
      } catch (const std::exception&) {
      }
      std::printf("flash,%lld,%.6g,%zu,%.0f\n", static_cast<long long>(n), seconds, measured.peak_extra_bytes,
                  estimated);
      std::fflush(stdout);
    } catch (const std::exception& error) {
      std::fprintf(stderr, "flash at N=%lld: %s\n", static_cast<long long>(n), error.what());
      break;
    }
  }
  watch.warn_if_busy(std::cerr, omp_get_max_threads());
  return 0;
}
