// The data behind docs/07's figure: the roofline bound on GPT-2 small's decode
// speed against the batch, for 128 and 1024 cached tokens per sequence. The bound is a bandwidth
// divided by a02's bytes per decode step, times the batch: the weights are
// read once for the whole batch, the KV cache once per sequence.
#include <string>

#include "../profile/kernel_counts.hpp"
#include "a02_transformer_costs/a02_transformer_costs.hpp"
#include "model_file.hpp"
#include "plot_data.hpp"
#include "rooflab/build_paths.hpp"

namespace rooflab::plots {

void add_a06_kv_cache_decode_plot_data(Files& files) {
  a02_transformer_costs::TransformerConfig gpt2 =
      analyze::find_model(build_paths::source_dir() / "tools" / "models", "gpt2").config;
  gpt2.bytes_per_element = 4;          // fp32, as a06's transformer
  constexpr double kBandwidth = 50e9;  // bytes/s: a laptop's or a small server's DRAM
  std::string csv = "batch,128 cached tokens,1024 cached tokens (GPT-2's whole context)\n";
  for (double batch = 1; batch <= 256; batch *= 2) {
    csv += std::to_string(static_cast<int>(batch));
    for (const double context : {128.0, 1024.0}) {
      const double bytes = a02_transformer_costs::model_cost(gpt2, a02_transformer_costs::decode(batch, context)).bytes;
      csv += ',';  // appended apart: GCC 12 misreports "," + std::string under -Wrestrict
      csv += std::to_string(kBandwidth / bytes * batch);
    }
    csv += "\n";
  }
  files["decode_bound_vs_batch.csv"] = csv;
  // The reference CUDA decode's kernel rows, which `lab profile a06_kv_cache_decode` shows beside a student's.
  std::string kernels = rooflab::kernels::csv_header() + "\n";
  for (const auto& row : a06_kv_cache_decode::profile::count_kernels())
    kernels += rooflab::kernels::csv_row(row) + "\n";
  files["a06_kv_cache_decode_kernels.csv"] = kernels;
}

}  // namespace rooflab::plots
