// Hidden tests: the Adam update with hyperparameters, sizes, gradient scales
// and step numbers drawn from the grader's seed, from the first step to step
// ten million (where the bias correction is 1 to double precision).
#include <cmath>
#include <random>

#include "../../tests/recall_testing.hpp"

namespace a07_associative_recall {
namespace {

using rooflab::testing::pick;

double uniform(std::mt19937_64& engine, double lo, double hi) {
  return std::uniform_real_distribution<double>(lo, hi)(engine);
}

TEST(HiddenAdam, SeededStepsMatchTheReference) {
  std::mt19937_64 engine(rooflab::testing::seed() ^ 0xada3ull);
  for (const bool from_the_start : {true, false}) {
    const double learning_rate = std::pow(10.0, uniform(engine, -4, -1)), beta1 = uniform(engine, 0, 0.95),
                 beta2 = uniform(engine, 0.9, 0.9999), epsilon = std::pow(10.0, uniform(engine, -8, -4));
    const AdamConfig config{learning_rate, beta1, beta2, epsilon};
    const std::int64_t count = pick(engine, 1, 5000);
    const std::int64_t first = from_the_start ? 1 : pick(engine, 1000, 10'000'000);
    const double scale = std::pow(10.0, static_cast<double>(pick(engine, -3, 2)));
    SCOPED_TRACE(std::to_string(count) + " parameters from step " + std::to_string(first) + ", gradients ~ " +
                 std::to_string(scale) + ", lr " + std::to_string(learning_rate) + ", β1 " + std::to_string(beta1) +
                 ", β2 " + std::to_string(beta2) + ", ε " + std::to_string(epsilon));
    std::vector<float> params = rooflab::random_normal(1, 1, 1, count, engine()).data;
    std::vector<float> m(params.size(), 0.0f), v(params.size(), 0.0f);
    if (!from_the_start) {  // running averages of earlier gradients of this scale
      m = rooflab::random_normal(1, 1, 1, count, engine(), static_cast<float>(0.5 * scale)).data;
      v = rooflab::random_normal(1, 1, 1, count, engine(), static_cast<float>(scale)).data;
      for (std::size_t i = 0; i < v.size(); ++i) v[i] = v[i] * v[i] + m[i] * m[i];  // v ≥ m², as any history gives
    }
    reference::AdamState expected{{params.begin(), params.end()}, {m.begin(), m.end()}, {v.begin(), v.end()}};
    for (std::int64_t step = first; step < first + 4; ++step) {
      const std::vector<float> grads = rooflab::random_normal(1, 1, 1, count, engine(), static_cast<float>(scale)).data;
      adam_update(params, grads, m, v, config, step);
      reference::adam_step(expected, grads, config, step);
      ASSERT_EQ(params.size(), expected.params.size());
      ASSERT_EQ(m.size(), expected.m.size());
      ASSERT_EQ(v.size(), expected.v.size());
      checks::expect_adam_state_matches(params, m, v, expected, config, scale, step);
    }
  }
}

}  // namespace
}  // namespace a07_associative_recall
