// The training loop (provided): fresh batches of the train split every step,
// your cross_entropy and adam_update, and the held-out accuracy on a fixed
// test-split batch every eval_every steps.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "a07_associative_recall/adam.hpp"
#include "a07_associative_recall/model.hpp"

namespace a07_associative_recall {

struct TrainConfig {
  ModelConfig model;
  AdamConfig adam;
  std::int64_t steps = 1000;           // at most this many updates
  std::int64_t batch = 64;             // sequences per update
  std::int64_t eval_every = 100;       // steps between held-out evaluations
  std::int64_t eval_sequences = 1000;  // size of the held-out batch
  double stop_at_accuracy = 0;         // stop at the first evaluation that reaches it (0: never)
  double time_limit_s = 0;             // stop after this many seconds (0: none)
  std::uint64_t seed = 1;              // weights, batches and the held-out set
};

// Throws std::invalid_argument naming steps, batch, eval_every, eval_sequences,
// stop_at_accuracy or time_limit_s when out of range, and as the model's
// require_valid does.
void require_valid(const TrainConfig& config);

struct Evaluation {
  std::int64_t step = 0;
  double loss = 0;      // the training batch's loss at this step
  double accuracy = 0;  // held-out accuracy after this step
  double seconds = 0;   // since training began
};

struct TrainResult {
  Model model;
  std::vector<Evaluation> evaluations;  // one every eval_every steps, and one after the last step
  std::int64_t steps = 0;               // updates made
  double seconds = 0;
  double accuracy() const { return evaluations.empty() ? 0 : evaluations.back().accuracy; }
};

// Adam's state: its settings, the running averages of every weight's gradient
// and squared gradient, and the number of updates made so far.
struct Optimizer {
  AdamConfig config;
  std::vector<float> m, v;
  std::int64_t step = 0;
};
Optimizer make_optimizer(const Model& model, const AdamConfig& config);

// One update on one batch: forward, your cross_entropy, backward, your
// adam_update. Returns the batch's loss. What `lab bench train` times.
double train_step(Model& model, Optimizer& optimizer, const RecallBatch& batch);

// Trains a model from init_model(config.model, seed), calling `progress` after
// each evaluation.
TrainResult train(const TrainConfig& config, const std::function<void(const Evaluation&)>& progress = {});

}  // namespace a07_associative_recall
