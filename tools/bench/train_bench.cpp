// `rooflab bench train`: the time of one training step of a07's default model
// (forward, cross_entropy, backward, adam_update on a batch of TrainConfig's
// size) beside PyTorch eager running the same model on the same shapes
// (torch_train.py), at the same thread count, in one run.
#include "train_bench.hpp"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "a07_associative_recall/a07_associative_recall.hpp"
#include "torch_python.hpp"

namespace rooflab::bench {
namespace {

using namespace a07_associative_recall;

constexpr int kWarmUpSteps = 5;

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t middle = values.size() / 2;
  return values.size() % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
}

// The median seconds of `steps` training steps after kWarmUpSteps, each on a
// fresh batch made beforehand (making batches is not what is timed), exactly
// as train() runs a step.
double rooflab_step_seconds(const TrainConfig& config, int steps) {
  const RecallTask& task = config.model.task;
  Model model = init_model(config.model, config.seed);
  Optimizer optimizer = make_optimizer(model, config.adam);
  std::vector<RecallBatch> batches;
  for (int s = 1; s <= kWarmUpSteps + steps; ++s)
    batches.push_back(make_recall_batch(task, Split::train, config.seed + static_cast<std::uint64_t>(s), config.batch));
  std::vector<double> seconds;
  for (int s = 1; s <= kWarmUpSteps + steps; ++s) {
    const RecallBatch& batch = batches[static_cast<std::size_t>(s - 1)];
    const auto start = std::chrono::steady_clock::now();
    train_step(model, optimizer, batch);
    if (s > kWarmUpSteps)
      seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  return median(seconds);
}

// torch_train.py's medians by variant ("matmul", "sdpa"); empty when it failed.
std::map<std::string, double> torch_step_seconds(const std::string& python, int steps, int threads) {
  const std::string command = shell_quoted(python) + " " + peer_script("torch_train.py") + " " + std::to_string(steps) +
                              " " + std::to_string(threads);
  std::map<std::string, double> seconds;
  const int status = run_peer(command, [&](const std::string& line) {
    char name[16];
    double value = 0;
    if (std::sscanf(line.c_str(), "%15s %lf", name, &value) == 2) seconds[name] = value;
  });
  if (status != 0) seconds.clear();
  return seconds;
}

// One table row; `rooflab_seconds` is what a peer's ratio divides by (nothing
// for rooflab's own row).
void print_row(const char* implementation, std::optional<double> seconds, std::optional<double> rooflab_seconds,
               const std::string& why = "") {
  if (!seconds) {
    std::printf("| %s | %s | — | — |\n", implementation, why.empty() ? "—" : why.c_str());
    return;
  }
  std::printf("| %s | %.2f | %.1f | ", implementation, *seconds * 1e3, 1 / *seconds);
  if (rooflab_seconds)
    std::printf("%.2f |\n", *seconds / *rooflab_seconds);
  else
    std::printf("— |\n");
}

}  // namespace

int run_train_bench(const TrainBenchOptions& options) {
  const TrainConfig config;  // the default model, batch and Adam: what `lab train recall` trains
  const ModelConfig& model = config.model;
  omp_set_num_threads(options.threads);
  std::printf(
      "a07's default model: %lld layers, d_model %lld, %lld heads, %lld tokens, vocab %lld; batch %lld, Adam lr "
      "%g; fp32, %d threads. One step = forward, cross-entropy, backward, Adam; median of %d steps after %d "
      "warm-up steps. PyTorch / rooflab: PyTorch's time over rooflab's (above 1: rooflab is faster).\n",
      static_cast<long long>(model.layers), static_cast<long long>(model.d_model), static_cast<long long>(model.heads),
      static_cast<long long>(model.task.length()), static_cast<long long>(model.task.vocab()),
      static_cast<long long>(config.batch), config.adam.learning_rate, options.threads, options.steps, kWarmUpSteps);
  std::fflush(stdout);

  std::fprintf(stderr, "bench train: rooflab ...\n");
  double rooflab_seconds = 0;
  try {
    rooflab_seconds = rooflab_step_seconds(config, options.steps);
  } catch (const std::exception& error) {  // a student's stub: "not implemented"
    std::printf("\nstopped: %s\n", error.what());
    return 1;
  }
  std::fprintf(stderr, "bench train: PyTorch ...\n");
  const std::optional<std::string> python = torch_python();
  const std::map<std::string, double> torch =
      python ? torch_step_seconds(*python, options.steps, options.threads) : std::map<std::string, double>{};
  const auto peer = [&torch](const char* variant) {
    const auto found = torch.find(variant);
    return found == torch.end() ? std::nullopt : std::optional<double>(found->second);
  };
  const std::string why = !python ? "no python with torch" : torch.empty() ? "torch_train.py failed" : "";

  std::printf("\n| implementation | ms/step | steps/s | PyTorch / rooflab |\n|---|---:|---:|---:|\n");
  print_row("rooflab (a07)", rooflab_seconds, std::nullopt);
  print_row("PyTorch eager, matmul-mask-softmax-matmul", peer("matmul"), rooflab_seconds, why);
  print_row("PyTorch eager, F.scaled_dot_product_attention", peer("sdpa"), rooflab_seconds, why);
  if (!python) std::printf("\nPyTorch: %s.\n", how_to_get_torch().c_str());
  return 0;
}

}  // namespace rooflab::bench
