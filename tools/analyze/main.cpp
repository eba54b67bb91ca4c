// rooflab_analyze: what one pass of a transformer costs on a GPU (`lab analyze`).
#include <CLI/CLI.hpp>
#include <iostream>

#include "analysis.hpp"
#include "model_file.hpp"

int main(int argc, char** argv) {
  CLI::App app{"FLOPs, bytes and roofline time of one transformer pass, per component"};
  std::string models_dir = ROOFLAB_MODELS_DIR, model_name, gpu_id;
  double batch = 1, seq = 0;
  std::optional<double> bandwidth, flops;
  bool decode = false, json = false;
  app.add_option("--model", model_name, "a name from the models folder, or a .toml path")->required();
  app.add_option("--gpu", gpu_id, "a01 catalog id (t4, a100-sxm-80gb, ...) or custom")->required();
  app.add_option("--batch", batch, "requests in the batch (default 1)");
  app.add_option("--seq", seq, "tokens per request (prefill) or cached positions (--decode)")->required();
  app.add_flag("--decode", decode, "one decode step with a KV cache of --seq positions (default: prefill)");
  app.add_option("--bandwidth", bandwidth, "memory bandwidth in bytes/s, e.g. 300e9 (overrides the catalog)");
  app.add_option("--flops", flops, "peak FLOP/s, e.g. 65e12 (overrides the catalog)");
  app.add_flag("--json", json, "print JSON instead of a table");
  app.add_option("--models-dir", models_dir, "folder of model .toml files");
  CLI11_PARSE(app, argc, argv);
  try {
    const auto model = rooflab::analyze::find_model(models_dir, model_name);
    const auto gpu = rooflab::analyze::resolve_gpu(gpu_id, bandwidth, flops);
    const auto analysis = rooflab::analyze::analyze(model.config, gpu, batch, seq, decode);
    if (json)
      std::cout << rooflab::analyze::to_json(analysis).dump(2) << "\n";
    else
      std::cout << rooflab::analyze::format_table(analysis);
    return 0;
  } catch (const std::exception& error) {
    std::cerr << "lab analyze: " << error.what() << "\n";
    return 2;
  }
}
