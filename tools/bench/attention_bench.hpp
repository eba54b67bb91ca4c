// `rooflab bench attention`: the reference attention labs beside OpenBLAS
// sgemm and PyTorch, measured in one run (attention_bench.cpp).
#pragma once

namespace rooflab::bench {

struct AttentionBenchOptions {
  long long min_n = 256, max_n = 8192;  // N doubles from min_n to max_n
  long long head_dim = 64;
  int threads = 2;  // for every implementation
  int repeats = 3;  // timed runs per point; the best is kept
};

// Prints the Markdown tables on stdout and progress on stderr; returns the exit code.
int run_attention_bench(const AttentionBenchOptions& options);

}  // namespace rooflab::bench
