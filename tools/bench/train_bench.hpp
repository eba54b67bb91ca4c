// `rooflab bench train`: one training step of a07's default model (the
// reference, or a student's own code in a student build) beside PyTorch eager
// running the same model, measured in one run (train_bench.cpp).
#pragma once

namespace rooflab::bench {

struct TrainBenchOptions {
  int steps = 30;   // timed steps per implementation, after a warm-up; the median is kept
  int threads = 2;  // for rooflab (OpenMP) and PyTorch (torch.set_num_threads)
};

// Prints the Markdown table on stdout and progress on stderr; returns the exit code.
int run_train_bench(const TrainBenchOptions& options);

}  // namespace rooflab::bench
