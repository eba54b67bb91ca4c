// `rooflab generate --weights DIR --prompt TEXT`: a Hugging Face GPT-2 folder
// (decode/gpt2_checkpoint.hpp) decodes a prompt through a06's KV cache and
// prints the continuation as text, with its speed beside the memory bound
// for the weights it reads (fp32 in memory, whatever the file's dtype).
#include "generate_text.hpp"

#include <omp.h>

#include <cstdio>
#include <stdexcept>

#include "commands.hpp"
#include "gpt2_checkpoint.hpp"
#include "rooflab/bandwidth.hpp"
#include "rooflab/bpe_tokenizer.hpp"
#include "text_generation.hpp"

namespace rooflab::cli {
namespace {

std::size_t model_floats(const a06_kv_cache_decode::Model& model) {
  std::size_t floats = model.token_embedding.size() + model.position_embedding.size() + model.final_scale.size() +
                       model.final_shift.size();
  for (const auto& layer : model.layers)
    for (const auto* weights :
         {&layer.norm1_scale, &layer.norm1_shift, &layer.qkv, &layer.qkv_bias, &layer.out, &layer.out_bias,
          &layer.norm2_scale, &layer.norm2_shift, &layer.up, &layer.up_bias, &layer.down, &layer.down_bias})
      floats += weights->size();
  return floats;
}

std::string sampling_line(const decode::SamplingOptions& options) {
  if (options.temperature == 0) return "greedy (the largest logit)";
  char line[160];
  std::snprintf(line, sizeof line, "temperature %g, top-k %lld, top-p %g, seed %llu", options.temperature,
                static_cast<long long>(options.top_k), options.top_p, static_cast<unsigned long long>(options.seed));
  return line;
}

}  // namespace

int run_text_generation(const TextGenerationFlags& flags) {
  if (flags.prompt.empty()) throw CLI::ValidationError("--prompt", "give a text to continue (with --weights)");
  if (flags.threads <= 0) throw std::invalid_argument("--threads: must be positive");
  decode::check_sampling_options(flags.sampling);
  omp_set_num_threads(flags.threads);
  std::fprintf(stderr, "generate: reading %s ...\n", flags.weights.c_str());
  const decode::Gpt2Checkpoint checkpoint = decode::load_gpt2_checkpoint(flags.weights);
  const BpeTokenizer tokenizer = BpeTokenizer::from_folder(flags.weights);
  const a06_kv_cache_decode::ModelConfig& config = checkpoint.model.config;
  if (tokenizer.vocab_size() > config.vocab)
    throw std::runtime_error(flags.weights.string() + ": the tokenizer has " + std::to_string(tokenizer.vocab_size()) +
                             " tokens, more than config.json's vocab_size " + std::to_string(config.vocab));
  const std::vector<std::int64_t> prompt = tokenizer.encode(flags.prompt);
  if (static_cast<std::int64_t>(prompt.size()) + flags.tokens > config.context)
    throw CLI::ValidationError("--tokens", "the prompt's " + std::to_string(prompt.size()) + " tokens and " +
                                               std::to_string(flags.tokens) + " new ones pass the model's context of " +
                                               std::to_string(config.context));
  decode::Sampler sampler(flags.sampling);
  const decode::Continuation continuation = decode::continue_prompt(checkpoint.model, prompt, flags.tokens, sampler);
  std::fprintf(stderr, "generate: measuring the bandwidth ...\n");
  const Bandwidth measured = measure_bandwidth();

  const double weight_bytes = 4.0 * static_cast<double>(model_floats(checkpoint.model));
  // Each step reads every weight once and the cache once: its mean length over the new tokens' steps.
  const double mean_cached = static_cast<double>(prompt.size()) + static_cast<double>(flags.tokens - 1) / 2;
  const double cache_bytes =
      2.0 * static_cast<double>(config.layers * config.kv_heads * config.head_dim()) * 4.0 * mean_cached;
  const double steps = static_cast<double>(std::max<std::int64_t>(flags.tokens - 1, 1));
  const double tokens_per_s = steps / std::max(continuation.decode_s, 1e-9);
  const double bound = measured.read_bytes_per_s / (weight_bytes + cache_bytes);

  std::printf("code: %s\n", kWhoseCode);
  std::printf(
      "checkpoint %s: %lld layers, d_model %lld, %lld heads, vocabulary %lld, context %lld; %s weights in "
      "the file (%.2f MB), fp32 in memory (%.2f MB)\n",
      flags.weights.c_str(), static_cast<long long>(config.layers), static_cast<long long>(config.d_model),
      static_cast<long long>(config.heads), static_cast<long long>(config.vocab),
      static_cast<long long>(config.context), to_string(checkpoint.stored_dtype),
      static_cast<double>(checkpoint.stored_weight_bytes) / 1e6, weight_bytes / 1e6);
  std::printf("sampling: %s; %d threads\n\n", sampling_line(flags.sampling).c_str(), flags.threads);
  std::printf("prompt (%zu tokens): %s\n", prompt.size(), flags.prompt.c_str());
  std::printf("continuation (%zu tokens): %s\n\n", continuation.tokens.size(),
              tokenizer.decode(continuation.tokens).c_str());
  std::printf("| measure | value |\n|---|---:|\n");
  std::printf("| decode speed | %.1f tokens/s (%.3f ms per step) |\n", tokens_per_s, 1e3 / tokens_per_s);
  std::printf("| bytes read per step: fp32 weights, KV cache at %.0f tokens | %.2f MB |\n", mean_cached,
              (weight_bytes + cache_bytes) / 1e6);
  std::printf("| read bandwidth (a sum over 256 MiB), measured now | %.1f GB/s |\n", measured.read_bytes_per_s / 1e9);
  std::printf("| memory bound: bandwidth / bytes per step | %.1f tokens/s |\n", bound);
  std::printf("| achieved / bound | %.0f %% |\n", 100 * tokens_per_s / bound);
  if (weight_bytes + cache_bytes < 64e6)
    std::printf(
        "\nThese weights fit in this machine's caches: a step reads them from there, faster than from memory, so "
        "the achieved speed can pass the memory bound. A real GPT-2 (124M weights and up) cannot.\n");
  return 0;
}

}  // namespace rooflab::cli
