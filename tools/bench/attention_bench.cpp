// `rooflab bench attention`: standard, linear and flash attention (the
// reference solutions of a03 and a04) against OpenBLAS sgemm and PyTorch's CPU
// attention, measured side by side in one run. Prints a Markdown table for
// docs/benchmarks.md.
#include "attention_bench.hpp"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <limits>
#include <optional>
#include <string>

#include "a03_attention_memory/a03_attention_memory.hpp"
#include "a04_flash_attention/a04_flash_attention.hpp"
#include "rooflab/memory_tracker.hpp"
#include "sgemm.hpp"

namespace {

using rooflab::Tensor4;

struct Measured {
  double seconds = 0;
  double peak_bytes = 0;
};

// Best of `repeats` timed runs after one warm-up; the peak heap is the warm-up's.
Measured measure(const std::function<Tensor4()>& run, int repeats) {
  Measured result;
  result.peak_bytes = static_cast<double>(rooflab::memory::measure_peak(run).peak_extra_bytes);
  result.seconds = std::numeric_limits<double>::infinity();
  for (int round = 0; round < repeats; ++round) {
    const auto start = std::chrono::steady_clock::now();
    const Tensor4 out = run();
    result.seconds =
        std::min(result.seconds, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  return result;
}

// A python3 that imports torch, or nothing.
std::optional<std::string> torch_python() {
  for (const char* python : {"/usr/bin/python3", "python3"}) {
    const std::string probe = std::string(python) + " -c 'import torch' >/dev/null 2>&1";
    if (std::system(probe.c_str()) == 0) return std::string(python);
  }
  return std::nullopt;
}

std::optional<double> torch_seconds(const std::string& python, long long n, long long d, int threads, int repeats) {
  const std::string command = python + " " + ROOFLAB_BENCH_DIR + "/torch_attention.py " + std::to_string(n) + " " +
                              std::to_string(d) + " " + std::to_string(threads) + " " + std::to_string(repeats);
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return std::nullopt;
  double seconds = 0;
  const bool read = std::fscanf(pipe, "%lf", &seconds) == 1;
  return pclose(pipe) == 0 && read ? std::optional<double>(seconds) : std::nullopt;
}

// One table row: N, method, ms, GFLOP/s, peak extra MiB (— where not measured).
void print_row(long long n, const char* method, std::optional<double> seconds, double flops,
               std::optional<double> peak_bytes) {
  if (!seconds) {
    std::printf("| %lld | %s | — | — | — |\n", n, method);
    return;
  }
  std::printf("| %lld | %s | %.2f | %.1f | ", n, method, *seconds * 1e3, flops / *seconds / 1e9);
  if (peak_bytes)
    std::printf("%.2f |\n", *peak_bytes / (1 << 20));
  else
    std::printf("— |\n");
}

}  // namespace

namespace rooflab::bench {

int run_attention_bench(const AttentionBenchOptions& options) {
  const long long d = options.head_dim;
  const int threads = options.threads, repeats = options.repeats;
  omp_set_num_threads(threads);

  const std::optional<std::string> python = torch_python();
  std::printf(
      "B = H = 1, d = %lld, fp32, %d threads, best of %d. Attention FLOPs 4·N²·d (two matmuls; softmax not "
      "counted), linear 4·N·d². Peak extra MiB from the memory tracker (sgemm: its S and output buffers).\n",
      d, threads, repeats);
  if (const std::string why = rooflab::bench::sgemm_unavailable_reason(); !why.empty())
    std::printf("sgemm: %s.\n", why.c_str());
  if (!python) std::printf("PyTorch: no python3 with torch found (Debian: python3-torch).\n");
  std::printf("\n| N | method | ms | GFLOP/s | peak extra MiB |\n|---:|---|---:|---:|---:|\n");
  std::string ratios =
      "\n| N | flash / sgemm GFLOP/s (target ≥ 0.5) | PyTorch time / flash time (target > 1) |\n"
      "|---:|---:|---:|\n";
  for (long long n = options.min_n; n <= options.max_n; n *= 2) {
    std::fprintf(stderr, "bench attention: N = %lld ...\n", n);
    const Tensor4 q = rooflab::random_normal(1, 1, n, d, 1), k = rooflab::random_normal(1, 1, n, d, 2),
                  v = rooflab::random_normal(1, 1, n, d, 3);
    const double attention_flops = 4.0 * n * n * d, linear_flops = 4.0 * n * d * d;
    const Measured standard =
        measure([&] { return a03_attention_memory::standard_attention(q, k, v, false).output; }, repeats);
    const Measured linear = measure([&] { return a03_attention_memory::linear_attention(q, k, v); }, repeats);
    const Measured flash = measure([&] { return a04_flash_attention::flash_attention(q, k, v, {}).output; }, repeats);
    const std::optional<double> sgemm = rooflab::bench::attention_matmuls_seconds(n, d, threads, repeats);
    const std::optional<double> torch = python ? torch_seconds(*python, n, d, threads, repeats) : std::nullopt;

    print_row(n, "standard (a03)", standard.seconds, attention_flops, standard.peak_bytes);
    print_row(n, "linear (a03)", linear.seconds, linear_flops, linear.peak_bytes);
    print_row(n, "flash (a04)", flash.seconds, attention_flops, flash.peak_bytes);
    print_row(n, "OpenBLAS sgemm, S = QKᵀ then SV", sgemm, attention_flops, 4.0 * n * (n + d));
    print_row(n, "PyTorch matmul-softmax-matmul", torch, attention_flops, std::nullopt);
    std::fflush(stdout);
    char line[160];
    std::snprintf(line, sizeof line, "| %lld | %s | %s |\n", n,
                  sgemm ? std::to_string(*sgemm / flash.seconds).substr(0, 4).c_str() : "—",
                  torch ? std::to_string(*torch / flash.seconds).substr(0, 4).c_str() : "—");
    ratios += line;
  }
  std::printf("%s", ratios.c_str());
  return 0;
}

}  // namespace rooflab::bench
