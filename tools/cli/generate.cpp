// `rooflab generate`: a06's transformer (with the reference's cache and decode, or a student's own)
// decoding a model of tools/models/ with random weights in fp32, timed, beside the roofline bound
// of a02's cost model at this machine's copy bandwidth, measured in the same
// run. Students see decode reach the memory bound on their own machine.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <thread>

#include "a02_transformer_costs/a02_transformer_costs.hpp"
#include "a06_kv_cache_decode/a06_kv_cache_decode.hpp"
#include "commands.hpp"
#include "model_file.hpp"
#include "rooflab/bandwidth.hpp"
#include "rooflab/machine_load.hpp"
#include "rooflab/timing.hpp"

namespace rooflab::cli {
namespace {

struct GenerateFlags {
  std::string models_dir, model_name = "gpt2";
  std::int64_t tokens = 32, batch = 1, prompt = 8, page_size = 16;
  bool paged = false;
};

int run_generate(const GenerateFlags& flags) {
  using namespace a06_kv_cache_decode;
  const analyze::ModelFile file = analyze::find_model(flags.models_dir, flags.model_name);
  const a02_transformer_costs::TransformerConfig& shape = file.config;
  ModelConfig config;
  config.layers = static_cast<std::int64_t>(shape.num_layers);
  config.d_model = static_cast<std::int64_t>(shape.d_model);
  config.heads = static_cast<std::int64_t>(shape.num_heads);
  config.kv_heads = static_cast<std::int64_t>(shape.num_kv_heads);
  config.d_ff = static_cast<std::int64_t>(shape.d_ff);
  config.vocab = static_cast<std::int64_t>(shape.vocab_size);
  config.context = static_cast<std::int64_t>(shape.context_len);
  if (flags.prompt + flags.tokens > config.context)
    throw CLI::ValidationError(
        "--tokens", "--prompt-length plus --tokens exceed the model's context of " + std::to_string(config.context));

  std::fprintf(stderr, "generate: building %s with random weights ...\n", file.path.filename().c_str());
  const Model model = random_model(config, 1);
  std::fprintf(stderr, "generate: measuring the copy bandwidth ...\n");
  const Bandwidth measured = measure_bandwidth();
  const double bandwidth = measured.copy_bytes_per_s;

  DecodeState state = make_decode_state(config, flags.batch, flags.prompt + flags.tokens, flags.paged, flags.page_size);
  std::vector<std::int64_t> next(static_cast<std::size_t>(flags.batch));
  std::fprintf(stderr, "generate: prompt of %lld tokens ...\n", static_cast<long long>(flags.prompt));
  std::vector<float> logits;
  for (std::int64_t t = 0; t < flags.prompt; ++t) {
    for (std::int64_t s = 0; s < flags.batch; ++s) next[static_cast<std::size_t>(s)] = (17 * t + 5 * s) % config.vocab;
    logits = step(model, state, next);
  }
  std::fprintf(stderr, "generate: %lld decode steps ...\n", static_cast<long long>(flags.tokens));
  const double decode_s = best_seconds(1, [&] {  // one run: the steps go on from each other's state
    for (std::int64_t i = 0; i < flags.tokens; ++i) {
      for (std::int64_t s = 0; s < flags.batch; ++s) {
        const auto row = logits.begin() + s * config.vocab;
        next[static_cast<std::size_t>(s)] = std::max_element(row, row + config.vocab) - row;
      }
      logits = step(model, state, next);
    }
  });

  // a02's bytes for one decode step at the mean cache length of the run, fp32.
  a02_transformer_costs::TransformerConfig fp32 = shape;
  fp32.bytes_per_element = 4;
  const double mean_cached = static_cast<double>(flags.prompt) + static_cast<double>(flags.tokens + 1) / 2;
  const double bytes_per_step = a02_transformer_costs::model_cost(
                                    fp32, a02_transformer_costs::decode(static_cast<double>(flags.batch), mean_cached))
                                    .bytes;
  const double tokens_per_s = static_cast<double>(flags.tokens * flags.batch) / decode_s;
  const double bound = bandwidth / bytes_per_step * static_cast<double>(flags.batch);
  std::printf("code: %s\n", kWhoseCode);
  std::printf("model %s: %lld layers, d_model %lld, %lld heads (%lld kv), fp32, random weights\n",
              file.config.name.c_str(), static_cast<long long>(config.layers), static_cast<long long>(config.d_model),
              static_cast<long long>(config.heads), static_cast<long long>(config.kv_heads));
  std::printf("batch %lld, prompt %lld tokens, %lld decode steps, %s cache\n\n", static_cast<long long>(flags.batch),
              static_cast<long long>(flags.prompt), static_cast<long long>(flags.tokens),
              flags.paged ? ("paged (" + std::to_string(flags.page_size) + "-token pages)").c_str() : "contiguous");
  std::printf("| measure | value |\n|---|---:|\n");
  std::printf("| decode speed | %.1f tokens/s (%.1f ms per step) |\n", tokens_per_s,
              1e3 * decode_s / static_cast<double>(flags.tokens));
  std::printf("| bytes read per step (a02's model: weights, KV cache at %.0f tokens, activations) | %.1f MB |\n",
              mean_cached, bytes_per_step / 1e6);
  std::printf("| bytes read per token | %.1f MB |\n", bytes_per_step / static_cast<double>(flags.batch) / 1e6);
  std::printf("| copy bandwidth, measured now | %.1f GB/s |\n", bandwidth / 1e9);
  std::printf("| roofline bound: bandwidth / bytes per token | %.1f tokens/s |\n", bound);
  std::printf("| achieved / bound | %.0f %% |\n", 100 * tokens_per_s / bound);
  // Decoding only reads: the read-only bandwidth is the tighter yardstick.
  const double read_bound = measured.read_bytes_per_s / bytes_per_step * static_cast<double>(flags.batch);
  std::printf("| read bandwidth (a sum over 256 MiB), measured now | %.1f GB/s |\n", measured.read_bytes_per_s / 1e9);
  std::printf("| achieved / bound at the read bandwidth | %.0f %% |\n", 100 * tokens_per_s / read_bound);
  return 0;
}

}  // namespace

void add_generate(CLI::App& app, int& exit_code) {
  auto flags = std::make_shared<GenerateFlags>();
  flags->models_dir = (kSourceDir / "tools" / "models").string();
  CLI::App* command = app.add_subcommand(
      "generate",
      "decode a model (random fp32 weights) with a06's KV cache and compare tokens/s with the roofline bound");
  command->add_option("--model", flags->model_name, "a name from the models folder, or a .toml path (default gpt2)");
  command->add_option("--tokens", flags->tokens, "decode steps to time (default 32)")->check(CLI::PositiveNumber);
  command->add_option("--batch", flags->batch, "sequences decoded together (default 1)")->check(CLI::PositiveNumber);
  command->add_option("--prompt-length", flags->prompt, "prompt tokens before the timed steps (default 8)")
      ->check(CLI::PositiveNumber);
  command->add_flag("--paged", flags->paged, "the paged cache instead of the contiguous one");
  command->add_option("--page-size", flags->page_size, "tokens per page with --paged (default 16)")
      ->check(CLI::PositiveNumber);
  command->add_option("--models-dir", flags->models_dir, "folder of model .toml files (default: tools/models)");
  command->callback([flags, &exit_code] {
    // Decoding uses every core (OpenMP): tokens/s measured while other
    // processes ran says little, and the run says so (rooflab/machine_load.hpp).
    const LoadWatch watch;
    exit_code = run_generate(*flags);
    watch.warn_if_busy(std::cerr, static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
  });
}

}  // namespace rooflab::cli
