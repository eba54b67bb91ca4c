#include <cblas.h>

#include <algorithm>
#include <chrono>
#include <limits>
#include <vector>

#include "sgemm.hpp"

extern "C" void openblas_set_num_threads(int);

namespace rooflab::bench {

std::string sgemm_unavailable_reason() { return {}; }

std::optional<double> attention_matmuls_seconds(long long n, long long d, int threads, int repeats) {
  openblas_set_num_threads(threads);
  std::vector<float> q(static_cast<std::size_t>(n * d), 0.5f), k(q), v(q), out(q);
  std::vector<float> scores(static_cast<std::size_t>(n * n));
  double best = std::numeric_limits<double>::infinity();
  for (int round = 0; round <= repeats; ++round) {  // round 0 warms up
    const auto start = std::chrono::steady_clock::now();
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, static_cast<int>(n), static_cast<int>(n), static_cast<int>(d),
                1.0f, q.data(), static_cast<int>(d), k.data(), static_cast<int>(d), 0.0f, scores.data(),
                static_cast<int>(n));
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(n), static_cast<int>(d),
                static_cast<int>(n), 1.0f, scores.data(), static_cast<int>(n), v.data(), static_cast<int>(d), 0.0f,
                out.data(), static_cast<int>(d));
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (round > 0) best = std::min(best, seconds);
  }
  return best;
}

}  // namespace rooflab::bench
