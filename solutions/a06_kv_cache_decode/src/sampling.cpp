// a06_kv_cache_decode, part 5: sampling, and speculative decoding's rule.
#include "a06_kv_cache_decode/sampling.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

#include "rooflab/not_implemented.hpp"

namespace a06_kv_cache_decode {

// BEGIN SOLUTION
namespace {

void require_uniform(double u, const char* name) {
  if (!(u >= 0 && u < 1))
    throw std::invalid_argument(std::string(name) + ": " + std::to_string(u) + " is not in [0, 1)");
}

// Every entry a probability's sign: not negative, not NaN.
void require_nonnegative(const std::vector<double>& p, const char* name) {
  for (std::size_t v = 0; v < p.size(); ++v)
    if (!(p[v] >= 0))
      throw std::invalid_argument(std::string(name) + ": entry " + std::to_string(v) + " is " + std::to_string(p[v]) +
                                  ", not a probability");
}

}  // namespace
// END SOLUTION

std::vector<double> next_token_probabilities(const std::vector<float>& logits, const Sampling& sampling) {
  // BEGIN SOLUTION
  if (logits.empty()) throw std::invalid_argument("logits: empty, no token to choose");
  for (std::size_t v = 0; v < logits.size(); ++v)
    if (std::isnan(logits[v])) throw std::invalid_argument("logits: token " + std::to_string(v) + "'s is NaN");
  if (!(sampling.temperature >= 0) || !std::isfinite(sampling.temperature))
    throw std::invalid_argument("temperature: must be 0 (greedy) or positive, not " +
                                std::to_string(sampling.temperature));
  if (sampling.top_k < 0)
    throw std::invalid_argument("top_k: must be 0 (every token) or positive, not " + std::to_string(sampling.top_k));
  if (!(sampling.top_p > 0 && sampling.top_p <= 1))
    throw std::invalid_argument("top_p: must be in (0, 1], not " + std::to_string(sampling.top_p));
  std::vector<double> p(logits.size(), 0.0);
  if (sampling.temperature == 0) {
    p[static_cast<std::size_t>(std::max_element(logits.begin(), logits.end()) - logits.begin())] = 1;
    return p;
  }
  // Most likely first, the lower id first among equals: the order both cuts read.
  std::vector<std::size_t> order(logits.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return logits[a] > logits[b]; });
  std::size_t kept = order.size();
  if (sampling.top_k > 0) kept = std::min(kept, static_cast<std::size_t>(sampling.top_k));
  // softmax(logit / T) over the kept tokens, shifted by the largest for
  // range: the top-k cut renormalises, as a softmax after it would.
  const double top = logits[order.front()] / sampling.temperature;
  double total = 0;
  for (std::size_t i = 0; i < kept; ++i)
    total += (p[order[i]] = std::exp(logits[order[i]] / sampling.temperature - top));
  // Top-p: the smallest prefix whose probability reaches p (at least one token).
  if (sampling.top_p < 1) {
    double cumulative = 0;
    std::size_t prefix = 0;
    while (prefix < kept) {
      cumulative += p[order[prefix++]] / total;
      if (cumulative >= sampling.top_p) break;
    }
    for (std::size_t i = prefix; i < kept; ++i) p[order[i]] = 0;
    kept = prefix;
    total = 0;
    for (std::size_t i = 0; i < kept; ++i) total += p[order[i]];
  }
  for (double& value : p) value /= total;
  return p;
  // END SOLUTION
}

std::int64_t draw_token(const std::vector<double>& probabilities, double u) {
  // BEGIN SOLUTION
  if (probabilities.empty()) throw std::invalid_argument("probabilities: empty, no token to draw");
  require_nonnegative(probabilities, "probabilities");
  if (std::all_of(probabilities.begin(), probabilities.end(), [](double p) { return p == 0; }))
    throw std::invalid_argument("probabilities: all zero, no token to draw");
  require_uniform(u, "u");
  double cumulative = 0;
  std::int64_t last = 0;
  for (std::size_t v = 0; v < probabilities.size(); ++v) {
    if (probabilities[v] == 0) continue;
    cumulative += probabilities[v];
    last = static_cast<std::int64_t>(v);
    if (u < cumulative) return last;
  }
  return last;  // u within rounding of the total: the last token with any probability
  // END SOLUTION
}

ProposalCheck check_proposal(const std::vector<double>& target, const std::vector<double>& draft, std::int64_t proposal,
                             double accept_u, double residual_u) {
  // BEGIN SOLUTION
  if (target.empty()) throw std::invalid_argument("target: empty, no token");
  require_nonnegative(target, "target");
  if (draft.size() != target.size())
    throw std::invalid_argument("draft: " + std::to_string(draft.size()) + " tokens, the other distribution " +
                                std::to_string(target.size()));
  require_nonnegative(draft, "draft");
  if (proposal < 0 || proposal >= static_cast<std::int64_t>(draft.size()))
    throw std::invalid_argument("proposal: token " + std::to_string(proposal) + " is not one of the " +
                                std::to_string(draft.size()));
  const auto x = static_cast<std::size_t>(proposal);
  if (draft[x] == 0)
    throw std::invalid_argument("proposal: token " + std::to_string(proposal) +
                                " has probability 0 where it was drawn (q), so it cannot have been proposed");
  require_uniform(accept_u, "accept_u");
  require_uniform(residual_u, "residual_u");
  // Keep x with probability min(1, p(x)/q(x)): where the draft asks for less
  // than the target wants, always.
  if (accept_u < std::min(1.0, target[x] / draft[x])) return {true, proposal};
  // Else draw from where the target wants more than the draft gave,
  // max(0, p − q) renormalised: together with the kept proposals that is p.
  std::vector<double> residual(target.size());
  double total = 0;
  for (std::size_t v = 0; v < target.size(); ++v) total += (residual[v] = std::max(0.0, target[v] - draft[v]));
  if (total <= 0) return {false, draw_token(target, residual_u)};  // p = q: rounding rejected; p itself
  for (double& value : residual) value /= total;
  return {false, draw_token(residual, residual_u)};
  // END SOLUTION
}

}  // namespace a06_kv_cache_decode
