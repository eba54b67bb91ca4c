// a07_associative_recall, part 5: the Adam update. m and v start at 0, so
// early on they underestimate the gradient's mean and square; dividing by
// 1 − β^step (the bias correction) undoes that, and the first step moves every
// parameter by about the learning rate whatever its gradient's scale.
#include <cmath>

#include "a07_associative_recall/adam.hpp"
#include "rooflab/not_implemented.hpp"

namespace a07_associative_recall {

void adam_update(std::span<float> params, std::span<const float> grads, std::span<float> m, std::span<float> v,
                 const AdamConfig& config, std::int64_t step) {
  // BEGIN SOLUTION
  require_adam_inputs(params.size(), grads.size(), m.size(), v.size(), config, step);
  const double t = static_cast<double>(step);
  const auto beta1 = static_cast<float>(config.beta1), beta2 = static_cast<float>(config.beta2);
  // 1 − β in double first: in fp32, 1 − 0.9999 would keep only 3 or 4 digits.
  const auto keep1 = static_cast<float>(1.0 - config.beta1), keep2 = static_cast<float>(1.0 - config.beta2);
  // Bias corrections folded into the step size and ε, in double for large steps.
  const double correction1 = 1.0 - std::pow(config.beta1, t), correction2 = 1.0 - std::pow(config.beta2, t);
  const auto step_size = static_cast<float>(config.learning_rate / correction1);
  const auto inverse_root2 = static_cast<float>(1.0 / std::sqrt(correction2));
  const auto epsilon = static_cast<float>(config.epsilon);
  const std::size_t count = params.size();
#pragma omp parallel for simd schedule(static)
  for (std::size_t i = 0; i < count; ++i) {
    const float g = grads[i];
    m[i] = beta1 * m[i] + keep1 * g;
    v[i] = beta2 * v[i] + keep2 * g * g;
    params[i] -= step_size * m[i] / (std::sqrt(v[i]) * inverse_root2 + epsilon);
  }
  // END SOLUTION
}

}  // namespace a07_associative_recall
