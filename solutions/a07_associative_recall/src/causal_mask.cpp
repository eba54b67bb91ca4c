// a07_associative_recall, part 1: the causal mask. A language model predicts
// each token from the ones before it, so query i may look at keys 0 … i only:
// the mask adds −∞ to every later key's score, and softmax turns that into a
// probability of exactly 0.
#include <cmath>
#include <stdexcept>

#include "a07_associative_recall/attention.hpp"
#include "rooflab/not_implemented.hpp"

namespace a07_associative_recall {

std::vector<float> causal_mask(std::int64_t n) {
  // BEGIN SOLUTION
  if (n <= 0) throw std::invalid_argument("n: must be positive");
  std::vector<float> mask(static_cast<std::size_t>(n * n), 0.0f);
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = i + 1; j < n; ++j) mask[static_cast<std::size_t>(i * n + j)] = -INFINITY;
  return mask;
  // END SOLUTION
}

}  // namespace a07_associative_recall
