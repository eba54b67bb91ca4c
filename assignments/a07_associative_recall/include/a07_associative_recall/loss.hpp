// The loss the model trains on: cross-entropy of the logits at the answer
// position against the right value token, averaged over the batch, and its
// gradient (docs/08_associative_recall.md).
#pragma once

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace a07_associative_recall {

struct CrossEntropy {
  double loss = 0;              // (1/R) Σ_r −log softmax(logits_r)[targets_r]
  std::vector<float> d_logits;  // ∂loss/∂logits, (R × vocab): (softmax(logits_r) − onehot(targets_r)) / R
};

// Cross-entropy of R = targets.size() rows of logits (R × vocab, row-major).
// It must hold for any finite logits, 1e4 or −1e4 included: compute
// log Σ exp with the row's maximum taken out first.
// Validation (require_cross_entropy_inputs below, provided): std::invalid_argument
// whose message starts with the culprit's name and names no other of vocab,
// logits, targets:
//   vocab    not positive
//   targets  empty, or a target outside [0, vocab)
//   logits   not R·vocab values, or one not finite
CrossEntropy cross_entropy(const std::vector<float>& logits, std::int64_t vocab,
                           const std::vector<std::int64_t>& targets);

inline void require_cross_entropy_inputs(const std::vector<float>& logits, std::int64_t vocab,
                                         const std::vector<std::int64_t>& targets) {
  if (vocab <= 0) throw std::invalid_argument("vocab: must be positive");
  if (targets.empty()) throw std::invalid_argument("targets: at least one row is needed");
  for (std::size_t r = 0; r < targets.size(); ++r)
    if (targets[r] < 0 || targets[r] >= vocab)
      throw std::invalid_argument("targets: row " + std::to_string(r) + " names class " + std::to_string(targets[r]) +
                                  ", outside [0, " + std::to_string(vocab) + ")");
  const auto rows = static_cast<std::int64_t>(targets.size());
  if (static_cast<std::int64_t>(logits.size()) != rows * vocab)
    throw std::invalid_argument("logits: holds " + std::to_string(logits.size()) + " values, " + std::to_string(rows) +
                                " rows of " + std::to_string(vocab) + " are needed");
  for (std::size_t i = 0; i < logits.size(); ++i)
    if (!std::isfinite(logits[i])) throw std::invalid_argument("logits: value " + std::to_string(i) + " is not finite");
}

}  // namespace a07_associative_recall
