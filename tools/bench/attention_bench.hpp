// `rooflab bench attention [--gpu]`: the reference attention labs beside
// OpenBLAS sgemm and PyTorch, measured in one run (attention_bench.cpp), and
// on a GPU a05's kernels beside PyTorch's (gpu_attention_driver.cpp).
#pragma once

#include <vector>

#include <string>

namespace rooflab::bench {

struct AttentionBenchOptions {
  long long min_n = 256, max_n = 8192;             // N doubles from min_n to max_n
  long long head_dim = 64;                         // the first table's d
  std::vector<long long> sdpa_head_dims{64, 128};  // flash beside PyTorch's SDPA, causal and not, at each d
  int threads = 2;                                 // for every implementation
  int repeats = 3;                                 // timed runs per point; the best is kept
};

// Prints the Markdown tables on stdout and progress on stderr; returns the exit code.
int run_attention_bench(const AttentionBenchOptions& options);

// `--gpu`: a05's reference kernels beside PyTorch's GPU attention, in TFLOP/s,
// for d = 64 and 128, causal and not (gpu_attention_driver.cpp). Returns 2
// without a GPU or without CUDA in this build.
struct GpuAttentionBenchOptions {
  long long min_n = 512, max_n = 16384;  // N doubles from min_n to max_n
  int batch = 1, heads = 16;
  int runs = 50;                   // timed runs per point; the median is kept
  std::string python = "python3";  // one that imports torch
};
int run_gpu_attention_bench(const GpuAttentionBenchOptions& options);
// The same table from a recorded run: the attention_gpu.csv that
// tools/gpu/run_all.sh writes on a GPU machine (--gpu-results).
int print_recorded_gpu_attention_bench(const std::string& csv, const GpuAttentionBenchOptions& options);

// `rooflab bench decode`: a06's decode attention in GB/s against the copy
// bandwidth measured in the same run, contiguous and paged (decode_bench.cpp).
struct DecodeBenchOptions {
  long long min_length = 1024, max_length = 65536;  // L doubles from min to max
  long long heads = 12, kv_heads = 12, head_dim = 64;
  std::vector<long long> page_sizes{16, 64, 256};  // one paged column each
  int repeats = 5;
};
int run_decode_bench(const DecodeBenchOptions& options);

// `rooflab bench cuda-cpu`: the CPU runtime's cost per thread switch and per
// block (cuda_cpu_bench.cpp).
int run_cuda_cpu_bench();

}  // namespace rooflab::bench
