// The training loop (provided): see train.hpp.
#include "a07_associative_recall/train.hpp"

#include <chrono>
#include <stdexcept>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "a07_associative_recall/loss.hpp"

namespace a07_associative_recall {

void require_valid(const TrainConfig& config) {
  require_valid(config.model);
  if (config.steps <= 0) throw std::invalid_argument("steps: must be positive");
  if (config.batch <= 0) throw std::invalid_argument("batch: must be positive");
  if (config.eval_every <= 0) throw std::invalid_argument("eval_every: must be positive");
  if (config.eval_sequences <= 0) throw std::invalid_argument("eval_sequences: must be positive");
  if (!(config.stop_at_accuracy >= 0 && config.stop_at_accuracy <= 1))
    throw std::invalid_argument("stop_at_accuracy: must lie in [0, 1]");
  if (!(config.time_limit_s >= 0)) throw std::invalid_argument("time_limit_s: must not be negative");
}

namespace {

// Every step allocates the same activations and frees them again. glibc hands
// blocks this size (100 KiB to a few MiB) to mmap and returns freed heap to the
// kernel, so each step would fault every page in anew: a quarter of a step's
// time. Keeping freed memory in the heap is what PyTorch's caching allocator
// does for the same reason.
void keep_freed_memory() {
#if defined(__GLIBC__)
  static const bool once = [] {
    mallopt(M_MMAP_THRESHOLD, 64 << 20);
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
    return true;
  }();
  (void)once;
#endif
}

}  // namespace

Optimizer make_optimizer(const Model& model, const AdamConfig& config) {
  return Optimizer{config, std::vector<float>(model.weights.size(), 0.0f),
                   std::vector<float>(model.weights.size(), 0.0f), 0};
}

double train_step(Model& model, Optimizer& optimizer, const RecallBatch& batch) {
  keep_freed_memory();
  const ForwardPass pass = forward(model, batch.tokens);
  const CrossEntropy loss = cross_entropy(pass.logits, model.config.task.vocab(), batch.answers);
  const std::vector<float> grads = backward(model, pass, loss.d_logits);
  adam_update(model.weights, grads, optimizer.m, optimizer.v, optimizer.config, ++optimizer.step);
  return loss.loss;
}

TrainResult train(const TrainConfig& config, const std::function<void(const Evaluation&)>& progress) {
  require_valid(config);
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  const auto elapsed = [&start] { return std::chrono::duration<double>(clock::now() - start).count(); };
  const RecallTask& task = config.model.task;
  // Seeds: the weights from seed, training batch s from seed + s (train split),
  // the held-out batch from seed (test split, a stream of its own).
  TrainResult result{init_model(config.model, config.seed), {}, 0, 0};
  const RecallBatch held_out = make_recall_batch(task, Split::test, config.seed, config.eval_sequences);
  Optimizer optimizer = make_optimizer(result.model, config.adam);
  for (std::int64_t step = 1; step <= config.steps; ++step) {
    const RecallBatch batch =
        make_recall_batch(task, Split::train, config.seed + static_cast<std::uint64_t>(step), config.batch);
    const double loss = train_step(result.model, optimizer, batch);
    result.steps = step;
    const bool out_of_time = config.time_limit_s > 0 && elapsed() >= config.time_limit_s;
    if (step % config.eval_every == 0 || step == config.steps || out_of_time) {
      const ForwardPass test = forward(result.model, held_out.tokens);
      const Evaluation evaluation{step, loss, accuracy(test.logits, task.vocab(), held_out.answers), elapsed()};
      result.evaluations.push_back(evaluation);
      if (progress) progress(evaluation);
      if (config.stop_at_accuracy > 0 && evaluation.accuracy >= config.stop_at_accuracy) break;
    }
    if (out_of_time) break;
  }
  result.seconds = elapsed();
  return result;
}

}  // namespace a07_associative_recall
