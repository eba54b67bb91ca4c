#include "sampler.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
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
  for (std::int64_t v = 0; v < vocab; ++v)
    if (std::isnan(logits[v])) throw std::invalid_argument("logits: token " + std::to_string(v) + "'s is NaN");
  std::vector<double> p(static_cast<std::size_t>(vocab), 0.0);
  if (options_.temperature == 0) {
    p[static_cast<std::size_t>(argmax(logits, vocab))] = 1;
    return p;
  }
  // Most likely first, the lower id first among equals: the order both cuts read.
  std::vector<std::int64_t> order(static_cast<std::size_t>(vocab));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) { return logits[a] > logits[b]; });
  std::size_t kept = order.size();
  if (options_.top_k > 0) kept = std::min(kept, static_cast<std::size_t>(options_.top_k));
  // Softmax of logit / temperature over the kept tokens, shifted by the
  // largest for range (the top-k cut renormalises, as a softmax after it would).
  const double top = logits[order.front()] / options_.temperature;
  double total = 0;
  for (std::size_t i = 0; i < kept; ++i) {
    const auto v = static_cast<std::size_t>(order[i]);
    p[v] = std::exp(logits[v] / options_.temperature - top);
    total += p[v];
  }
  // Top-p: the smallest prefix whose probability reaches p (at least one token).
  if (options_.top_p < 1) {
    double cumulative = 0;
    std::size_t prefix = 0;
    while (prefix < kept) {
      cumulative += p[static_cast<std::size_t>(order[prefix++])] / total;
      if (cumulative >= options_.top_p) break;
    }
    for (std::size_t i = prefix; i < kept; ++i) p[static_cast<std::size_t>(order[i])] = 0;
    kept = prefix;
    total = 0;
    for (std::size_t i = 0; i < kept; ++i) total += p[static_cast<std::size_t>(order[i])];
  }
  for (double& value : p) value /= total;
  return p;
}

std::int64_t draw_from(const std::vector<double>& p, double u) {
  double cumulative = 0;
  std::int64_t last = 0;
  for (std::size_t v = 0; v < p.size(); ++v) {
    if (p[v] == 0) continue;
    cumulative += p[v];
    last = static_cast<std::int64_t>(v);
    if (u < cumulative) return last;
  }
  return last;  // u within rounding of the total: the last token with any probability
}

std::int64_t Sampler::next(const float* logits, std::int64_t vocab) {
  if (options_.temperature == 0) return argmax(logits, vocab);
  return draw_from(distribution(logits, vocab), random_.uniform());  // one uniform per token drawn
}

}  // namespace rooflab::decode
