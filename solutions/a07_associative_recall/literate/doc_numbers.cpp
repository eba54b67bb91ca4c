// Every number docs/08 and the a07 lab text quote, from the reference: the
// task's and the model's sizes, the bytes training keeps for P, and what the
// seeded sweep of 1 to 4 layers measured (recall_runs.hpp says why those
// numbers hold on another CPU). The sweep trains once per process, on the
// first region that asks for it.
#include <cmath>
#include <string>

#include "doc_regions.hpp"
#include "recall_runs.hpp"

namespace rooflab::docs {
namespace {

using namespace a07_associative_recall;
using literate::sweep;

constexpr double kKiB = 1024, kMiB = 1 << 20;

std::string integer(std::int64_t value) { return std::to_string(value); }
std::string percent(double share) { return fmt("%.0f", 100 * share); }

ModelConfig model_with(std::int64_t layers) {
  ModelConfig config;
  config.layers = layers;
  return config;
}

// What one layer keeps of P for the backward pass during a training step of
// the default model, measured on a forward pass of one training batch.
double saved_probs_kib() {
  const TrainConfig config = literate::sweep_config(2);
  const RecallBatch batch = make_recall_batch(config.model.task, Split::train, config.seed, config.batch);
  const ForwardPass pass = forward(init_model(config.model, config.seed), batch.tokens);
  return static_cast<double>(pass.layers[0].attention.probs.data.size() * sizeof(float)) / kKiB;
}

// P of one GPT-2-small-shaped layer (12 heads) for one sequence of n tokens, fp32,
// and the layer's queries, keys and values beside it (n × 768 each).
constexpr double kGpt2Heads = 12, kGpt2Layers = 12, kGpt2Width = 768;
double gpt2_probs_mib(double n) { return kGpt2Heads * n * n * sizeof(float) / kMiB; }
double gpt2_qkv_mib(double n) { return 3 * n * kGpt2Width * sizeof(float) / kMiB; }

// How many different sequences the task has, "1.8 × 10^19": ordered distinct
// keys, values with replacement, and which key is asked.
std::string sequence_count(const RecallTask& task) {
  double count = static_cast<double>(task.pairs);
  for (std::int64_t p = 0; p < task.pairs; ++p)
    count *= static_cast<double>(task.keys - p) * static_cast<double>(task.values);
  const double exponent = std::floor(std::log10(count));
  return fmt("%.1f", count / std::pow(10, exponent)) + " × 10^" + fmt("%.0f", exponent);
}

std::string sweep_table() {
  std::string table = "| layers | weights | held-out accuracy after " + integer(literate::kSteps) +
                      " steps | first evaluation at ≥ 90 % |\n|---:|---:|---:|---:|\n";
  for (const auto& [layers, run] : sweep()) {
    const std::int64_t solved = literate::first_solved_step(run);
    table += "| " + integer(layers) + " | " + integer(weight_layout(model_with(layers)).total) + " | " +
             percent(run.accuracy()) + " % | " + (solved > 0 ? "step " + integer(solved) : "never") + " |\n";
  }
  return table;
}

std::int64_t fewest_solving_layers() {
  for (const auto& [layers, run] : sweep())
    if (literate::first_solved_step(run) > 0) return layers;
  return 0;
}

// Where each head of the 2-layer model looks, averaged over the held-out set:
// from each value's position to the token before it (its key), and from the
// query (last position) to the matching key and to the value after it.
std::string heads_table() {
  const RecallBatch held_out = literate::held_out_set();
  const ForwardPass pass = literate::two_layer_attention(held_out.tokens);
  const ModelConfig& config = sweep().at(2).model.config;
  const std::int64_t n = config.task.length(), pairs = config.task.pairs, last = n - 1;
  std::string table =
      "| layer | head | value → its key (i − 1) | query → matching key | query → value after it |\n"
      "|---:|---:|---:|---:|---:|\n";
  for (std::int64_t l = 0; l < config.layers; ++l)
    for (std::int64_t h = 0; h < config.heads; ++h) {
      double previous = 0, key = 0, value = 0;
      for (std::int64_t s = 0; s < held_out.sequences; ++s) {
        const std::int64_t* tokens = held_out.tokens.data() + s * n;
        const Tensor4& probs = pass.layers[static_cast<std::size_t>(l)].attention.probs;
        const std::int64_t bh = s * config.heads + h;
        for (std::int64_t p = 0; p < pairs; ++p)
          previous += probs.row(bh, 2 * p + 1)[2 * p] / static_cast<double>(pairs);
        std::int64_t asked = 0;
        while (tokens[2 * asked] != tokens[last]) ++asked;
        key += probs.row(bh, last)[2 * asked];
        value += probs.row(bh, last)[2 * asked + 1];
      }
      const double count = static_cast<double>(held_out.sequences);
      table += "| " + integer(l) + " | " + integer(h) + " | " + percent(previous / count) + " % | " +
               percent(key / count) + " % | " + percent(value / count) + " % |\n";
    }
  return table;
}

// The first held-out sequence, the one docs/08's heatmaps show, as labels.
std::string example_sequence() {
  const RecallTask task;
  const RecallBatch held_out = literate::held_out_set();
  std::string text;
  for (std::int64_t i = 0; i < held_out.length; ++i) {
    if (i > 0) text += ' ';
    text += literate::token_label(task, held_out.tokens[static_cast<std::size_t>(i)], false);
  }
  return text;
}

}  // namespace

void add_a07_associative_recall_numbers(Values& values) {
  const ModelConfig model;
  const TrainConfig training = literate::sweep_config(2);
  values["a07.keys"] = [=] { return integer(model.task.keys); };
  values["a07.values"] = [=] { return integer(model.task.values); };
  values["a07.pairs"] = [=] { return integer(model.task.pairs); };
  values["a07.vocab"] = [=] { return integer(model.task.vocab()); };
  values["a07.length"] = [=] { return integer(model.task.length()); };
  values["a07.d_model"] = [=] { return integer(model.d_model); };
  values["a07.heads"] = [=] { return integer(model.heads); };
  values["a07.head_dim"] = [=] { return integer(model.head_dim()); };
  values["a07.batch"] = [=] { return integer(training.batch); };
  values["a07.learning_rate"] = [=] { return fmt("%g", training.adam.learning_rate); };
  values["a07.held_out"] = [=] { return integer(training.eval_sequences); };
  values["a07.seed"] = [] { return integer(static_cast<std::int64_t>(literate::kSeed)); };
  values["a07.steps"] = [] { return integer(literate::kSteps); };
  values["a07.eval_every"] = [] { return integer(literate::kEvalEvery); };
  values["a07.weights_2_layers"] = [] { return integer(weight_layout(model_with(2)).total); };
  values["a07.weights_per_layer"] = [] {
    return integer(weight_layout(model_with(2)).total - weight_layout(model_with(1)).total);
  };
  values["a07.saved_probs_kib"] = [] { return fmt("%.1f", saved_probs_kib()); };
  values["a07.gpt2_probs_1024_mib"] = [] { return fmt("%.0f", gpt2_probs_mib(1024)); };
  values["a07.gpt2_probs_all_layers_1024_mib"] = [] { return fmt("%.0f", kGpt2Layers * gpt2_probs_mib(1024)); };
  values["a07.gpt2_qkv_1024_mib"] = [] { return fmt("%.0f", gpt2_qkv_mib(1024)); };
  values["a07.baseline_percent"] = [] {
    return percent(literate::most_frequent_value_accuracy(ModelConfig{}.task, literate::held_out_set()));
  };
  values["a07.uniform_loss"] = [=] { return fmt("%.2f", std::log(static_cast<double>(model.task.vocab()))); };
  values["a07.bag_loss"] = [] {
    return fmt("%.2f", literate::bag_of_values_loss(ModelConfig{}.task, literate::held_out_set()));
  };
  values["a07.sequences"] = [=] { return sequence_count(model.task); };
  values["a07.example_sequence"] = [] { return example_sequence(); };
  values["a07.example_query"] = [=] {
    return literate::token_label(
        model.task, literate::held_out_set().tokens[static_cast<std::size_t>(model.task.length() - 1)], false);
  };
  values["a07.example_answer"] = [=] {
    return literate::token_label(model.task, literate::held_out_set().answers[0], false);
  };
  values["a07.beta1"] = [=] { return fmt("%g", training.adam.beta1); };
  values["a07.beta2"] = [=] { return fmt("%g", training.adam.beta2); };
  values["a07.epsilon"] = [=] { return fmt("%g", training.adam.epsilon); };
  // Without bias correction the first step is η·(1 − β₁)/√(1 − β₂) instead of η.
  values["a07.uncorrected_first_step"] = [=] {
    return fmt("%.1f", (1 - training.adam.beta1) / std::sqrt(1 - training.adam.beta2));
  };
  values["a07.sweep_table"] = [] { return sweep_table(); };
  values["a07.fewest_layers"] = [] { return integer(fewest_solving_layers()); };
  values["a07.one_layer_percent"] = [] { return percent(sweep().at(1).accuracy()); };
  values["a07.two_layer_solved_step"] = [] { return integer(literate::first_solved_step(sweep().at(2))); };
  values["a07.heads_table"] = [] { return heads_table(); };
}

}  // namespace rooflab::docs
