// The scaling run the grader plots in every report: decode attention over a
// growing cache, contiguous and paged, as CSV on stdout with the bytes each
// step reads, so that the report can draw GB/s against the cache length. A
// row for this machine's copy bandwidth, measured here, is the bound. Then
// the CUDA decode's kernels at one cache length, as the CPU runtime counted
// them (rooflab/kernel_profile.hpp; `lab profile a06` shows them as a table
// on a GPU's roofline). The grader runs it built with the submission and
// built with the reference.
//
// Provided code: students may run it too (target a06_kv_cache_decode_profile).
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>
#include <numeric>
#include <random>
#include <thread>
#include <vector>

#include "a06_kv_cache_decode/a06_kv_cache_decode.hpp"
#include "kernel_counts.hpp"
#include "rooflab/bandwidth.hpp"
#include "rooflab/machine_load.hpp"
#include "rooflab/memory_tracker.hpp"
#include "rooflab/timing.hpp"

namespace {

constexpr std::int64_t kHeads = 12, kHeadDim = 64, kPageSize = 16;

struct Row {
  std::int64_t length = 0;
  double bytes = 0, contiguous_s = 0, paged_s = 0;
};

// `lab profile` (--table): the rows as a person reads them, GB/s and the share
// of the copy bandwidth measured in this run, as `lab bench decode` prints them.
void print_table(const std::vector<Row>& rows, double copy_bandwidth) {
  std::printf(
      "\ndecode attention, %lld heads x %lld, one sequence: the cache read at (GB/s), and the share of the "
      "copy bandwidth measured here (%.1f GB/s), the bound\n",
      static_cast<long long>(kHeads), static_cast<long long>(kHeadDim), copy_bandwidth / 1e9);
  std::printf("| cache tokens | contiguous GB/s | of the bound | %lld-token pages GB/s | of the bound |\n",
              static_cast<long long>(kPageSize));
  std::printf("|---:|---:|---:|---:|---:|\n");
  for (const Row& row : rows) {
    const double contiguous = row.bytes / row.contiguous_s, paged = row.bytes / row.paged_s;
    std::printf("| %lld | %.1f | %.0f %% | %.1f | %.0f %% |\n", static_cast<long long>(row.length), contiguous / 1e9,
                100 * contiguous / copy_bandwidth, paged / 1e9, 100 * paged / copy_bandwidth);
  }
}

}  // namespace

int main(int argc, char** argv) {
  using namespace a06_kv_cache_decode;
  // The registers the grader's report asks for need neither the scaling run nor the kernels'.
  const auto given = [&](const char* name) {
    return std::any_of(argv + 1, argv + argc, [&](const char* flag) { return std::strcmp(flag, name) == 0; });
  };
  if (given("--registers")) return rooflab::kernels::report_kernels(profile::count_kernels, argc, argv);
  const rooflab::LoadWatch watch;
  std::vector<Row> rows;
  std::printf("method,seq_len,seconds,peak_bytes,estimated_bytes,bytes_read\n");
  // Once, over arrays no cache holds: the row at each length is the time the
  // same bytes take at this copy bandwidth.
  const double copy_bandwidth = rooflab::measure_bandwidth(64, 3).copy_bytes_per_s;
  for (std::int64_t length = 1024; length <= 16384; length *= 2) {
    const double bytes = 2.0 * static_cast<double>(length * kHeads * kHeadDim) * sizeof(float);
    std::printf("copy_bandwidth,%lld,%.6g,0,0,%.0f\n", static_cast<long long>(length), bytes / copy_bandwidth, bytes);
    try {
      const Tensor4 keys = rooflab::random_normal(1, kHeads, length, kHeadDim, 1);
      const Tensor4 values = rooflab::random_normal(1, kHeads, length, kHeadDim, 2);
      const Tensor4 q = rooflab::random_normal(1, kHeads, 1, kHeadDim, 3);
      const ContiguousKvCache contiguous = append(make_contiguous_cache(1, kHeads, kHeadDim, length), 0, keys, values);
      std::vector<std::int64_t> pages(static_cast<std::size_t>(length / kPageSize));
      std::iota(pages.begin(), pages.end(), 0);
      std::shuffle(pages.begin(), pages.end(), std::mt19937_64(4));
      const PagedKvCache paged = append(make_paged_cache(1, kHeads, kHeadDim, kPageSize, pages), 0, keys, values);
      Row row{length, bytes, 0, 0};
      for (const bool use_pages : {false, true}) {
        const auto run = [&] {
          return use_pages ? decode_attention(q, paged, {}) : decode_attention(q, contiguous, {});
        };
        const auto peak = rooflab::memory::measure_peak(run).peak_extra_bytes;
        const double seconds = rooflab::best_seconds(3, run);
        (use_pages ? row.paged_s : row.contiguous_s) = seconds;
        std::printf("%s,%lld,%.6g,%zu,0,%.0f\n", use_pages ? "paged" : "contiguous", static_cast<long long>(length),
                    seconds, peak, bytes);
      }
      rows.push_back(row);
      std::fflush(stdout);
    } catch (const std::exception& error) {
      std::fprintf(stderr, "decode at L=%lld: %s\n", static_cast<long long>(length), error.what());
      break;
    }
  }
  if (given("--table") && !rows.empty()) print_table(rows, copy_bandwidth);
  std::fflush(stdout);
  // Decode attention runs on every core (OpenMP).
  watch.warn_if_busy(std::cerr, static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
  return rooflab::kernels::report_kernels(a06_kv_cache_decode::profile::count_kernels, argc, argv);
}
