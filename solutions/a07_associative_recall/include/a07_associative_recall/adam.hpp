// Adam (Kingma and Ba, 2015): the optimiser that trains the model. Each
// parameter keeps two running averages, of its gradient (m) and of its
// gradient squared (v), corrected for their start at zero
// (docs/08_associative_recall.md).
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>

namespace a07_associative_recall {

struct AdamConfig {
  double learning_rate = 3e-3;
  double beta1 = 0.9, beta2 = 0.999;
  double epsilon = 1e-8;
};

// Update number `step` (1 for the first) of every parameter i, in place:
//   m_i ← β1·m_i + (1 − β1)·g_i          v_i ← β2·v_i + (1 − β2)·g_i²
//   m̂ = m_i / (1 − β1^step)              v̂ = v_i / (1 − β2^step)
//   p_i ← p_i − learning_rate · m̂ / (√v̂ + ε)
// Validation (require_adam_inputs below, provided): std::invalid_argument whose
// message starts with the culprit's name and names no other of params, grads,
// m, v, config, step:
//   grads, m, v  not as many values as params
//   step         below 1
//   config       a learning rate or ε not positive, a β outside [0, 1)
void adam_update(std::span<float> params, std::span<const float> grads, std::span<float> m, std::span<float> v,
                 const AdamConfig& config, std::int64_t step);

inline void require_adam_inputs(std::size_t params, std::size_t grads, std::size_t m, std::size_t v,
                                const AdamConfig& config, std::int64_t step) {
  const auto same = [params](std::size_t size, const char* name) {
    if (size != params)
      throw std::invalid_argument(std::string(name) + ": holds " + std::to_string(size) +
                                  " values, one per parameter (" + std::to_string(params) + ") is needed");
  };
  same(grads, "grads");
  same(m, "m");
  same(v, "v");
  if (step < 1) throw std::invalid_argument("step: counts from 1");
  if (!(config.learning_rate > 0) || !(config.epsilon > 0))
    throw std::invalid_argument("config: learning_rate and epsilon must be positive");
  if (!(config.beta1 >= 0 && config.beta1 < 1) || !(config.beta2 >= 0 && config.beta2 < 1))
    throw std::invalid_argument("config: beta1 and beta2 must lie in [0, 1)");
}

}  // namespace a07_associative_recall
