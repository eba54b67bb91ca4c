// `rooflab analyze`: what one pass of a transformer costs on a GPU, per
// component (tools/analyze/).
#include <iostream>
#include <optional>

#include "analysis.hpp"
#include "commands.hpp"
#include "model_file.hpp"

namespace rooflab::cli {
namespace {

struct AnalyzeFlags {
  std::string models_dir, model_name, gpu_id;
  double batch = 1, seq = 0;
  std::optional<double> bandwidth, flops;
  bool decode = false, json = false;
};

}  // namespace

void add_analyze(CLI::App& app, int& exit_code) {
  auto flags = std::make_shared<AnalyzeFlags>();
  flags->models_dir = (kSourceDir / "tools" / "models").string();
  CLI::App* command =
      app.add_subcommand("analyze", "FLOPs, bytes and roofline time of one transformer pass, per component");
  command->add_option("--model", flags->model_name, "a name from the models folder, or a .toml path")->required();
  command->add_option("--gpu", flags->gpu_id, "a01 catalog id (t4, a100-sxm-80gb, ...) or custom")->required();
  command->add_option("--batch", flags->batch, "requests in the batch (default 1)");
  command->add_option("--seq", flags->seq, "tokens per request (prefill) or cached positions (--decode)")->required();
  command->add_flag("--decode", flags->decode, "one decode step with a KV cache of --seq positions (default: prefill)");
  command->add_option("--bandwidth", flags->bandwidth,
                      "memory bandwidth in bytes/s, e.g. 300e9 (overrides the catalog)");
  command->add_option("--flops", flags->flops, "peak FLOP/s, e.g. 65e12 (overrides the catalog)");
  command->add_flag("--json", flags->json, "print JSON instead of a table");
  command->add_option("--models-dir", flags->models_dir, "folder of model .toml files (default: tools/models)");
  command->callback([flags, &exit_code] {
    const auto model = analyze::find_model(flags->models_dir, flags->model_name);
    const auto gpu = analyze::resolve_gpu(flags->gpu_id, flags->bandwidth, flags->flops);
    const auto analysis = analyze::analyze(model.config, gpu, flags->batch, flags->seq, flags->decode);
    if (flags->json)
      std::cout << analyze::to_json(analysis).dump(2) << "\n";
    else
      std::cout << analyze::format_table(analysis);
    exit_code = 0;
  });
}

}  // namespace rooflab::cli
