#include "text_generation.hpp"

#include <chrono>
#include <stdexcept>
#include <string>

namespace rooflab::decode {

Continuation continue_prompt(const a06_kv_cache_decode::Model& model, const std::vector<std::int64_t>& prompt,
                             std::int64_t new_tokens, Sampler& sampler) {
  using Clock = std::chrono::steady_clock;
  const std::int64_t vocab = model.config.vocab;
  if (prompt.empty()) throw std::invalid_argument("prompt: no token (an empty prompt has nothing to continue)");
  if (new_tokens < 0) throw std::invalid_argument("new_tokens: must not be negative");
  const auto length = static_cast<std::int64_t>(prompt.size()) + new_tokens;
  if (length > model.config.context)
    throw std::invalid_argument("context: the prompt's " + std::to_string(prompt.size()) + " tokens and " +
                                std::to_string(new_tokens) + " new ones pass the model's context of " +
                                std::to_string(model.config.context));
  Continuation result;
  a06_kv_cache_decode::DecodeState state = a06_kv_cache_decode::make_decode_state(model.config, 1, length, false);
  std::vector<float> logits;
  const auto start = Clock::now();
  for (std::size_t t = 0; t + 1 < prompt.size(); ++t) a06_kv_cache_decode::step(model, state, {prompt[t]});
  const auto prefilled = Clock::now();
  logits = a06_kv_cache_decode::step(model, state, {prompt.back()});
  for (std::int64_t i = 0; i < new_tokens; ++i) {
    result.tokens.push_back(sampler.next(logits.data(), vocab));
    if (i + 1 < new_tokens) logits = a06_kv_cache_decode::step(model, state, {result.tokens.back()});
  }
  result.prefill_s = std::chrono::duration<double>(prefilled - start).count();
  result.decode_s = std::chrono::duration<double>(Clock::now() - prefilled).count();
  return result;
}

}  // namespace rooflab::decode
