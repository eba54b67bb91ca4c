// Public tests: training end to end (the loop, data and model are provided;
// every gradient and update runs through your parts 1–5). With one seed, two
// layers learn associative recall and one layer cannot: the previous-token
// head and the induction head it needs sit in different layers
// (docs/08_associative_recall.md). Accuracy is measured here, by the fp64
// forward pass of recall_reference.hpp on a held-out batch drawn here, never
// by the number train() reports.
#include "recall_testing.hpp"

namespace a07_associative_recall {
namespace {

constexpr std::int64_t kSteps = 800;
constexpr double kLearned = 0.9;

TrainConfig recall_training(std::int64_t layers) {
  TrainConfig config;  // the default task, model width and Adam settings
  config.model.layers = layers;
  config.steps = kSteps;
  config.seed = 1;
  return config;
}

// The share of 1000 test-split sequences (their own seed, not the one
// train() evaluates on) that the trained weights answer right, in fp64.
double held_out_accuracy(const TrainConfig& config, const TrainResult& result) {
  const RecallBatch batch = make_recall_batch(config.model.task, Split::test, config.seed + 1000, 1000);
  return reference::accuracy(result.model, batch);
}

void expect_trained_weights(const TrainConfig& config, const TrainResult& result) {
  ASSERT_EQ(result.model.weights.size(), static_cast<std::size_t>(weight_layout(config.model).total));
}

TEST(Training, TwoLayersLearnRecallWithin800Steps) {
  TrainConfig config = recall_training(2);
  config.stop_at_accuracy = 0.95;  // train() may stop early; the test measures on its own batch
  const TrainResult result = train(config);
  ASSERT_NO_FATAL_FAILURE(expect_trained_weights(config, result));
  const double accuracy = held_out_accuracy(config, result);
  EXPECT_GE(accuracy, kLearned) << "2 layers answered " << 100 * accuracy << " % of held-out sequences after "
                                << result.steps << " steps";
}

TEST(Training, OneLayerStaysBelowNinetyPercent) {
  const TrainConfig config = recall_training(1);
  const TrainResult result = train(config);
  ASSERT_NO_FATAL_FAILURE(expect_trained_weights(config, result));
  const double accuracy = held_out_accuracy(config, result);
  EXPECT_LT(accuracy, kLearned) << "1 layer answered " << 100 * accuracy << " % of held-out sequences after "
                                << result.steps << " steps";
}

}  // namespace
}  // namespace a07_associative_recall
