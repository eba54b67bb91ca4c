// The data behind docs/08's figures, from the seeded sweep (recall_runs.hpp):
// held-out accuracy against the number of layers, the loss and accuracy
// curves of 1 and 2 layers, and where each head of the 2-layer model looks on
// the first held-out sequence. Values are rounded (losses to 4 digits,
// accuracies to 0.1 %) so that the files say no more than the runs can vouch for.
#include <cstdio>
#include <string>

#include "plot_data.hpp"
#include "recall_runs.hpp"

namespace rooflab::plots {
namespace {

using namespace a07_associative_recall;

std::string number(const char* format, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}

std::string accuracy_vs_layers() {
  const double baseline = literate::most_frequent_value_accuracy(ModelConfig{}.task, literate::held_out_set());
  std::string csv = "layers,held-out accuracy after " + std::to_string(literate::kSteps) +
                    " steps (%),most frequent value (%),90 % bar\n";
  for (const auto& [layers, run] : literate::sweep())
    csv += std::to_string(layers) + "," + number("%.1f", 100 * run.accuracy()) + "," + number("%.1f", 100 * baseline) +
           ",90\n";
  return csv;
}

std::string training_curves() {
  const TrainResult& one = literate::sweep().at(1);
  const TrainResult& two = literate::sweep().at(2);
  std::string csv =
      "step,training loss: 1 layer,held-out accuracy: 1 layer (%),training loss: 2 layers,"
      "held-out accuracy: 2 layers (%)\n";
  for (std::size_t e = 0; e < one.evaluations.size() && e < two.evaluations.size(); ++e) {
    const Evaluation& a = one.evaluations[e];
    const Evaluation& b = two.evaluations[e];
    csv += std::to_string(a.step) + "," + number("%.4g", a.loss) + "," + number("%.1f", 100 * a.accuracy) + "," +
           number("%.4g", b.loss) + "," + number("%.1f", 100 * b.accuracy) + "\n";
  }
  return csv;
}

// One file per (layer, head): key position, query position, weight (%), and
// both tokens' labels, one row per cell of the N × N pattern.
void attention_heads(Files& files) {
  const RecallBatch held_out = literate::held_out_set();
  const ModelConfig& config = literate::sweep().at(2).model.config;
  const std::int64_t n = config.task.length();
  const std::vector<std::int64_t> sequence(held_out.tokens.begin(), held_out.tokens.begin() + n);
  const ForwardPass pass = literate::two_layer_attention(sequence);
  for (std::int64_t l = 0; l < config.layers; ++l)
    for (std::int64_t h = 0; h < config.heads; ++h) {
      std::string csv = "key position,query position,weight (%),key,query\n";
      for (std::int64_t i = 0; i < n; ++i)
        for (std::int64_t j = 0; j < n; ++j)
          csv += std::to_string(j) + "," + std::to_string(i) + "," +
                 number("%.1f", 100 * pass.layers[static_cast<std::size_t>(l)].attention.probs.row(h, i)[j]) + "," +
                 literate::token_label(config.task, sequence[static_cast<std::size_t>(j)], j == n - 1) + "," +
                 literate::token_label(config.task, sequence[static_cast<std::size_t>(i)], i == n - 1) + "\n";
      files["a07_attention_layer" + std::to_string(l) + "_head" + std::to_string(h) + ".csv"] = csv;
    }
}

}  // namespace

void add_a07_associative_recall_plot_data(Files& files) {
  // Trained: other machines' vector widths move the last digits (plot_data.hpp).
  // Losses near zero differ most in relative terms, hence an absolute floor;
  // accuracies and attention weights are percentages.
  machine_dependent_files()["a07_training_curves.csv"] = {0.25, 0.01};
  machine_dependent_files()["a07_accuracy_vs_layers.csv"] = {0.1, 0.01};
  for (const char* head : {"layer0_head0", "layer0_head1", "layer1_head0", "layer1_head1"})
    machine_dependent_files()[std::string("a07_attention_") + head + ".csv"] = {0.1, 2.0};
  files["a07_accuracy_vs_layers.csv"] = accuracy_vs_layers();
  files["a07_training_curves.csv"] = training_curves();
  attention_heads(files);
}

}  // namespace rooflab::plots
