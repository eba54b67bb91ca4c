// The scaling run the grader plots in every report: decode attention over a
// growing cache, contiguous and paged, as CSV on stdout with the bytes each
// step reads, so that the report can draw GB/s against the cache length. A
// row for this machine's copy bandwidth, measured here, is the bound. The
// grader runs it built with the submission and built with the reference.
//
// Provided code: students may run it too (target a06_kv_cache_decode_profile).
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <limits>
#include <memory>
#include <numeric>
#include <random>

#include "a06_kv_cache_decode/a06_kv_cache_decode.hpp"
#include "rooflab/memory_tracker.hpp"

namespace {

constexpr std::int64_t kHeads = 12, kHeadDim = 64, kPageSize = 16;

template <class Run>
double best_seconds(Run run) {
  double best = std::numeric_limits<double>::infinity();
  for (int round = 0; round < 3; ++round) {
    const auto start = std::chrono::steady_clock::now();
    run();
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  return best;
}

// Seconds to copy `bytes` at this machine's copy bandwidth (c[i] = a[i] over
// 64 MiB arrays, which no cache holds), so that bytes / seconds is the bound.
double copy_seconds(double bytes) {
  const std::size_t n = std::size_t{16} << 20;
  std::unique_ptr<float[]> a(new float[n]), c(new float[n]);
  const auto size = static_cast<std::ptrdiff_t>(n);
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t i = 0; i < size; ++i) a[i] = c[i] = 1.0f;
  const double seconds = best_seconds([&] {
#pragma omp parallel for schedule(static)
    for (std::ptrdiff_t i = 0; i < size; ++i) c[i] = a[i];
  });
  return bytes / (8.0 * static_cast<double>(n) / seconds);
}

}  // namespace

int main() {
  using namespace a06_kv_cache_decode;
  std::printf("method,seq_len,seconds,peak_bytes,estimated_bytes,bytes_read\n");
  for (std::int64_t length = 1024; length <= 16384; length *= 2) {
    const double bytes = 2.0 * static_cast<double>(length * kHeads * kHeadDim) * sizeof(float);
    std::printf("copy_bandwidth,%lld,%.6g,0,0,%.0f\n", static_cast<long long>(length), copy_seconds(bytes), bytes);
    try {
      const Tensor4 keys = rooflab::random_normal(1, kHeads, length, kHeadDim, 1);
      const Tensor4 values = rooflab::random_normal(1, kHeads, length, kHeadDim, 2);
      const Tensor4 q = rooflab::random_normal(1, kHeads, 1, kHeadDim, 3);
      const ContiguousKvCache contiguous = append(make_contiguous_cache(1, kHeads, kHeadDim, length), 0, keys, values);
      std::vector<std::int64_t> pages(static_cast<std::size_t>(length / kPageSize));
      std::iota(pages.begin(), pages.end(), 0);
      std::shuffle(pages.begin(), pages.end(), std::mt19937_64(4));
      const PagedKvCache paged = append(make_paged_cache(1, kHeads, kHeadDim, kPageSize, pages), 0, keys, values);
      for (const bool use_pages : {false, true}) {
        const auto run = [&] {
          return use_pages ? decode_attention(q, paged, {}) : decode_attention(q, contiguous, {});
        };
        const auto peak = rooflab::memory::measure_peak(run).peak_extra_bytes;
        std::printf("%s,%lld,%.6g,%zu,0,%.0f\n", use_pages ? "paged" : "contiguous", static_cast<long long>(length),
                    best_seconds(run), peak, bytes);
      }
      std::fflush(stdout);
    } catch (const std::exception& error) {
      std::fprintf(stderr, "decode at L=%lld: %s\n", static_cast<long long>(length), error.what());
      break;
    }
  }
  return 0;
}
