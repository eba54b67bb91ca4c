// `rooflab bench attention`: standard, linear and flash attention (a03's and
// a04's: the reference solutions in the reference build, the student's own in
// a student build) against OpenBLAS sgemm and PyTorch's CPU attention, measured
// side by side in one run. Prints a Markdown table for docs/benchmarks.md.
#include "attention_bench.hpp"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "a03_attention_memory/a03_attention_memory.hpp"
#include "a04_flash_attention/a04_flash_attention.hpp"
#include "rooflab/memory_tracker.hpp"
#include "sgemm.hpp"
#include "torch_python.hpp"

namespace {

using rooflab::Tensor4;

struct Measured {
  double seconds = 0;
  double peak_bytes = 0;
};

// Best of `repeats` timed runs after one warm-up; the peak heap is the
// warm-up's. Nothing when the code throws (a student's stub is "not
// implemented"): `why` says what it threw, and the table goes on.
std::optional<Measured> measure(const std::function<Tensor4()>& run, int repeats, std::string& why) {
  Measured result;
  try {
    result.peak_bytes = static_cast<double>(rooflab::memory::measure_peak(run).peak_extra_bytes);
    result.seconds = std::numeric_limits<double>::infinity();
    for (int round = 0; round < repeats; ++round) {
      const auto start = std::chrono::steady_clock::now();
      const Tensor4 out = run();
      result.seconds =
          std::min(result.seconds, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
  } catch (const std::exception& error) {
    why = error.what();
    return std::nullopt;
  }
  return result;
}

// PyTorch's times for every point of the run, from one python process (torch
// takes seconds to import): spec "N:D:CAUSAL:FORM" -> best seconds
// (torch_attention.py). Empty when there is no torch or the script failed.
std::map<std::string, double> torch_seconds(const std::string& python, const std::vector<std::string>& specs,
                                            int threads, int repeats) {
  std::string command = rooflab::bench::shell_quoted(python) + " " + rooflab::bench::peer_script("torch_attention.py") +
                        " " + std::to_string(threads) + " " + std::to_string(repeats);
  for (const std::string& spec : specs) command += " " + spec;
  std::map<std::string, double> seconds;
  const int status = rooflab::bench::run_peer(command, [&](const std::string& line) {
    char spec[64];
    double value = 0;
    if (std::sscanf(line.c_str(), "%63s %lf", spec, &value) != 2) return;
    seconds[spec] = value;
    std::fprintf(stderr, "bench attention: PyTorch %s ...\n", spec);
  });
  if (status != 0) seconds.clear();
  return seconds;
}

std::string torch_spec(long long n, long long d, bool causal, const char* form) {
  return std::to_string(n) + ":" + std::to_string(d) + ":" + (causal ? "1" : "0") + ":" + form;
}

std::optional<double> lookup(const std::map<std::string, double>& seconds, const std::string& spec) {
  const auto found = seconds.find(spec);
  return found == seconds.end() ? std::nullopt : std::optional<double>(found->second);
}

// One table row: N, method, ms, GFLOP/s, peak extra MiB (— where not
// measured, with the reason in place of the time when there is one).
void print_row(long long n, const char* method, std::optional<double> seconds, double flops,
               std::optional<double> peak_bytes, const std::string& why = "") {
  if (!seconds) {
    std::printf("| %lld | %s | %s | — | — |\n", n, method, why.empty() ? "—" : why.substr(0, 80).c_str());
    return;
  }
  std::printf("| %lld | %s | %.2f | %.1f | ", n, method, *seconds * 1e3, flops / *seconds / 1e9);
  if (peak_bytes)
    std::printf("%.2f |\n", *peak_bytes / (1 << 20));
  else
    std::printf("— |\n");
}

void print_measured(long long n, const char* method, const std::optional<Measured>& measured, double flops,
                    const std::string& why) {
  if (measured)
    print_row(n, method, measured->seconds, flops, measured->peak_bytes);
  else
    print_row(n, method, std::nullopt, flops, std::nullopt, why);
}

// numerator / denominator with 2 decimals, or — when either was not measured (denominator 0).
std::string ratio(std::optional<double> numerator, double denominator) {
  return numerator && denominator > 0 ? std::to_string(*numerator / denominator).substr(0, 4) : "—";
}

// Flash attention (a04) beside PyTorch's fused CPU kernel at every head
// dimension of --sdpa-head-dims, causal and not. Causal attention computes
// about half the scores: its FLOPs are counted as 2·N²·d for both.
void print_sdpa_table(const rooflab::bench::AttentionBenchOptions& options, const std::vector<long long>& lengths,
                      const std::map<std::string, double>& torch) {
  std::printf(
      "\nFlash attention beside PyTorch's scaled_dot_product_attention (B = H = 1, fp32, %d threads; causal FLOPs "
      "2·N²·d):\n\n| d | causal | N | flash ms | flash GFLOP/s | SDPA ms | SDPA GFLOP/s | SDPA time / flash time "
      "(target ≥ 1) |\n|---:|---|---:|---:|---:|---:|---:|---:|\n",
      options.threads);
  for (const long long d : options.sdpa_head_dims)
    for (const bool causal : {false, true})
      for (const long long n : lengths) {
        std::fprintf(stderr, "bench attention: flash, d = %lld, causal %s, N = %lld ...\n", d, causal ? "yes" : "no",
                     n);
        const Tensor4 q = rooflab::random_normal(1, 1, n, d, 1), k = rooflab::random_normal(1, 1, n, d, 2),
                      v = rooflab::random_normal(1, 1, n, d, 3);
        a04_flash_attention::FlashOptions flash_options;
        flash_options.causal = causal;
        std::string why;
        const std::optional<Measured> flash = measure(
            [&] { return a04_flash_attention::flash_attention(q, k, v, flash_options).output; }, options.repeats, why);
        const std::optional<double> sdpa = lookup(torch, torch_spec(n, d, causal, "sdpa"));
        const double flops = (causal ? 2.0 : 4.0) * static_cast<double>(n) * static_cast<double>(n) * d;
        std::printf("| %lld | %s | %lld | ", d, causal ? "yes" : "no", n);
        if (flash)
          std::printf("%.2f | %.1f | ", flash->seconds * 1e3, flops / flash->seconds / 1e9);
        else
          std::printf("%s | — | ", why.empty() ? "—" : why.substr(0, 80).c_str());
        if (sdpa)
          std::printf("%.2f | %.1f | ", *sdpa * 1e3, flops / *sdpa / 1e9);
        else
          std::printf("— | — | ");
        std::printf("%s |\n", ratio(sdpa, flash ? flash->seconds : 0.0).c_str());
        std::fflush(stdout);
      }
}

}  // namespace

namespace rooflab::bench {

int run_attention_bench(const AttentionBenchOptions& options) {
  const long long d = options.head_dim;
  const int threads = options.threads, repeats = options.repeats;
  omp_set_num_threads(threads);
  std::vector<long long> lengths;
  for (long long n = options.min_n; n <= options.max_n; n *= 2) lengths.push_back(n);

  // PyTorch first, all of it in one process: its points, then ours, on a machine doing nothing else.
  const std::optional<std::string> python = rooflab::bench::torch_python();
  std::map<std::string, double> torch;
  if (python) {
    std::vector<std::string> specs;
    for (const long long n : lengths) {
      specs.push_back(torch_spec(n, d, false, "unfused"));
      specs.push_back(torch_spec(n, d, false, "sdpa"));
    }
    for (const long long head_dim : options.sdpa_head_dims)
      for (const bool causal : {false, true})
        for (const long long n : lengths)
          if (const std::string spec = torch_spec(n, head_dim, causal, "sdpa"); head_dim != d || causal)
            specs.push_back(spec);
    torch = torch_seconds(*python, specs, threads, repeats);
  }

  std::printf(
      "B = H = 1, d = %lld, fp32, %d threads, best of %d. Attention FLOPs 4·N²·d (two matmuls; softmax not "
      "counted), linear 4·N·d². Peak extra MiB from the memory tracker (sgemm: its S and output buffers).\n",
      d, threads, repeats);
  if (const std::string why = rooflab::bench::sgemm_unavailable_reason(); !why.empty())
    std::printf("sgemm: %s.\n", why.c_str());
  if (!python) std::printf("PyTorch: %s.\n", rooflab::bench::how_to_get_torch().c_str());
  if (python && torch.empty()) std::printf("PyTorch: %s tools/bench/torch_attention.py failed.\n", python->c_str());
  std::printf("\n| N | method | ms | GFLOP/s | peak extra MiB |\n|---:|---|---:|---:|---:|\n");
  std::string ratios =
      "\n| N | flash / sgemm GFLOP/s (target ≥ 0.5) | PyTorch unfused time / flash time | PyTorch SDPA time / flash "
      "time (target ≥ 1) |\n|---:|---:|---:|---:|\n";
  for (const long long n : lengths) {
    std::fprintf(stderr, "bench attention: N = %lld ...\n", n);
    const Tensor4 q = rooflab::random_normal(1, 1, n, d, 1), k = rooflab::random_normal(1, 1, n, d, 2),
                  v = rooflab::random_normal(1, 1, n, d, 3);
    const double attention_flops = 4.0 * n * n * d, linear_flops = 4.0 * n * d * d;
    std::string standard_why, linear_why, flash_why;
    const std::optional<Measured> standard =
        measure([&] { return a03_attention_memory::standard_attention(q, k, v, false).output; }, repeats, standard_why);
    const std::optional<Measured> linear =
        measure([&] { return a03_attention_memory::linear_attention(q, k, v); }, repeats, linear_why);
    const std::optional<Measured> flash =
        measure([&] { return a04_flash_attention::flash_attention(q, k, v, {}).output; }, repeats, flash_why);
    const std::optional<double> sgemm = rooflab::bench::attention_matmuls_seconds(n, d, threads, repeats);
    const std::optional<double> unfused = lookup(torch, torch_spec(n, d, false, "unfused"));
    const std::optional<double> sdpa = lookup(torch, torch_spec(n, d, false, "sdpa"));

    print_measured(n, "standard (a03)", standard, attention_flops, standard_why);
    print_measured(n, "linear (a03)", linear, linear_flops, linear_why);
    print_measured(n, "flash (a04)", flash, attention_flops, flash_why);
    print_row(n, "OpenBLAS sgemm, S = QKᵀ then SV", sgemm, attention_flops, 4.0 * n * (n + d));
    print_row(n, "PyTorch matmul-softmax-matmul", unfused, attention_flops, std::nullopt);
    print_row(n, "PyTorch scaled_dot_product_attention", sdpa, attention_flops, std::nullopt);
    std::fflush(stdout);
    const double flash_seconds = flash ? flash->seconds : 0.0;
    ratios += "| " + std::to_string(n) + " | " + ratio(sgemm, flash_seconds) + " | " + ratio(unfused, flash_seconds) +
              " | " + ratio(sdpa, flash_seconds) + " |\n";
  }
  std::printf("%s", ratios.c_str());
  print_sdpa_table(options, lengths, torch);
  return 0;
}

}  // namespace rooflab::bench
