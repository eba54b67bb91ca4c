// `rooflab bench attention --gpu`: a05's reference kernels
// (rooflab_gpu_attention_bench) beside PyTorch's flash and cuDNN attention
// (torch_gpu_attention.py), measured in the same run, in TFLOP/s. Prints
// Markdown for docs/benchmarks.md, progress on stderr.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "attention_bench.hpp"
#include "rooflab/backend.hpp"
#include "rooflab/build_paths.hpp"
#include "torch_python.hpp"

namespace rooflab::bench {
namespace {

using Key = std::tuple<long long, int, int>;                // N, d, causal
using Rows = std::map<Key, std::map<std::string, double>>;  // -> kernel -> TFLOP/s

// Adds a "kernel,n,d,causal,ms,tflops" line (a header or any other line is
// skipped).
void add_line(const std::string& line, Rows& rows) {
  std::stringstream fields(line);
  std::string kernel, n, d, causal, ms, tflops;
  if (!(std::getline(fields, kernel, ',') && std::getline(fields, n, ',') && std::getline(fields, d, ',') &&
        std::getline(fields, causal, ',') && std::getline(fields, ms, ',') && std::getline(fields, tflops)))
    return;
  try {
    rows[{std::stoll(n), std::stoi(d), std::stoi(causal)}][kernel] = std::stod(tflops);
  } catch (const std::exception&) {  // the header
  }
}

// Runs `command` and adds the lines it prints.
bool collect(const std::string& command, Rows& rows) {
  return run_peer(command, [&](const std::string& line) { add_line(line, rows); }) == 0;
}

std::string cell(const std::map<std::string, double>& row, const std::string& kernel) {
  const auto found = row.find(kernel);
  if (found == row.end()) return "—";
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", found->second);
  return text;
}

// A ratio's cell, "—" where either kernel did not run at that point.
std::string ratio_cell(const std::map<std::string, double>& row, const std::string& over, const std::string& under) {
  if (!row.count(over) || !row.count(under)) return "—";
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", row.at(over) / row.at(under));
  return text;
}

// The Markdown table of `rows`, with the ladder's two targets: the fp32 flash
// kernel against the standard kernels (≥ 2×) and the fastest tensor-core
// rung (mma_sync where the run timed it, else the reference's WMMA kernel)
// against PyTorch's flash backend, in fp16 and in bf16 (≥ 0.8× as a
// geometric mean over every point of both).
void print_table(const Rows& rows, const GpuAttentionBenchOptions& options) {
  std::printf(
      "B = %d, H = %d, TFLOP/s = 4·B·H·N²·d / time (halved for causal); CUDA events, L2 flushed before each "
      "run, median of up to %d (at least three, as many as fit in 250 ms). Reference kernels fp32 (standard, "
      "flash) and fp16 or bf16 with fp32 accumulation (tensor cores); PyTorch fp16, and bf16 where named.\n",
      options.batch, options.heads, options.runs);
  // The ladder left to right; the reference's kernels and PyTorch's fp16
  // always, the other rungs and bf16 where the run timed them.
  const struct {
    const char *kernel, *title;
    bool always;
  } known[] = {{"standard", "standard", true},
               {"flash_one_row_per_thread", "flash, one row a thread", false},
               {"flash_float_loads", "flash, float loads", false},
               {"flash", "flash", true},
               {"tensor_core_unpadded", "tensor_core, unpadded", false},
               {"tensor_core", "tensor_core", true},
               {"mma_sync", "mma_sync", false},
               {"mma_sync_bf16", "mma_sync bf16", false},
               {"torch_flash", "PyTorch flash", true},
               {"torch_cudnn", "PyTorch cuDNN", true},
               {"torch_flash_bf16", "PyTorch flash bf16", false},
               {"torch_cudnn_bf16", "PyTorch cuDNN bf16", false}};
  const auto timed = [&](const std::string& kernel) {
    for (const auto& [key, row] : rows)
      if (row.count(kernel)) return true;
    return false;
  };
  std::vector<std::pair<std::string, std::string>> columns;
  for (const auto& column : known)
    if (column.always || timed(column.kernel)) columns.emplace_back(column.kernel, column.title);
  const std::string fastest = timed("mma_sync") ? "mma_sync" : "tensor_core";
  const bool bf16 = timed("mma_sync_bf16");
  std::printf("\n| N | d | causal |");
  for (const auto& column : columns) std::printf(" %s |", column.second.c_str());
  std::printf(" flash / standard | %s / PyTorch flash |%s\n|---:|---:|---|", fastest.c_str(),
              bf16 ? " mma_sync bf16 / PyTorch flash bf16 |" : "");
  for (std::size_t i = 0; i < columns.size() + 2 + (bf16 ? 1 : 0); ++i) std::printf("---:|");
  std::printf("\n");
  double log_sum = 0;
  int ratios = 0;
  for (const auto& [key, row] : rows) {
    const auto& [n, d, causal] = key;
    std::printf("| %lld | %d | %s |", n, d, causal ? "yes" : "no");
    for (const auto& column : columns) std::printf(" %s |", cell(row, column.first).c_str());
    std::printf(" %s | %s |", ratio_cell(row, "flash", "standard").c_str(),
                ratio_cell(row, fastest, "torch_flash").c_str());
    if (bf16) std::printf(" %s |", ratio_cell(row, "mma_sync_bf16", "torch_flash_bf16").c_str());
    std::printf("\n");
    for (const auto& [over, under] : {std::pair<std::string, std::string>{fastest, "torch_flash"},
                                      std::pair<std::string, std::string>{"mma_sync_bf16", "torch_flash_bf16"}})
      if (row.count(over) && row.count(under)) {
        log_sum += std::log(row.at(over) / row.at(under));
        ++ratios;
      }
  }
  if (ratios > 0)
    std::printf("\n%s / PyTorch flash%s, geometric mean over %d points: %.2f (target ≥ 0.80)\n", fastest.c_str(),
                bf16 ? " (fp16 and bf16)" : "", ratios, std::exp(log_sum / ratios));
}

}  // namespace

int print_recorded_gpu_attention_bench(const std::string& csv, const GpuAttentionBenchOptions& options) {
  std::ifstream file(csv);
  if (!file) {
    std::fprintf(stderr, "bench attention --gpu-results %s: cannot read it\n", csv.c_str());
    return 1;
  }
  Rows rows;
  for (std::string line; std::getline(file, line);) add_line(line, rows);
  if (rows.empty()) {
    std::fprintf(stderr, "bench attention --gpu-results %s: no kernel,n,d,causal,ms,tflops line in it\n", csv.c_str());
    return 1;
  }
  std::printf("Recorded by tools/gpu/run_all.sh in %s.\n", csv.c_str());
  print_table(rows, options);
  return 0;
}

int run_gpu_attention_bench(const GpuAttentionBenchOptions& options) {
  const std::string bench = build_paths::gpu_attention_bench().string();
  if (gpu_count() == 0) {
    std::fprintf(stderr,
                 "bench attention --gpu: no GPU on this machine; docs/benchmarks.md keeps the figures "
                 "measured on one\n");
    return 2;
  }
  if (bench.empty()) {
    std::fprintf(stderr,
                 "bench attention --gpu: this build has no GPU benchmark: nvcc was absent at configure time, or "
                 "(a student build) no GPU was; configure again where both are (./lab build)\n");
    return 2;
  }
  const std::string python = options.python;
  Rows rows;
  bool torch_ran = true;
  for (const int d : {64, 128}) {
    for (const int causal : {0, 1}) {
      for (long long n = options.min_n; n <= options.max_n; n *= 2) {
        std::fprintf(stderr, "bench attention --gpu: N = %lld, d = %d%s ...\n", n, d, causal ? ", causal" : "");
        std::ostringstream ours, torch;
        ours << bench << " --n " << n << " --d " << d << " --causal " << causal << " --runs " << options.runs
             << " --batch " << options.batch << " --heads " << options.heads;
        torch << python << " " << peer_script("torch_gpu_attention.py") << " " << n << " " << d << " " << causal << " "
              << options.runs << " " << options.batch << " " << options.heads;
        if (!collect(ours.str(), rows)) return 1;
        torch_ran = collect(torch.str(), rows) && torch_ran;
      }
    }
  }
  if (!torch_ran) std::printf("PyTorch: %s could not run torch_gpu_attention.py for every point.\n", python.c_str());
  print_table(rows, options);
  return 0;
}

}  // namespace rooflab::bench
