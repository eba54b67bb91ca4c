// `rooflab generate`: a06's transformer (with the reference's cache and decode, or a student's own)
// decoding a model of tools/models/ with random weights in fp32, timed, beside the roofline bound
// of a02's cost model at this machine's bandwidth, measured in the same
// run. Students see decode reach the memory bound on their own machine.
// With --compare (or --batches), one row per batch size, and beside rooflab
// Hugging Face transformers' GPT2LMHeadModel decoding the same shape with its
// KV cache at the same thread count (tools/bench/hf_decode.py), in the same run.
// With --weights DIR, a real checkpoint's text instead (generate_text.cpp).
#include <omp.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <map>
#include <optional>
#include <stdexcept>
#include <thread>

#include "a02_transformer_costs/a02_transformer_costs.hpp"
#include "a06_kv_cache_decode/a06_kv_cache_decode.hpp"
#include "commands.hpp"
#include "generate_text.hpp"
#include "model_file.hpp"
#include "rooflab/bandwidth.hpp"
#include "rooflab/fma_peak.hpp"
#include "rooflab/machine_load.hpp"
#include "rooflab/timing.hpp"
#include "torch_python.hpp"

namespace rooflab::cli {
namespace {

using a02_transformer_costs::TransformerConfig;
using a06_kv_cache_decode::ModelConfig;

struct GenerateFlags {
  std::string models_dir, model_name = "gpt2";
  std::int64_t tokens = 32, batch = 1, prompt = 8, page_size = 16;
  std::vector<std::int64_t> batches;  // a row each (--batches, or 1, 8, 32 with --compare)
  int threads = 2, repeats = 3;
  bool paged = false, compare = false;
  a06_kv_cache_decode::WeightFormat format = a06_kv_cache_decode::WeightFormat::f32;  // the matrices' (--weight-format)
};

ModelConfig model_config(const TransformerConfig& shape) {
  ModelConfig config;
  config.layers = static_cast<std::int64_t>(shape.num_layers);
  config.d_model = static_cast<std::int64_t>(shape.d_model);
  config.heads = static_cast<std::int64_t>(shape.num_heads);
  config.kv_heads = static_cast<std::int64_t>(shape.num_kv_heads);
  config.d_ff = static_cast<std::int64_t>(shape.d_ff);
  config.vocab = static_cast<std::int64_t>(shape.vocab_size);
  config.context = static_cast<std::int64_t>(shape.context_len);
  return config;
}

// The index of row's largest value, the first on a tie, as std::max_element
// gives it: the maximum in vector lanes first, then the first place that
// holds it. (std::max_element compares one value at a time: at batch 32 and
// GPT-2's vocabulary, 1.6 M comparisons a step, on one thread: about 8 % of
// the step's time.)
std::int64_t argmax(const float* row, std::int64_t n) {
  float top = row[0];
#pragma omp simd reduction(max : top)
  for (std::int64_t i = 0; i < n; ++i) top = std::max(top, row[i]);
  for (std::int64_t i = 0; i < n; ++i)
    if (row[i] == top) return i;
  return 0;  // no value equals the maximum: row holds a NaN; std::max_element would not answer better
}

// Seconds of flags.tokens greedy decode steps for `batch` sequences, after an
// untimed prompt of flags.prompt tokens (token (17·t + 5·s) mod vocab at
// position t of sequence s, as hf_decode.py feeds Hugging Face's model).
double decode_seconds(const a06_kv_cache_decode::Model& model, const GenerateFlags& flags, std::int64_t batch) {
  using namespace a06_kv_cache_decode;
  const std::int64_t vocab = model.config.vocab;
  DecodeState state = make_decode_state(model.config, batch, flags.prompt + flags.tokens, flags.paged, flags.page_size);
  std::vector<std::int64_t> next(static_cast<std::size_t>(batch));
  std::vector<float> logits;
  for (std::int64_t t = 0; t < flags.prompt; ++t) {
    for (std::int64_t s = 0; s < batch; ++s) next[static_cast<std::size_t>(s)] = (17 * t + 5 * s) % vocab;
    logits = step(model, state, next);
  }
  return best_seconds(1, [&] {  // one run: the steps go on from each other's state
    for (std::int64_t i = 0; i < flags.tokens; ++i) {
      // Each sequence's greedy token, the threads sharing the sequences (as
      // Hugging Face's argmax over its batch does).
#pragma omp parallel for schedule(static) if (batch > 1)
      for (std::int64_t s = 0; s < batch; ++s)
        next[static_cast<std::size_t>(s)] = argmax(logits.data() + s * vocab, vocab);
      logits = step(model, state, next);
    }
  });
}

// The cache's mean length over the timed steps.
double mean_cached_tokens(const GenerateFlags& flags) {
  return static_cast<double>(flags.prompt) + static_cast<double>(flags.tokens + 1) / 2;
}

// a02's FLOPs and bytes for one decode step at the mean cache length of the
// run, fp32, less the two bytes a value that a model holding its matrices in
// 16 bits does not read.
a02_transformer_costs::Cost step_cost(const TransformerConfig& shape, const GenerateFlags& flags, std::int64_t batch,
                                      const a06_kv_cache_decode::Model& model) {
  TransformerConfig fp32 = shape;
  fp32.bytes_per_element = 4;
  a02_transformer_costs::Cost cost = a02_transformer_costs::model_cost(
      fp32, a02_transformer_costs::decode(static_cast<double>(batch), mean_cached_tokens(flags)));
  cost.bytes -= 2.0 * static_cast<double>(a06_kv_cache_decode::values_held_in_16_bits(model));
  return cost;
}

void print_model_line(const analyze::ModelFile& file, const a06_kv_cache_decode::Model& model) {
  const ModelConfig& config = model.config;
  std::printf("code: %s\n", kWhoseCode);
  std::printf("model %s: %lld layers, d_model %lld, %lld heads (%lld kv), %s, random weights\n",
              file.config.name.c_str(), static_cast<long long>(config.layers), static_cast<long long>(config.d_model),
              static_cast<long long>(config.heads), static_cast<long long>(config.kv_heads),
              model.format == a06_kv_cache_decode::WeightFormat::f32
                  ? "fp32"
                  : (std::string(a06_kv_cache_decode::weight_format_name(model.format)) +
                     " matrices and embedding (widened as read), the rest fp32")
                        .c_str());
}

// One batch, one run: the table of measure and value.
int run_single(const GenerateFlags& flags, const analyze::ModelFile& file, const a06_kv_cache_decode::Model& model,
               const Bandwidth& measured) {
  ReadBandwidthProbe probe;
  const double read_before = probe.measure();
  const double decode_s = decode_seconds(model, flags, flags.batch);
  const double read_beside = std::max(read_before, probe.measure());  // the best of the minutes it ran in
  const double bytes = step_cost(file.config, flags, flags.batch, model).bytes;
  const double tokens_per_s = static_cast<double>(flags.tokens * flags.batch) / decode_s;
  const double bound = measured.copy_bytes_per_s / bytes * static_cast<double>(flags.batch);
  print_model_line(file, model);
  std::printf("batch %lld, prompt %lld tokens, %lld decode steps, %s cache, %d threads\n\n",
              static_cast<long long>(flags.batch), static_cast<long long>(flags.prompt),
              static_cast<long long>(flags.tokens),
              flags.paged ? ("paged (" + std::to_string(flags.page_size) + "-token pages)").c_str() : "contiguous",
              flags.threads);
  std::printf("| measure | value |\n|---|---:|\n");
  std::printf("| decode speed | %.1f tokens/s (%.1f ms per step) |\n", tokens_per_s,
              1e3 * decode_s / static_cast<double>(flags.tokens));
  std::printf("| bytes read per step (a02's model: weights, KV cache at %.0f tokens, activations) | %.1f MB |\n",
              mean_cached_tokens(flags), bytes / 1e6);
  std::printf("| bytes read per token | %.1f MB |\n", bytes / static_cast<double>(flags.batch) / 1e6);
  std::printf("| copy bandwidth, measured now | %.1f GB/s |\n", measured.copy_bytes_per_s / 1e9);
  std::printf("| roofline bound: bandwidth / bytes per token | %.1f tokens/s |\n", bound);
  std::printf("| achieved / bound | %.0f %% |\n", 100 * tokens_per_s / bound);
  // Decoding only reads: the read-only bandwidth is the tighter yardstick.
  const double read_bound = read_beside / bytes * static_cast<double>(flags.batch);
  std::printf("| read bandwidth (a sum over 256 MiB), the higher of before and after the run | %.1f GB/s |\n",
              read_beside / 1e9);
  std::printf("| achieved / bound at the read bandwidth | %.0f %% |\n", 100 * tokens_per_s / read_bound);
  return 0;
}

// What hf_decode.py measured: seconds by batch and the versions it ran, or
// why there is no Hugging Face column.
struct PeerRun {
  std::map<std::int64_t, double> seconds;
  std::string versions, why_not;
};

// Hugging Face's peer is GPT2LMHeadModel: only a GPT-2-shaped model file has one.
std::string why_no_gpt2_peer(const TransformerConfig& shape) {
  const bool gpt2_shaped = shape.num_kv_heads == shape.num_heads && shape.mlp == a02_transformer_costs::MlpKind::gelu &&
                           shape.norm == a02_transformer_costs::NormKind::layer_norm &&
                           shape.positions == a02_transformer_costs::PositionKind::learned && shape.bias &&
                           shape.tied_embeddings;
  return gpt2_shaped ? ""
                     : "model " + shape.name + " is not GPT-2-shaped, and the peer is transformers' GPT2LMHeadModel";
}

PeerRun hugging_face_seconds(const ModelConfig& config, const TransformerConfig& shape, const GenerateFlags& flags) {
  PeerRun run;
  if (run.why_not = why_no_gpt2_peer(shape); !run.why_not.empty()) return run;
  const std::optional<std::string> python = bench::torch_python();
  if (!python) {
    run.why_not = bench::how_to_get_torch();
    return run;
  }
  std::string command = bench::shell_quoted(*python) + " " +
                        bench::shell_quoted((kSourceDir / "tools" / "bench" / "hf_decode.py").string());
  const auto add = [&command](const char* flag, std::int64_t value) {
    command += std::string(" ") + flag + " " + std::to_string(value);
  };
  add("--threads", flags.threads);
  add("--prompt", flags.prompt);
  add("--tokens", flags.tokens);
  add("--repeats", flags.repeats);
  add("--layers", config.layers);
  add("--d-model", config.d_model);
  add("--heads", config.heads);
  add("--d-ff", config.d_ff);
  add("--vocab", config.vocab);
  add("--context", config.context);
  command += " --batches";
  for (const std::int64_t batch : flags.batches) command += " " + std::to_string(batch);
  const int status = bench::run_peer(command, [&](const std::string& text) {
    long long batch = 0;
    double seconds = 0;
    if (std::sscanf(text.c_str(), "batch %lld %lf", &batch, &seconds) == 2)
      run.seconds[batch] = seconds;
    else if (text.rfind("versions ", 0) == 0)
      run.versions = text.substr(9);
    else if (text.rfind("missing ", 0) == 0)
      run.why_not = text.substr(8) + " is not installed for " + *python + "; run ./lab peers (PyTorch and " +
                    "transformers from the Python package index into .venv)";
  });
  if (status == -1 && run.why_not.empty()) run.why_not = "could not start " + *python;
  if (run.why_not.empty() && (status != 0 || run.seconds.size() != flags.batches.size()))
    run.why_not = "tools/bench/hf_decode.py failed (its messages are above)";
  if (!run.why_not.empty()) run.seconds.clear();
  return run;
}

// A batch's best run, and the read bandwidth beside its runs: measured
// before each run and after the last, the highest of them is the batch's
// memory roof (the best run against the best the memory gave in the same
// minutes; on a shared host, one measurement before all the runs put one
// binary's batch 1 anywhere from 57 to 120 % of its roof within half an
// hour: docs/benchmarks.md).
struct BatchRuns {
  double seconds = 0;
  double read_bytes_per_s = 0;
};

BatchRuns time_batch(const a06_kv_cache_decode::Model& model, const GenerateFlags& flags, std::int64_t batch,
                     ReadBandwidthProbe& probe) {
  BatchRuns runs{0, probe.measure()};
  for (int run = 0; run < flags.repeats; ++run) {
    const double s = decode_seconds(model, flags, batch);
    runs.seconds = run == 0 ? s : std::min(runs.seconds, s);
    runs.read_bytes_per_s = std::max(runs.read_bytes_per_s, probe.measure());
  }
  return runs;
}

// The batches' rows: rooflab's tokens/s, Hugging Face's, their ratio and the memory bound.
int run_table(const GenerateFlags& flags, const analyze::ModelFile& file, const a06_kv_cache_decode::Model& model,
              const Bandwidth& measured) {
  ReadBandwidthProbe probe;
  std::map<std::int64_t, BatchRuns> timed;
  for (const std::int64_t batch : flags.batches) {
    std::fprintf(stderr, "generate: rooflab, batch %lld, best of %d runs, the read bandwidth beside each ...\n",
                 static_cast<long long>(batch), flags.repeats);
    timed[batch] = time_batch(model, flags, batch, probe);
  }
  double slowest = timed.begin()->second.read_bytes_per_s, fastest = slowest;  // the rows' range
  for (const auto& [batch, runs] : timed) {
    slowest = std::min(slowest, runs.read_bytes_per_s);
    fastest = std::max(fastest, runs.read_bytes_per_s);
  }
  // The other roof: at batch 8 and 32 a step does enough arithmetic per byte
  // that the cores' multiply-adds, not memory, may set the pace.
  const FmaPeak peak = measure_fma_peak();
  PeerRun peer;
  if (flags.compare) {
    std::fprintf(stderr, "generate: Hugging Face transformers, best of %d runs per batch ...\n", flags.repeats);
    peer = hugging_face_seconds(model.config, file.config, flags);
  }

  print_model_line(file, model);
  const std::string runs = flags.repeats == 1 ? "one run" : "best of " + std::to_string(flags.repeats) + " runs";
  std::printf("prompt %lld tokens, %lld decode steps, %s cache, %d threads; %s per batch and side\n",
              static_cast<long long>(flags.prompt), static_cast<long long>(flags.tokens),
              flags.paged ? ("paged (" + std::to_string(flags.page_size) + "-token pages)").c_str() : "contiguous",
              flags.threads, runs.c_str());
  if (flags.compare && peer.why_not.empty())
    std::printf(
        "Hugging Face: GPT2LMHeadModel of the same shape, random weights, fp32, greedy through its KV cache, "
        "torch.set_num_threads(%d), inference_mode; %s\n",
        flags.threads, peer.versions.c_str());
  std::printf(
      "roofline: a02's FLOPs and bytes per step (weights, KV cache at %.0f tokens, activations) against the "
      "read bandwidth measured beside each batch's runs (before each and after the last, the highest is the "
      "row's: %.1f to %.1f GB/s here; %.1f GB/s, copy %.1f GB/s, before them all), and the fp32 FMA peak "
      "measured now, %.1f GFLOP/s (%d threads; `lab bench peak`): the slower of the two is the roof\n\n",
      mean_cached_tokens(flags), slowest / 1e9, fastest / 1e9, measured.read_bytes_per_s / 1e9,
      measured.copy_bytes_per_s / 1e9, peak.flops_per_s / 1e9, peak.threads);
  std::printf(
      "| batch | rooflab tokens/s | ms per step | Hugging Face tokens/s | rooflab / Hugging Face | rooflab "
      "GFLOP/s | of the FMA peak | read GB/s beside it | memory bound tokens/s | FMA bound tokens/s | rooflab "
      "of the roof |\n|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  for (const std::int64_t batch : flags.batches) {
    const BatchRuns& runs = timed[batch];
    const double tokens = static_cast<double>(flags.tokens * batch);
    const double ours = tokens / runs.seconds;
    const a02_transformer_costs::Cost cost = step_cost(file.config, flags, batch, model);
    const double flops_per_token = cost.flops / static_cast<double>(batch);
    const double memory_bound = runs.read_bytes_per_s / cost.bytes * static_cast<double>(batch);
    const double fma_bound = peak.flops_per_s / flops_per_token;
    std::printf("| %lld | %.1f | %.1f | ", static_cast<long long>(batch), ours,
                1e3 * runs.seconds / static_cast<double>(flags.tokens));
    if (const auto found = peer.seconds.find(batch); found != peer.seconds.end())
      std::printf("%.1f | %.2f | ", tokens / found->second, found->second / runs.seconds);
    else
      std::printf("— | — | ");
    std::printf("%.1f | %.0f %% | %.1f | %.1f | %.1f | %.0f %% |\n", ours * flops_per_token / 1e9,
                100 * ours * flops_per_token / peak.flops_per_s, runs.read_bytes_per_s / 1e9, memory_bound, fma_bound,
                100 * ours / std::min(memory_bound, fma_bound));
  }
  if (flags.compare && !peer.why_not.empty()) std::printf("\nHugging Face: %s.\n", peer.why_not.c_str());
  return 0;
}

int run_generate(GenerateFlags flags, bool batch_given) {
  if (flags.threads <= 0) throw std::invalid_argument("--threads: must be positive");
  if (flags.repeats <= 0) throw std::invalid_argument("--repeats: must be positive");
  for (const std::int64_t batch : flags.batches)
    if (batch <= 0) throw std::invalid_argument("--batches: each batch must be positive, not " + std::to_string(batch));
  const bool table = flags.compare || !flags.batches.empty();
  if (table && flags.batches.empty())
    flags.batches = batch_given ? std::vector<std::int64_t>{flags.batch} : std::vector<std::int64_t>{1, 8, 32};

  const analyze::ModelFile file = analyze::find_model(flags.models_dir, flags.model_name);
  const ModelConfig config = model_config(file.config);
  if (flags.prompt + flags.tokens > config.context)
    throw CLI::ValidationError(
        "--tokens", "--prompt-length plus --tokens exceed the model's context of " + std::to_string(config.context));

  // Every measurement, the bandwidth's too, at the same thread count as the peer.
  omp_set_num_threads(flags.threads);
  std::fprintf(stderr, "generate: building %s with random weights ...\n", file.path.filename().c_str());
  const a06_kv_cache_decode::Model model =
      a06_kv_cache_decode::with_weight_format(a06_kv_cache_decode::random_model(config, 1), flags.format);
  std::fprintf(stderr, "generate: measuring the bandwidth ...\n");
  const Bandwidth measured = measure_bandwidth();
  return table ? run_table(flags, file, model, measured) : run_single(flags, file, model, measured);
}

}  // namespace

void add_generate(CLI::App& app, int& exit_code) {
  auto flags = std::make_shared<GenerateFlags>();
  flags->models_dir = (kSourceDir / "tools" / "models").string();
  CLI::App* command = app.add_subcommand(
      "generate",
      "decode a model (random fp32 weights) with a06's KV cache and compare tokens/s with the roofline bound and, "
      "with --compare, with Hugging Face transformers; with --weights DIR --prompt TEXT, a GPT-2 checkpoint's "
      "continuation as text (--draft: speculative decoding beside it)");
  command->add_option("--model", flags->model_name, "a name from the models folder, or a .toml path (default gpt2)");
  command->add_option("--tokens", flags->tokens, "decode steps to time (default 32)")->check(CLI::PositiveNumber);
  CLI::Option* batch = command->add_option("--batch", flags->batch, "sequences decoded together (default 1)")
                           ->check(CLI::PositiveNumber);
  command
      ->add_option("--batches", flags->batches,
                   "a table with one row per batch size, e.g. 1,8,32 (the default with --compare)")
      ->delimiter(',')
      ->excludes(batch);
  command->add_flag("--compare", flags->compare,
                    "beside each row, Hugging Face transformers' GPT2LMHeadModel decoding the same shape with its KV "
                    "cache at the same thread count (PyTorch and transformers: ./lab peers); with --weights, its "
                    "greedy continuation of the same folder, which must agree token for token");
  command->add_option("--threads", flags->threads, "threads for rooflab (OpenMP) and Hugging Face (default 2)");
  command->add_option("--repeats", flags->repeats,
                      "with a table: timed runs per batch and side, the best kept (default 3)");
  command->add_option("--prompt-length", flags->prompt, "prompt tokens before the timed steps (default 8)")
      ->check(CLI::PositiveNumber);
  command->add_flag("--paged", flags->paged, "the paged cache instead of the contiguous one");
  CLI::Option* format =
      command
          ->add_option("--weight-format", flags->format,
                       "fp32 (default), or fp16 or bf16: the matrices and the token embedding held in 16 bits and "
                       "widened as the kernels read them, half the bytes a step reads (Hugging Face stays fp32)")
          ->transform(CLI::CheckedTransformer(
              std::map<std::string, a06_kv_cache_decode::WeightFormat>{
                  {"fp32", a06_kv_cache_decode::WeightFormat::f32},
                  {"fp16", a06_kv_cache_decode::WeightFormat::f16},
                  {"bf16", a06_kv_cache_decode::WeightFormat::bf16}},
              CLI::ignore_case));
  command->add_option("--page-size", flags->page_size, "tokens per page with --paged (default 16)")
      ->check(CLI::PositiveNumber);
  command->add_option("--models-dir", flags->models_dir, "folder of model .toml files (default: tools/models)");
  // A real checkpoint instead of a random model of a shape: text in, text out.
  auto text = std::make_shared<TextGenerationFlags>();
  CLI::Option* weights =
      command
          ->add_option("--weights", text->weights,
                       "a Hugging Face GPT-2 folder (config.json, model.safetensors, vocab.json and merges.txt or "
                       "tokenizer.json; fp32, fp16 or bf16): decode --prompt with it and print the text, e.g. "
                       "data/checkpoints/tiny-gpt2")
          ->check(CLI::ExistingDirectory);
  command->add_option("--prompt", text->prompt, "with --weights: the text to continue")->needs(weights);
  command->add_option("--temperature", text->sampling.temperature, "with --weights: 0 (default) greedy, else sample")
      ->needs(weights);
  command->add_option("--top-k", text->sampling.top_k, "with --weights: sample among the k most likely (0: all)")
      ->needs(weights);
  command->add_option("--top-p", text->sampling.top_p, "with --weights: sample in the smallest set of probability p")
      ->needs(weights);
  command->add_option("--seed", text->sampling.seed, "with --weights: the sampler's seed (default 0)")->needs(weights);
  CLI::Option* draft =
      command
          ->add_option("--draft", text->draft,
                       "with --weights: a smaller checkpoint of the same vocabulary; speculative decoding beside plain "
                       "decoding, e.g. data/checkpoints/tiny-gpt2-draft")
          ->needs(weights)
          ->check(CLI::ExistingDirectory);
  command->add_option("--speculate", text->speculate, "with --draft: proposals per target pass (default 4)")
      ->needs(draft)
      ->check(CLI::PositiveNumber);
  command
      ->add_flag("--fp32-weights", text->fp32_weights,
                 "with --weights: widen fp16 or bf16 weights to fp32 in memory (default: kept 16-bit, half the "
                 "bytes a step reads)")
      ->needs(weights);
  for (const char* name : {"--batches", "--batch", "--model", "--paged", "--prompt-length"})
    weights->excludes(command->get_option(name));
  weights->excludes(format);
  command->callback([flags, text, weights, batch, &exit_code] {
    // Decoding uses every thread it is given (OpenMP): tokens/s measured while other
    // processes ran says little, and the run says so (rooflab/machine_load.hpp).
    const LoadWatch watch;
    if (weights->count() > 0) {
      TextGenerationFlags run = *text;
      run.tokens = flags->tokens;
      run.threads = flags->threads;
      run.repeats = flags->repeats;
      run.compare = flags->compare;
      run.draft = text->draft;
      run.speculate = text->speculate;
      exit_code = run_text_generation(run);
    } else {
      exit_code = run_generate(*flags, batch->count() > 0);
    }
    watch.warn_if_busy(std::cerr, flags->threads);
  });
}

}  // namespace rooflab::cli
