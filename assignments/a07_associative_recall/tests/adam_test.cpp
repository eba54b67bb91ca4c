// Public tests, part 5: the Adam update against the fp64 reference, step
// after step from m = v = 0 (so the bias correction matters), with the
// default and other hyperparameters.
#include <random>

#include "recall_testing.hpp"

namespace a07_associative_recall {
namespace {

// `steps` updates of `count` parameters from m = v = 0, with fresh gradients
// of the given scale each step.
void expect_steps_match(const AdamConfig& config, std::int64_t count, std::int64_t steps, float grad_scale,
                        std::uint64_t seed) {
  std::vector<float> params = rooflab::random_normal(1, 1, 1, count, seed).data;
  std::vector<float> m(params.size(), 0.0f), v(params.size(), 0.0f);
  reference::AdamState expected{
      {params.begin(), params.end()}, std::vector<double>(params.size()), std::vector<double>(params.size())};
  for (std::int64_t step = 1; step <= steps; ++step) {
    const std::vector<float> grads =
        rooflab::random_normal(1, 1, 1, count, seed + static_cast<std::uint64_t>(step), grad_scale).data;
    adam_update(params, grads, m, v, config, step);
    reference::adam_step(expected, grads, config, step);
    ASSERT_EQ(params.size(), expected.params.size());
    ASSERT_EQ(m.size(), expected.m.size());
    ASSERT_EQ(v.size(), expected.v.size());
    checks::expect_adam_state_matches(params, m, v, expected, config, grad_scale, step);
  }
}

TEST(Adam, TenStepsWithTheDefaultsMatchTheReference) { expect_steps_match(AdamConfig{}, 50, 10, 1.0f, 1); }

TEST(Adam, OtherHyperparametersAndGradientScales) {
  expect_steps_match(AdamConfig{0.1, 0.5, 0.9, 1e-3}, 40, 8, 0.01f, 2);
  expect_steps_match(AdamConfig{1e-4, 0.0, 0.99, 1e-8}, 30, 5, 100.0f, 3);  // β1 = 0: no momentum
}

TEST(Adam, TheFirstStepMovesEachParameterByTheLearningRate) {
  // Bias-corrected, step 1 gives m̂ = g and v̂ = g², so each parameter moves
  // by learning_rate · g/(|g| + ε): the learning rate against its gradient's sign.
  std::vector<float> params{1.0f, 1.0f, 1.0f, 1.0f};
  const std::vector<float> grads{0.5f, -2.0f, 1e-3f, -40.0f};
  std::vector<float> m(4, 0.0f), v(4, 0.0f);
  adam_update(params, grads, m, v, AdamConfig{}, 1);
  for (std::size_t i = 0; i < params.size(); ++i)
    EXPECT_NEAR(params[i], grads[i] > 0 ? 1.0 - 3e-3 : 1.0 + 3e-3, 1e-6) << "parameter " << i;
}

TEST(Adam, RejectsBadInputs) {
  const rooflab::testing::ArgumentNames names{"params", "grads", "m", "v", "config", "step"};
  std::vector<float> params(4, 1.0f), m(4, 0.0f), v(4, 0.0f);
  const std::vector<float> grads(4, 0.5f);
  EXPECT_INVALID_ARGUMENT(adam_update(params, std::vector<float>(3), m, v, {}, 1), "grads");
  std::vector<float> five(5, 0.0f);
  EXPECT_INVALID_ARGUMENT(adam_update(params, grads, five, v, {}, 1), "m");
  EXPECT_INVALID_ARGUMENT(adam_update(params, grads, m, five, {}, 1), "v");
  EXPECT_INVALID_ARGUMENT(adam_update(params, grads, m, v, {}, 0), "step");
  EXPECT_INVALID_ARGUMENT(adam_update(params, grads, m, v, {}, -7), "step");
  EXPECT_INVALID_ARGUMENT(adam_update(params, grads, m, v, AdamConfig{0.0}, 1), "config");
  EXPECT_INVALID_ARGUMENT(adam_update(params, grads, m, v, AdamConfig{1e-3, 1.0}, 1), "config");
  EXPECT_INVALID_ARGUMENT(adam_update(params, grads, m, v, AdamConfig{1e-3, 0.9, -0.1}, 1), "config");
  EXPECT_INVALID_ARGUMENT(adam_update(params, grads, m, v, AdamConfig{1e-3, 0.9, 0.999, 0.0}, 1), "config");
}

}  // namespace
}  // namespace a07_associative_recall
