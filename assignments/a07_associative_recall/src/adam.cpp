// a07_associative_recall, part 5: the Adam update. m and v start at 0, so
// early on they underestimate the gradient's mean and square; dividing by
// 1 − β^step (the bias correction) undoes that, and the first step moves every
// parameter by about the learning rate whatever its gradient's scale.

#include "a07_associative_recall/adam.hpp"
#include "rooflab/not_implemented.hpp"

namespace a07_associative_recall {

void adam_update(std::span<float> params, std::span<const float> grads, std::span<float> m, std::span<float> v,
                 const AdamConfig& config, std::int64_t step) {
  // YOUR CODE HERE
  rooflab::todo("a07_associative_recall::adam_update", params, grads, m, v, config, step);
}

}  // namespace a07_associative_recall
