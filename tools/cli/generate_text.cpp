// `rooflab generate --weights DIR --prompt TEXT`: a Hugging Face GPT-2 folder
// (decode/gpt2_checkpoint.hpp) decodes a prompt through a06's KV cache and
// prints the continuation as text, with its speed beside the memory bound
// for the weights it reads (fp32 in memory, whatever the file's dtype).
// With --compare, transformers decodes the same prompt ids greedily from the
// same folder (decode/hf_generate.py) first: the two continuations must agree
// token for token (else the run fails, naming the first difference), and the
// table gains its tokens/s. With --draft DIR2 --speculate K, speculative
// decoding (decode/speculative.hpp) beside plain decoding: the acceptance
// rate, tokens per target pass, both speeds, and a02's predicted speed-up for
// the measured acceptance rate and cost ratio; greedy, its output must be
// plain greedy decoding's, token for token.
#include "generate_text.hpp"

#include <omp.h>

#include <cstdio>
#include <cstring>
#include <sstream>
#include <stdexcept>

#include "a02_transformer_costs/a02_transformer_costs.hpp"
#include "commands.hpp"
#include "gpt2_checkpoint.hpp"
#include "rooflab/bandwidth.hpp"
#include "rooflab/bpe_tokenizer.hpp"
#include "speculative.hpp"
#include "text_generation.hpp"
#include "torch_python.hpp"

namespace rooflab::cli {
namespace {

std::string sampling_line(const decode::SamplingOptions& options) {
  if (options.temperature == 0) return "greedy (the largest logit)";
  char line[160];
  std::snprintf(line, sizeof line, "temperature %g, top-k %lld, top-p %g, seed %llu", options.temperature,
                static_cast<long long>(options.top_k), options.top_p, static_cast<unsigned long long>(options.seed));
  return line;
}

// What hf_generate.py printed: its continuation and the best time of its
// steps, or why there is none.
struct PeerContinuation {
  std::vector<std::int64_t> tokens;
  double seconds = 0;
  std::string versions, why_not;
};

PeerContinuation hugging_face_continuation(const TextGenerationFlags& flags, const std::vector<std::int64_t>& prompt) {
  PeerContinuation peer;
  const std::optional<std::string> python = bench::torch_python();
  if (!python) {
    peer.why_not = bench::how_to_get_torch();
    return peer;
  }
  std::string ids;
  for (const std::int64_t id : prompt) ids += (ids.empty() ? "" : ",") + std::to_string(id);
  const std::string command = bench::shell_quoted(*python) + " " +
                              bench::shell_quoted((kSourceDir / "tools" / "decode" / "hf_generate.py").string()) + " " +
                              bench::shell_quoted(flags.weights.string()) + " --ids " + ids + " --tokens " +
                              std::to_string(flags.tokens) + " --threads " + std::to_string(flags.threads) +
                              " --repeats " + std::to_string(flags.repeats);
  const int status = bench::run_peer(command, [&](const std::string& line) {
    std::istringstream words(line);
    std::string key;
    words >> key;
    if (key == "tokens") {
      for (std::int64_t id = 0; words >> id;) peer.tokens.push_back(id);
    } else if (key == "seconds") {
      words >> peer.seconds;
    } else if (key == "versions") {
      peer.versions = line.substr(9);
    } else if (key == "missing") {
      peer.why_not = line.substr(8) + " is not installed for " + *python + "; run ./lab peers";
    }
  });
  if (status == -1 && peer.why_not.empty()) peer.why_not = "could not start " + *python;
  if (peer.why_not.empty() && (status != 0 || peer.seconds <= 0))
    peer.why_not = "tools/decode/hf_generate.py failed (its messages are above)";
  return peer;
}

// The first position where the two continuations differ, as a sentence.
std::string first_difference(const std::vector<std::int64_t>& ours, const std::vector<std::int64_t>& theirs,
                             const BpeTokenizer& tokenizer) {
  std::size_t i = 0;
  while (i < ours.size() && i < theirs.size() && ours[i] == theirs[i]) ++i;
  const auto token = [&](const std::vector<std::int64_t>& ids) {
    return i < ids.size() ? std::to_string(ids[i]) + " (\"" + tokenizer.decode({ids[i]}) + "\")" : "none";
  };
  return "token " + std::to_string(i + 1) + " differs: rooflab's " + token(ours) + ", transformers' " + token(theirs);
}

// Speculative decoding with `draft` beside plain decoding of the target (the
// time of `plain_s` for its tokens), best of `repeats` runs each; returns
// false when greedy speculative decoding strays from plain greedy decoding.
bool print_speculative(const TextGenerationFlags& flags, const a06_kv_cache_decode::Model& target,
                       const decode::Continuation& plain, double plain_s, const std::vector<std::int64_t>& prompt,
                       const BpeTokenizer& tokenizer) {
  const decode::Gpt2Checkpoint draft = decode::load_gpt2_checkpoint(flags.draft, !flags.fp32_weights);
  std::fprintf(stderr, "generate: speculative decoding with %s, k = %lld, best of %d runs ...\n", flags.draft.c_str(),
               static_cast<long long>(flags.speculate), flags.repeats);
  decode::SpeculativeRun run =
      decode::speculative_continue(target, draft.model, prompt, flags.tokens, flags.speculate, flags.sampling);
  for (int again = 1; again < flags.repeats; ++again)
    run.seconds = std::min(run.seconds, decode::speculative_continue(target, draft.model, prompt, flags.tokens,
                                                                     flags.speculate, flags.sampling)
                                            .seconds);
  // The draft's step against the target's: c in a02's formula, measured as
  // plain decoding of the same number of tokens with each model.
  double draft_s = 0;
  for (int again = 0; again < flags.repeats; ++again) {
    decode::Sampler sampler(flags.sampling);
    const double s = decode::continue_prompt(draft.model, prompt, flags.tokens, sampler).decode_s;
    draft_s = again == 0 ? s : std::min(draft_s, s);
  }
  const double alpha = run.acceptance_rate(), c = draft_s / std::max(plain_s, 1e-12);
  const double k = static_cast<double>(flags.speculate);
  const double predicted = a02_transformer_costs::speculative_speedup(std::min(alpha, 1.0), k, c);
  const double tokens = static_cast<double>(flags.tokens);
  std::printf("\nspeculative decoding: draft %s (layers %lld, d_model %lld), %lld proposals per target pass\n\n",
              flags.draft.c_str(), static_cast<long long>(draft.model.config.layers),
              static_cast<long long>(draft.model.config.d_model), static_cast<long long>(flags.speculate));
  std::printf("| measure | value |\n|---|---:|\n");
  std::printf("| acceptance rate α (%lld of %lld proposals) | %.3f |\n", static_cast<long long>(run.accepted),
              static_cast<long long>(run.proposed), alpha);
  std::printf("| tokens per target pass (%lld passes) | %.2f |\n", static_cast<long long>(run.target_passes),
              run.tokens_per_pass());
  // a02 takes each proposal as accepted alone with probability α; a draft
  // that is right in runs yields more per pass than that predicts.
  std::printf("| tokens per target pass, a02's prediction (1 − α^(k+1)) / (1 − α) | %.2f |\n",
              a02_transformer_costs::expected_tokens_per_pass(std::min(alpha, 1.0), k));
  std::printf("| draft step / target step, c (plain decoding of %lld tokens with each) | %.3f |\n",
              static_cast<long long>(flags.tokens), c);
  std::printf("| plain decoding | %.1f tokens/s |\n", tokens / std::max(plain_s, 1e-12));
  std::printf("| speculative decoding | %.1f tokens/s |\n", tokens / std::max(run.seconds, 1e-12));
  std::printf("| speed-up, measured | %.2f× |\n", plain_s / std::max(run.seconds, 1e-12));
  std::printf("| speed-up, a02's prediction (1 − α^(k+1)) / ((1 − α)(k·c + 1)) | %.2f× |\n", predicted);
  if (flags.sampling.temperature != 0) {
    std::printf("\nspeculative continuation (the target's distribution, other draws): %s\n",
                tokenizer.decode(run.tokens).c_str());
    return true;
  }
  const bool same = run.tokens == plain.tokens;
  std::printf("\nspeculative greedy output: %s\n",
              same ? "plain greedy decoding's, token for token"
                   : ("differs: " + first_difference(run.tokens, plain.tokens, tokenizer)).c_str());
  return same;
}

}  // namespace

int run_text_generation(const TextGenerationFlags& flags) {
  if (flags.prompt.empty()) throw CLI::ValidationError("--prompt", "give a text to continue (with --weights)");
  if (flags.threads <= 0) throw std::invalid_argument("--threads: must be positive");
  decode::check_sampling_options(flags.sampling);
  if (flags.compare && flags.sampling.temperature != 0)
    throw CLI::ValidationError("--compare", "checks greedy decoding token for token: drop --temperature");
  omp_set_num_threads(flags.threads);
  std::fprintf(stderr, "generate: reading %s ...\n", flags.weights.c_str());
  const decode::Gpt2Checkpoint checkpoint = decode::load_gpt2_checkpoint(flags.weights, !flags.fp32_weights);
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
  // rooflab's time: the best of --repeats runs with --compare or --draft, as the others'.
  double decode_s = continuation.decode_s;
  for (int run = 1; (flags.compare || !flags.draft.empty()) && run < flags.repeats; ++run) {
    decode::Sampler again(flags.sampling);
    decode_s = std::min(decode_s, decode::continue_prompt(checkpoint.model, prompt, flags.tokens, again).decode_s);
  }
  PeerContinuation peer;
  if (flags.compare) {
    std::fprintf(stderr, "generate: Hugging Face transformers on the same folder, best of %d runs ...\n",
                 flags.repeats);
    peer = hugging_face_continuation(flags, prompt);
  }
  std::fprintf(stderr, "generate: measuring the bandwidth ...\n");
  const Bandwidth measured = measure_bandwidth();

  // The weights as they are held: 16-bit ones at two bytes, so their bound is twice fp32's.
  const double weight_bytes = static_cast<double>(a06_kv_cache_decode::weight_bytes(checkpoint.model));
  const char* held = a06_kv_cache_decode::weight_format_name(checkpoint.model.format);
  // Each step reads every weight once and the cache once: its mean length over the new tokens' steps.
  const double mean_cached = static_cast<double>(prompt.size()) + static_cast<double>(flags.tokens - 1) / 2.0;
  const double cache_bytes =
      2.0 * static_cast<double>(config.layers * config.kv_heads * config.head_dim()) * 4.0 * mean_cached;
  const double steps = static_cast<double>(flags.tokens);  // one step per new token (text_generation.hpp)
  const double tokens_per_s = steps / std::max(decode_s, 1e-9);
  const double bound = measured.read_bytes_per_s / (weight_bytes + cache_bytes);

  std::printf("code: %s\n", kWhoseCode);
  std::printf(
      "checkpoint %s: %lld layers, d_model %lld, %lld heads, vocabulary %lld, context %lld; %s weights in "
      "the file (%.2f MB), %s in memory (%.2f MB%s)\n",
      flags.weights.c_str(), static_cast<long long>(config.layers), static_cast<long long>(config.d_model),
      static_cast<long long>(config.heads), static_cast<long long>(config.vocab),
      static_cast<long long>(config.context), to_string(checkpoint.stored_dtype),
      static_cast<double>(checkpoint.stored_weight_bytes) / 1e6, held, weight_bytes / 1e6,
      checkpoint.model.format == a06_kv_cache_decode::WeightFormat::f32
          ? ""
          : ", the matrices and the token embedding; widened to fp32 as the kernels read them");
  std::printf("sampling: %s; %d threads\n\n", sampling_line(flags.sampling).c_str(), flags.threads);
  std::printf("prompt (%zu tokens): %s\n", prompt.size(), flags.prompt.c_str());
  std::printf("continuation (%zu tokens): %s\n\n", continuation.tokens.size(),
              tokenizer.decode(continuation.tokens).c_str());
  std::printf("| measure | value |\n|---|---:|\n");
  std::printf("| decode speed | %.1f tokens/s (%.3f ms per step) |\n", tokens_per_s, 1e3 / tokens_per_s);
  std::printf("| bytes read per step: %s weights, KV cache at %.0f tokens | %.2f MB |\n", held, mean_cached,
              (weight_bytes + cache_bytes) / 1e6);
  std::printf("| read bandwidth (a sum over 256 MiB), measured now | %.1f GB/s |\n", measured.read_bytes_per_s / 1e9);
  std::printf("| memory bound: bandwidth / bytes per step | %.1f tokens/s |\n", bound);
  std::printf("| achieved / bound | %.0f %% |\n", 100 * tokens_per_s / bound);
  bool agreed = true;
  if (flags.compare && peer.why_not.empty()) {
    const double theirs = steps / std::max(peer.seconds, 1e-9);
    std::printf("| Hugging Face transformers, same folder and ids, greedy through its cache | %.1f tokens/s |\n",
                theirs);
    std::printf("| rooflab / Hugging Face | %.2f |\n", tokens_per_s / theirs);
    agreed = peer.tokens == continuation.tokens;
    std::printf("\ntransformers (%s): %s\n", peer.versions.c_str(),
                agreed ? ("the same " + std::to_string(peer.tokens.size()) + " tokens, token for token").c_str()
                       : first_difference(continuation.tokens, peer.tokens, tokenizer).c_str());
  } else if (flags.compare) {
    std::printf("\nHugging Face: %s.\n", peer.why_not.c_str());
  }
  if (weight_bytes + cache_bytes < 64e6)
    std::printf(
        "\nThese weights fit in this machine's caches: a step reads them from there, faster than from memory, so "
        "the achieved speed can pass the memory bound. A real GPT-2 (124M weights and up) cannot.\n");
  if (!flags.draft.empty() && !print_speculative(flags, checkpoint.model, continuation, decode_s, prompt, tokenizer))
    agreed = false;
  return agreed ? 0 : 1;
}

}  // namespace rooflab::cli
