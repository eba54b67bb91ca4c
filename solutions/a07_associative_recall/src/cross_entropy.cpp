// a07_associative_recall, part 4: cross-entropy and its gradient. For row r
// with logits z and target t:
//   loss_r = −log softmax(z)_t = log Σ_c exp(z_c − m) + m − z_t,  m = max_c z_c
//   ∂loss_r/∂z_c = softmax(z)_c − [c = t]
// averaged over the R rows (so each gradient row is divided by R). Taking the
// maximum out keeps exp() from overflowing for logits like 1e4.
#include <algorithm>
#include <cmath>

#include "a07_associative_recall/loss.hpp"
#include "rooflab/not_implemented.hpp"

namespace a07_associative_recall {

CrossEntropy cross_entropy(const std::vector<float>& logits, std::int64_t vocab,
                           const std::vector<std::int64_t>& targets) {
  // BEGIN SOLUTION
  require_cross_entropy_inputs(logits, vocab, targets);
  const auto rows = static_cast<std::int64_t>(targets.size());
  CrossEntropy result;
  result.d_logits.resize(logits.size());
  double total = 0.0;
  for (std::int64_t r = 0; r < rows; ++r) {
    const float* z = logits.data() + r * vocab;
    float* dz = result.d_logits.data() + r * vocab;
    const double m = *std::max_element(z, z + vocab);
    double sum = 0.0;
    for (std::int64_t c = 0; c < vocab; ++c) sum += std::exp(z[c] - m);
    const double log_sum = std::log(sum) + m;
    total += log_sum - z[targets[static_cast<std::size_t>(r)]];
    for (std::int64_t c = 0; c < vocab; ++c)
      dz[c] = static_cast<float>(std::exp(z[c] - log_sum) / static_cast<double>(rows));
    dz[targets[static_cast<std::size_t>(r)]] -= static_cast<float>(1.0 / static_cast<double>(rows));
  }
  result.loss = total / static_cast<double>(rows);
  return result;
  // END SOLUTION
}

}  // namespace a07_associative_recall
