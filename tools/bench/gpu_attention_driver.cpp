// `rooflab bench attention --gpu`: a05's reference kernels
// (rooflab_gpu_attention_bench) beside PyTorch's flash and cuDNN attention
// (torch_gpu_attention.py), measured in the same run, in TFLOP/s. Prints
// Markdown for docs/benchmarks.md, progress on stderr.
#include <cmath>
#include <cstdio>
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

// Adds each "kernel,n,d,causal,ms,tflops" line of `stream` (a header or any
// other line is skipped).
void add_lines(FILE* stream, Rows& rows) {
  char line[256];
  while (std::fgets(line, sizeof line, stream)) {
    std::stringstream fields(line);
    std::string kernel, n, d, causal, ms, tflops;
    if (!(std::getline(fields, kernel, ',') && std::getline(fields, n, ',') && std::getline(fields, d, ',') &&
          std::getline(fields, causal, ',') && std::getline(fields, ms, ',') && std::getline(fields, tflops)))
      continue;
    try {
      rows[{std::stoll(n), std::stoi(d), std::stoi(causal)}][kernel] = std::stod(tflops);
    } catch (const std::exception&) {  // the header
    }
  }
}

// Runs `command` and adds the lines it prints.
bool collect(const std::string& command, Rows& rows) {
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return false;
  add_lines(pipe, rows);
  return pclose(pipe) == 0;
}

std::string cell(const std::map<std::string, double>& row, const std::string& kernel) {
  const auto found = row.find(kernel);
  if (found == row.end()) return "—";
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", found->second);
  return text;
}

// The Markdown table of `rows`, with the ladder's two targets: the fp32 flash
// kernel against the standard kernels (≥ 2×) and the tensor-core kernel
// against PyTorch's flash backend (≥ 0.8× as a geometric mean).
void print_table(const Rows& rows, const GpuAttentionBenchOptions& options) {
  std::printf(
      "B = %d, H = %d, TFLOP/s = 4·B·H·N²·d / time (halved for causal); CUDA events, L2 flushed before each "
      "run, median of %d. Reference kernels fp32 (standard, flash) and fp16 with fp32 accumulation "
      "(tensor_core); PyTorch fp16.\n",
      options.batch, options.heads, options.runs);
  // The ladder's earlier rungs, where the run timed them, each left of its successor.
  bool ladder = false;
  for (const auto& [key, row] : rows) ladder = ladder || row.count("flash_one_row_per_thread") > 0;
  const std::vector<std::pair<std::string, std::string>> columns =
      ladder ? std::vector<std::pair<std::string, std::string>>{{"standard", "standard"},
                                                                {"flash_one_row_per_thread", "flash, one row a thread"},
                                                                {"flash_float_loads", "flash, float loads"},
                                                                {"flash", "flash"},
                                                                {"tensor_core_unpadded", "tensor_core, unpadded"},
                                                                {"tensor_core", "tensor_core"},
                                                                {"torch_flash", "PyTorch flash"},
                                                                {"torch_cudnn", "PyTorch cuDNN"}}
             : std::vector<std::pair<std::string, std::string>>{{"standard", "standard"},
                                                                {"flash", "flash"},
                                                                {"tensor_core", "tensor_core"},
                                                                {"torch_flash", "PyTorch flash"},
                                                                {"torch_cudnn", "PyTorch cuDNN"}};
  std::printf("\n| N | d | causal |");
  for (const auto& column : columns) std::printf(" %s |", column.second.c_str());
  std::printf(" flash / standard | tensor_core / PyTorch flash |\n|---:|---:|---|");
  for (std::size_t i = 0; i < columns.size() + 2; ++i) std::printf("---:|");
  std::printf("\n");
  double log_sum = 0;
  int ratios = 0;
  for (const auto& [key, row] : rows) {
    const auto& [n, d, causal] = key;
    std::string ratio = "—";
    if (row.count("tensor_core") && row.count("torch_flash")) {
      const double value = row.at("tensor_core") / row.at("torch_flash");
      log_sum += std::log(value);
      ++ratios;
      char text[32];
      std::snprintf(text, sizeof text, "%.2f", value);
      ratio = text;
    }
    std::string flash_ratio = "—";
    if (row.count("flash") && row.count("standard")) {
      char text[32];
      std::snprintf(text, sizeof text, "%.2f", row.at("flash") / row.at("standard"));
      flash_ratio = text;
    }
    std::printf("| %lld | %d | %s |", n, d, causal ? "yes" : "no");
    for (const auto& column : columns) std::printf(" %s |", cell(row, column.first).c_str());
    std::printf(" %s | %s |\n", flash_ratio.c_str(), ratio.c_str());
  }
  if (ratios > 0)
    std::printf("\ntensor_core / PyTorch flash, geometric mean over %d points: %.2f (target ≥ 0.80)\n", ratios,
                std::exp(log_sum / ratios));
}

}  // namespace

int print_recorded_gpu_attention_bench(const std::string& csv, const GpuAttentionBenchOptions& options) {
  FILE* file = std::fopen(csv.c_str(), "r");
  if (!file) {
    std::fprintf(stderr, "bench attention --gpu-results %s: cannot read it\n", csv.c_str());
    return 1;
  }
  Rows rows;
  add_lines(file, rows);
  std::fclose(file);
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
  if (bench.empty()) {
    std::fprintf(stderr, "bench attention --gpu: this build has no CUDA (nvcc absent at configure time)\n");
    return 2;
  }
  if (gpu_count() == 0) {
    std::fprintf(stderr,
                 "bench attention --gpu: no GPU on this machine; docs/benchmarks.md keeps the figures "
                 "measured on one\n");
    return 2;
  }
  const std::string python = options.python;
  Rows rows;
  bool torch_ran = true;
  for (const int d : {64, 128}) {
    for (const int causal : {0, 1}) {
      for (long long n = options.min_n; n <= options.max_n; n *= 2) {
        std::fprintf(stderr, "bench attention --gpu: N = %lld, d = %d%s ...\n", n, d, causal ? ", causal" : "");
        const std::string args = " " + std::to_string(n) + " " + std::to_string(d) + " " + std::to_string(causal) +
                                 " " + std::to_string(options.runs) + " " + std::to_string(options.batch) + " " +
                                 std::to_string(options.heads);
        if (!collect(bench + " --n " + std::to_string(n) + " --d " + std::to_string(d) + " --causal " +
                         std::to_string(causal) + " --runs " + std::to_string(options.runs) + " --batch " +
                         std::to_string(options.batch) + " --heads " + std::to_string(options.heads),
                     rows))
          return 1;
        torch_ran = collect(python + " " + peer_script("torch_gpu_attention.py") + args, rows) && torch_ran;
      }
    }
  }
  if (!torch_ran) std::printf("PyTorch: %s could not run torch_gpu_attention.py for every point.\n", python.c_str());
  print_table(rows, options);
  return 0;
}

}  // namespace rooflab::bench
