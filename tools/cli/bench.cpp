// `rooflab bench attention | decode | train | bandwidth | peak | cuda-cpu`: benchmarks that
// print figures for docs/benchmarks.md, on the course tree this build holds (the
// reference, or a student's own code). Quote ratios measured side by side in
// one run.
#include <algorithm>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <thread>

#include "attention_bench.hpp"
#include "bandwidth.hpp"
#include "commands.hpp"
#include "gpt2_checkpoint.hpp"
#include "peak.hpp"
#include "rooflab/machine_load.hpp"
#include "train_bench.hpp"

namespace rooflab::cli {
namespace {

// Runs a benchmark and then says whether other processes took the cores it
// ran on, which makes its figures meaningless (rooflab/machine_load.hpp).
int watching_the_load(int threads, const std::function<int()>& benchmark) {
  const LoadWatch watch;
  const int code = benchmark();
  watch.warn_if_busy(std::cerr, threads);
  return code;
}

int every_core() { return static_cast<int>(std::max(1u, std::thread::hardware_concurrency())); }

}  // namespace

std::string machine_line() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  double kib = 0;
  while (meminfo >> key >> kib && key != "MemTotal:") meminfo.ignore(256, '\n');
  const std::time_t now = std::time(nullptr);
  char date[16];
  std::strftime(date, sizeof date, "%Y-%m-%d", std::gmtime(&now));
  return "machine: " + std::to_string(std::thread::hardware_concurrency()) + " cores, " +
         std::to_string(static_cast<long>(kib / 1048576 + 0.5)) + " GiB, " + date;
}

CLI::App& add_bench(CLI::App& app, int& exit_code) {
  CLI::App* command = app.add_subcommand("bench", "Benchmarks that print figures (docs/benchmarks.md)");
  command->require_subcommand(1);

  auto attention = std::make_shared<bench::AttentionBenchOptions>();
  CLI::App* attention_cmd = command->add_subcommand(
      "attention",
      "standard, linear and flash attention (a03, a04) beside OpenBLAS sgemm and PyTorch (SDPA and unfused), one run");
  CLI::Option* min_n =
      attention_cmd->add_option("--min-n", attention->min_n, "smallest sequence length")->check(CLI::PositiveNumber);
  CLI::Option* max_n =
      attention_cmd->add_option("--max-n", attention->max_n, "largest sequence length (doubling from --min-n)")
          ->check(CLI::PositiveNumber);
  attention_cmd->add_option("--head-dim", attention->head_dim, "head dimension d of the first table")
      ->check(CLI::PositiveNumber);
  attention_cmd
      ->add_option("--sdpa-head-dims", attention->sdpa_head_dims,
                   "head dimensions of the table beside PyTorch's scaled_dot_product_attention, causal and not "
                   "(default 64 128)")
      ->delimiter(',')
      ->check(CLI::PositiveNumber);
  attention_cmd->add_option("--threads", attention->threads, "threads for every implementation")
      ->check(CLI::PositiveNumber);
  attention_cmd->add_option("--repeats", attention->repeats, "timed runs per point (the best is kept)")
      ->check(CLI::PositiveNumber);
  auto gpu = std::make_shared<bench::GpuAttentionBenchOptions>();
  auto on_gpu = std::make_shared<bool>(false);
  attention_cmd->add_flag("--gpu", *on_gpu,
                          "a05's CUDA kernels on this machine's GPU beside PyTorch's flash and cuDNN attention, "
                          "TFLOP/s for N = 512…16384 (--min-n/--max-n), d = 64 and 128, causal and not");
  attention_cmd->add_option("--runs", gpu->runs, "--gpu: timed runs per point (the median is kept)")
      ->check(CLI::PositiveNumber);
  attention_cmd->add_option("--python", gpu->python, "--gpu: a python3 that imports torch");
  auto recorded = std::make_shared<std::string>();
  attention_cmd
      ->add_option("--gpu-results", *recorded,
                   "print --gpu's table from a run recorded on a GPU machine: the attention_gpu.csv of "
                   "tools/gpu/run_all.sh (give --runs as it ran, 20 by default there)")
      ->check(CLI::ExistingFile);
  attention_cmd->callback([attention, gpu, on_gpu, recorded, min_n, max_n, &exit_code] {
    if (!recorded->empty()) {
      exit_code = bench::print_recorded_gpu_attention_bench(*recorded, *gpu);
      return;
    }
    std::cout << machine_line() << "\ncode: " << kWhoseCode << std::endl;
    if (*on_gpu) {
      // The GPU sweep has its own defaults; --min-n and --max-n replace them when given.
      if (min_n->count() > 0) gpu->min_n = attention->min_n;
      if (max_n->count() > 0) gpu->max_n = attention->max_n;
      exit_code = bench::run_gpu_attention_bench(*gpu);
    } else {
      exit_code = watching_the_load(attention->threads, [&] { return bench::run_attention_bench(*attention); });
    }
  });

  auto decode = std::make_shared<bench::DecodeBenchOptions>();
  CLI::App* decode_cmd = command->add_subcommand(
      "decode", "a06's decode attention in GB/s beside the copy bandwidth, contiguous and paged");
  decode_cmd->add_option("--min-length", decode->min_length, "shortest cache")->check(CLI::PositiveNumber);
  decode_cmd->add_option("--max-length", decode->max_length, "longest cache (doubling from --min-length)")
      ->check(CLI::PositiveNumber);
  auto decode_weights = std::make_shared<std::string>();
  CLI::Option* heads = decode_cmd->add_option("--heads", decode->heads, "query heads")->check(CLI::PositiveNumber);
  CLI::Option* kv_heads =
      decode_cmd->add_option("--kv-heads", decode->kv_heads, "key and value heads (GQA: fewer than --heads)")
          ->check(CLI::PositiveNumber);
  CLI::Option* head_dim =
      decode_cmd->add_option("--head-dim", decode->head_dim, "head dimension d")->check(CLI::PositiveNumber);
  decode_cmd
      ->add_option("--weights", *decode_weights,
                   "a Hugging Face GPT-2 folder: its config.json's heads and head dimension instead of GPT-2 "
                   "small's")
      ->excludes(heads)
      ->excludes(kv_heads)
      ->excludes(head_dim);
  decode_cmd
      ->add_option("--page-sizes", decode->page_sizes,
                   "tokens per page of the paged cache, one column each (default 16 64 256)")
      ->check(CLI::PositiveNumber)
      ->delimiter(',');
  decode_cmd->add_option("--repeats", decode->repeats, "timed runs per point (the best is kept)")
      ->check(CLI::PositiveNumber);
  decode_cmd->callback([decode, decode_weights, &exit_code] {
    if (!decode_weights->empty()) {
      // One layer's cache of that model: its heads (GPT-2's keys and values have as many) and d.
      const a06_kv_cache_decode::ModelConfig config =
          decode::read_gpt2_config(std::filesystem::path(*decode_weights) / "config.json");
      decode->heads = decode->kv_heads = config.heads;
      decode->head_dim = config.head_dim();
      std::cout << "model: " << *decode_weights << " (" << config.heads << " heads, d = " << config.head_dim() << ")\n";
    }
    std::cout << machine_line() << "\ncode: " << kWhoseCode << std::endl;
    exit_code = watching_the_load(every_core(), [&] { return bench::run_decode_bench(*decode); });
  });

  auto train = std::make_shared<bench::TrainBenchOptions>();
  CLI::App* train_cmd = command->add_subcommand(
      "train", "one training step of a07's default model beside PyTorch eager running the same model, one run");
  train_cmd->add_option("--steps", train->steps, "timed steps per implementation (the median is kept)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  train_cmd->add_option("--threads", train->threads, "threads for rooflab and PyTorch")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  train_cmd->callback([train, &exit_code] {
    std::cout << machine_line() << "\ncode: " << kWhoseCode << std::endl;
    exit_code = watching_the_load(train->threads, [&] { return bench::run_train_bench(*train); });
  });

  CLI::App* bandwidth_cmd = command->add_subcommand(
      "bandwidth", "this machine's memory bandwidth, STREAM-style copy and triad (what decoding is bound by)");
  bandwidth_cmd->callback([&exit_code] {
    std::cout << machine_line() << std::endl;
    exit_code = watching_the_load(every_core(), [] { return bench::run_bandwidth_bench(); });
  });

  CLI::App* peak_cmd = command->add_subcommand(
      "peak", "this machine's fp32 FMA peak beside its read bandwidth: the roofline's two roofs and their ridge point");
  peak_cmd->callback([&exit_code] {
    std::cout << machine_line() << std::endl;
    exit_code = watching_the_load(every_core(), [] { return bench::run_peak_bench(); });
  });

  CLI::App* cuda_cpu_cmd =
      command->add_subcommand("cuda-cpu", "the CPU runtime for CUDA kernels: cost per thread switch and per block");
  cuda_cpu_cmd->callback([&exit_code] {
    std::cout << machine_line() << std::endl;
    exit_code = watching_the_load(1, [] { return bench::run_cuda_cpu_bench(); });
  });

  return *command;
}

}  // namespace rooflab::cli
