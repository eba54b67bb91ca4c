// `rooflab train recall`: a07's attention-only model trained on associative
// recall (the reference, or a student's own code in a student build), with a
// progress line per held-out evaluation; `--sweep` trains one model per layer
// count and prints which is the fewest that learns the task.
#include <omp.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "a07_associative_recall/a07_associative_recall.hpp"
#include "commands.hpp"
#include "rooflab/machine_load.hpp"
#include "rooflab/not_implemented.hpp"

namespace rooflab::cli {
namespace {

using namespace a07_associative_recall;

// The held-out accuracy a layer count must reach to count as solving the task.
constexpr double kTarget = 0.9;

struct TrainFlags {
  TrainConfig config;  // its defaults are the flags' defaults
  std::string sweep;   // "1..4" or "1,2,4": train each layer count instead of --layers
  std::string csv;     // where to write the runs' results and curves
  int threads = 0;     // 0: not given, OpenMP's default (every core)
  // Read signed, so that a negative seed is an error and not 2^64 − 1.
  std::int64_t seed = static_cast<std::int64_t>(TrainConfig{}.seed);
};

struct Run {
  std::int64_t layers = 0;
  TrainResult result;
};

// The lab names the culprit first ("steps: must be positive"): say it as the
// flag that set it. Names without a flag (the task's, the model's shape) stay.
std::string as_flag_error(const std::string& message) {
  static const std::map<std::string, std::string> flags{{"layers", "--layers"},
                                                        {"steps", "--steps"},
                                                        {"batch", "--batch"},
                                                        {"eval_every", "--eval-every"},
                                                        {"config", "--lr"}};  // AdamConfig's check
  const std::size_t colon = message.find(':');
  const auto flag = colon == std::string::npos ? flags.end() : flags.find(message.substr(0, colon));
  return flag == flags.end() ? message : flag->second + message.substr(colon);
}

// The lab's own checks (provided code) before anything runs, so that a bad
// flag is reported as one and not as a failure in the middle of training.
void require_valid_flags(const TrainConfig& config) {
  try {
    require_valid(config);
    require_adam_inputs(1, 1, 1, 1, config.adam, 1);
  } catch (const std::invalid_argument& error) {
    throw std::invalid_argument(as_flag_error(error.what()));
  }
}

// A whole positive integer, or nothing.
std::optional<std::int64_t> positive_integer(const std::string& text) {
  std::int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value <= 0) return std::nullopt;
  return value;
}

// "A..B" (A ≤ B) or a comma list "1,2,4" of distinct positive layer counts.
std::vector<std::int64_t> parse_layer_counts(const std::string& text) {
  const auto bad = [&text](const std::string& why) {
    return std::invalid_argument("--sweep " + text + ": " + why + " (e.g. 1..4 or 1,2,4)");
  };
  std::vector<std::int64_t> counts;
  if (const std::size_t dots = text.find(".."); dots != std::string::npos) {
    const auto first = positive_integer(text.substr(0, dots)), last = positive_integer(text.substr(dots + 2));
    if (!first || !last) throw bad("A..B needs two positive whole numbers");
    if (*first > *last) throw bad("A..B needs A <= B");
    for (std::int64_t layers = *first; layers <= *last; ++layers) counts.push_back(layers);
    return counts;
  }
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    const auto layers = positive_integer(text.substr(start, comma - start));
    if (!layers) throw bad("each layer count must be a positive whole number");
    if (std::find(counts.begin(), counts.end(), *layers) != counts.end())
      throw bad(std::to_string(*layers) + " is listed twice");
    counts.push_back(*layers);
    if (comma == std::string::npos) return counts;
    start = comma + 1;
  }
}

// The step of the first evaluation at or above the target, if one was.
std::optional<std::int64_t> first_step_at_target(const TrainResult& result) {
  for (const Evaluation& evaluation : result.evaluations)
    if (evaluation.accuracy >= kTarget) return evaluation.step;
  return std::nullopt;
}

double percent(double share) { return 100 * share; }

std::string count_of_layers(std::int64_t layers) {
  return std::to_string(layers) + (layers == 1 ? " layer" : " layers");
}

// "associative recall, <which layers>: the task, the model and the training".
std::string describe(const TrainConfig& config, const std::string& layers) {
  const ModelConfig& model = config.model;
  char text[400];
  std::snprintf(text, sizeof text,
                "associative recall, %s: %lld keys, %lld values, %lld pairs (%lld tokens); d_model %lld, %lld "
                "heads; batch %lld, Adam lr %g, seed %llu, %lld steps; held-out set of %lld sequences; OpenMP "
                "threads: %d",
                layers.c_str(), static_cast<long long>(model.task.keys), static_cast<long long>(model.task.values),
                static_cast<long long>(model.task.pairs), static_cast<long long>(model.task.length()),
                static_cast<long long>(model.d_model), static_cast<long long>(model.heads),
                static_cast<long long>(config.batch), config.adam.learning_rate,
                static_cast<unsigned long long>(config.seed), static_cast<long long>(config.steps),
                static_cast<long long>(config.eval_sequences), omp_get_max_threads());
  return text;
}

// Calls `print` with each evaluation and the steps per second since the one before.
std::function<void(const Evaluation&)> with_rate(std::function<void(const Evaluation&, double)> print) {
  auto previous = std::make_shared<Evaluation>();
  return [previous, print = std::move(print)](const Evaluation& evaluation) {
    const double seconds = evaluation.seconds - previous->seconds;
    print(evaluation, seconds > 0 ? static_cast<double>(evaluation.step - previous->step) / seconds : 0.0);
    *previous = evaluation;
  };
}

// --csv FILE: FILE holds one row per run, FILE's stem + "_curves.csv" every
// evaluation of every run (the loss and accuracy curves).
struct CsvFiles {
  std::filesystem::path runs_path, curves_path;
  std::ofstream runs, curves;

  explicit CsvFiles(const std::filesystem::path& path)
      : runs_path(path),
        curves_path(path.parent_path() / (path.stem().string() + "_curves.csv")),
        runs(runs_path),
        curves(curves_path) {
    if (!runs || !curves)
      throw std::invalid_argument("--csv " + path.string() + ": cannot write " +
                                  (!runs ? runs_path : curves_path).string());
    runs << "layers,final_accuracy,first_step_at_90_percent,steps,seconds\n";
    curves << "layers,step,loss,accuracy,seconds\n";
  }

  void add(const Run& run) {
    const std::optional<std::int64_t> first = first_step_at_target(run.result);
    runs << run.layers << ',' << run.result.accuracy() << ',' << (first ? std::to_string(*first) : "") << ','
         << run.result.steps << ',' << run.result.seconds << '\n';
    for (const Evaluation& evaluation : run.result.evaluations)
      curves << run.layers << ',' << evaluation.step << ',' << evaluation.loss << ',' << evaluation.accuracy << ','
             << evaluation.seconds << '\n';
    runs.flush();
    curves.flush();
  }
};

int train_one(const TrainFlags& flags, std::unique_ptr<CsvFiles>& csv) {
  const TrainConfig& config = flags.config;
  std::printf("code: %s\n%s\n\n", kWhoseCode, describe(config, count_of_layers(config.model.layers)).c_str());
  std::fflush(stdout);
  const TrainResult result = train(config, with_rate([](const Evaluation& evaluation, double steps_per_s) {
                                     std::printf("step %6lld  loss %.4f  held-out accuracy %5.1f %%  %.1f steps/s\n",
                                                 static_cast<long long>(evaluation.step), evaluation.loss,
                                                 percent(evaluation.accuracy), steps_per_s);
                                     std::fflush(stdout);
                                   }));
  std::printf("\nfinal held-out accuracy %.1f %% after %lld steps in %.1f s\n", percent(result.accuracy()),
              static_cast<long long>(result.steps), result.seconds);
  if (csv) csv->add({config.model.layers, result});
  return 0;
}

int train_sweep(const TrainFlags& flags, const std::vector<std::int64_t>& layer_counts,
                std::unique_ptr<CsvFiles>& csv) {
  std::string layers = "one model per layer count (";
  for (const std::int64_t count : layer_counts)
    layers += (count == layer_counts.front() ? "" : ", ") + std::to_string(count);
  std::printf("code: %s\n%s\n\n", kWhoseCode, describe(flags.config, layers + "), each from the same seed").c_str());
  std::printf("| layers | held-out accuracy | first step at ≥ 90 %% | seconds |\n|---:|---:|---:|---:|\n");
  std::fflush(stdout);
  std::optional<std::int64_t> fewest;
  for (const std::int64_t layers : layer_counts) {
    TrainConfig config = flags.config;
    config.model.layers = layers;
    const TrainResult result =
        train(config, with_rate([layers](const Evaluation& evaluation, double steps_per_s) {
                std::fprintf(stderr,
                             "train recall: %s, step %lld: loss %.4f, held-out "
                             "accuracy %.1f %%, %.1f steps/s\n",
                             count_of_layers(layers).c_str(), static_cast<long long>(evaluation.step), evaluation.loss,
                             percent(evaluation.accuracy), steps_per_s);
              }));
    const std::optional<std::int64_t> first = first_step_at_target(result);
    std::printf("| %lld | %.1f %% | %s | %.1f |\n", static_cast<long long>(layers), percent(result.accuracy()),
                first ? std::to_string(*first).c_str() : "—", result.seconds);
    std::fflush(stdout);
    if (result.accuracy() >= kTarget) fewest = std::min(fewest.value_or(layers), layers);
    if (csv) csv->add({layers, result});
  }
  if (fewest)
    std::printf("\nminimum layers reaching 90 %%: %lld\n", static_cast<long long>(*fewest));
  else
    std::printf("\nminimum layers reaching 90 %%: none (no layer count reached it in %lld steps)\n",
                static_cast<long long>(flags.config.steps));
  return 0;
}

int run_train(TrainFlags flags) {
  if (flags.seed < 0) throw std::invalid_argument("--seed: must not be negative");
  flags.config.seed = static_cast<std::uint64_t>(flags.seed);
  std::vector<std::int64_t> layer_counts{flags.config.model.layers};
  if (!flags.sweep.empty()) layer_counts = parse_layer_counts(flags.sweep);
  for (const std::int64_t layers : layer_counts) {
    TrainConfig config = flags.config;
    config.model.layers = layers;
    require_valid_flags(config);
  }
  if (flags.threads > 0) omp_set_num_threads(flags.threads);
  std::unique_ptr<CsvFiles> csv = flags.csv.empty() ? nullptr : std::make_unique<CsvFiles>(flags.csv);
  const int code = flags.sweep.empty() ? train_one(flags, csv) : train_sweep(flags, layer_counts, csv);
  if (csv)
    std::printf("wrote %s (one row per run) and %s (every evaluation)\n", csv->runs_path.c_str(),
                csv->curves_path.c_str());
  return code;
}

}  // namespace

void add_train(CLI::App& app, int& exit_code) {
  CLI::App* command = app.add_subcommand("train", "train a07's attention-only model on associative recall");
  command->require_subcommand(1);
  auto flags = std::make_shared<TrainFlags>();
  TrainConfig& config = flags->config;
  CLI::App* recall = command->add_subcommand(
      "recall",
      "train on associative recall with a progress line per held-out evaluation; --sweep: one model per layer "
      "count, and the fewest layers whose final held-out accuracy reaches 90 %");
  CLI::Option* layers = recall->add_option("--layers", config.model.layers, "attention layers")->capture_default_str();
  recall->add_option("--sweep", flags->sweep, "train each layer count instead: A..B or a list, e.g. 1..4 or 1,2,4")
      ->type_name("A..B|LIST")
      ->excludes(layers);
  recall->add_option("--steps", config.steps, "Adam updates")->capture_default_str();
  recall->add_option("--seed", flags->seed, "seed of the weights, the batches and the held-out set")
      ->capture_default_str();
  recall->add_option("--batch", config.batch, "sequences per update")->capture_default_str();
  recall->add_option("--lr", config.adam.learning_rate, "Adam's learning rate")->capture_default_str();
  recall->add_option("--eval-every", config.eval_every, "steps between held-out evaluations")->capture_default_str();
  CLI::Option* threads = recall->add_option("--threads", flags->threads, "OpenMP threads (default: every core)");
  recall
      ->add_option("--csv", flags->csv,
                   "write FILE (one row per run) and FILE's stem + _curves.csv (loss and accuracy at every "
                   "evaluation)")
      ->type_name("FILE");
  recall->callback([flags, threads, &exit_code] {
    if (threads->count() > 0 && flags->threads <= 0) throw std::invalid_argument("--threads: must be positive");
    // Steps per second measured while other processes ran say little, and
    // the run says so (rooflab/machine_load.hpp).
    const LoadWatch watch;
    try {
      exit_code = run_train(*flags);
    } catch (const NotImplemented& stub) {  // a student's stub: what to write, not a crash
      std::fflush(stdout);
      std::fprintf(stderr, "error: %s\n", stub.what());
      exit_code = 1;
      return;
    }
    watch.warn_if_busy(std::cerr, flags->threads > 0 ? flags->threads : omp_get_max_threads());
  });
}

}  // namespace rooflab::cli
