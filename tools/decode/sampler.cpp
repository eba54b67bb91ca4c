#include "sampler.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace rooflab::decode {

void check_sampling_options(const SamplingOptions& options) {
  if (!(options.temperature >= 0) || !std::isfinite(options.temperature))
    throw std::invalid_argument("temperature: must be 0 (greedy) or positive, not " +
                                std::to_string(options.temperature));
  if (options.top_k < 0)
    throw std::invalid_argument("top_k: must be 0 (every token) or positive, not " + std::to_string(options.top_k));
  if (!(options.top_p > 0 && options.top_p <= 1))
    throw std::invalid_argument("top_p: must be in (0, 1], not " + std::to_string(options.top_p));
}

std::uint64_t SplitMix64::next() {
  std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

double SplitMix64::uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

std::int64_t argmax(const float* logits, std::int64_t vocab) {
  std::int64_t best = 0;
  for (std::int64_t v = 1; v < vocab; ++v)
    if (logits[v] > logits[best]) best = v;
  return best;
}

Sampler::Sampler(const SamplingOptions& options) : options_(options), random_(options.seed) {
  check_sampling_options(options);
}

std::vector<double> Sampler::distribution(const float* logits, std::int64_t vocab) const {
  if (vocab <= 0) throw std::invalid_argument("vocab: must be positive");
  return a06_kv_cache_decode::next_token_probabilities(std::vector<float>(logits, logits + vocab), options_);
}

std::int64_t Sampler::next(const float* logits, std::int64_t vocab) {
  if (options_.temperature == 0) return argmax(logits, vocab);
  // One uniform per token drawn.
  return a06_kv_cache_decode::draw_token(distribution(logits, vocab), random_.uniform());
}

}  // namespace rooflab::decode
