// Every number docs/01, docs/02 and the a01 lab README quote, from the reference.
#include <string>

#include "a01_roofline/a01_roofline.hpp"
#include "doc_regions.hpp"

namespace rooflab::docs {
namespace {

using namespace a01_roofline;

const ModelConfig& seven_b() {
  static const ModelConfig model{"7b", 7e9, 32, 4096, 32, 32, 2};
  return model;
}

std::string ridge_table() {
  std::string table =
      "| GPU | id | dense peak (TFLOP/s) | bandwidth (TB/s) | memory (GB) | ridge point (FLOP/byte) |\n"
      "|---|---|---:|---:|---:|---:|\n";
  for (const GpuSpec& gpu : gpu_catalog()) {
    table += "| " + gpu.name + " | `" + gpu.id + "` | " + fmt("%.1f", gpu.peak_flops_per_s / 1e12) + " | " +
             fmt("%.3f", gpu.bandwidth_bytes_per_s / 1e12) + " | " + fmt("%.0f", gpu.memory_bytes / 1e9) + " | " +
             fmt("%.1f", ridge_point(gpu.peak_flops_per_s, gpu.bandwidth_bytes_per_s)) + " |\n";
  }
  return table;
}

std::string matmul_batch_table() {
  const GpuSpec& h100 = find_gpu("h100-sxm-fp16");
  std::string table = "| batch m | AI of (m×4096)·(4096×4096), fp16 | on H100 FP16 |\n|---:|---:|---|\n";
  for (double m = 1; m <= 1024; m *= 4) {
    const double ai = matmul_arithmetic_intensity(m, 4096, 4096, 2);
    table +=
        "| " + fmt("%.0f", m) + " | " + fmt("%.1f", ai) + " | " +
        (is_memory_bound(ai, h100.peak_flops_per_s, h100.bandwidth_bytes_per_s) ? "memory-bound" : "compute-bound") +
        " |\n";
  }
  return table;
}

std::string attention_table() {
  const AttentionBreakdown cost = attention_breakdown(4096, 128, 2);
  std::string table = "| step | GFLOP | MB moved | AI (FLOP/byte) |\n|---|---:|---:|---:|\n";
  const auto row = [&](const char* name, const StepCost& step) {
    table += std::string("| ") + name + " | " + fmt("%.2f", step.flops / 1e9) + " | " + fmt("%.1f", step.bytes / 1e6) +
             " | " + fmt("%.1f", step.intensity) + " |\n";
  };
  row("S = QKᵀ", cost.scores);
  row("P = softmax(S)", cost.softmax);
  row("O = PV", cost.output);
  row("total", cost.total);
  return table;
}

std::string decode_batch_table() {
  const GpuSpec& h100 = find_gpu("h100-sxm-fp16");
  std::string table =
      "| batch | decode AI (FLOP/byte) | bound on H100 FP16 | max tokens/s | compute used "
      "|\n|---:|---:|---|---:|---:|\n";
  for (double batch : {1.0, 8.0, 64.0, 256.0, 1024.0}) {
    const InferenceAnalysis a = analyze_inference(seven_b(), h100, batch, 2048);
    table += "| " + fmt("%.0f", batch) + " | " + fmt("%.1f", a.decode_intensity) + " | " +
             (a.memory_bound ? "memory" : "compute") + " | " + fmt("%.0f", a.max_tokens_per_s) + " | " +
             fmt("%.1f%%", 100 * a.compute_utilization) + " |\n";
  }
  return table;
}

}  // namespace

void add_a01_roofline_numbers(Values& values) {
  const double weights = model_memory_bytes(7e9, DType::fp16);
  const GpuSpec& a100 = find_gpu("a100-sxm-80gb");
  const double kv = kv_cache_bytes({8, 2048, 32, 32, 128, 2});
  values["a01.weights_7b_fp16_gb"] = [=] { return fmt("%.1f", weights / 1e9); };
  values["a01.weights_70b_int4_gb"] = [] { return fmt("%.1f", model_memory_bytes(70e9, DType::int4) / 1e9); };
  values["a01.a100_bandwidth_tbs"] = [&a100] { return fmt("%.3f", a100.bandwidth_bytes_per_s / 1e12); };
  values["a01.max_tokens_7b_a100"] = [=, &a100] {
    return fmt("%.1f", max_decode_tokens_per_s(weights, a100.bandwidth_bytes_per_s));
  };
  values["a01.kv_7b_b8_s2048_gb"] = [=] { return fmt("%.2f", kv / 1e9); };
  values["a01.kv_7b_b8_s2048_gib"] = [=] { return fmt("%.2f", kv / (1024.0 * 1024 * 1024)); };
  values["a01.kv_gqa8_b8_s2048_gb"] = [] { return fmt("%.2f", kv_cache_bytes({8, 2048, 32, 8, 128, 2}) / 1e9); };
  values["a01.ridge_table"] = ridge_table;
  values["a01.h100_ridge"] = [] {
    const GpuSpec& h100 = find_gpu("h100-sxm-fp16");
    return fmt("%.1f", ridge_point(h100.peak_flops_per_s, h100.bandwidth_bytes_per_s));
  };
  values["a01.matmul_batch_table"] = matmul_batch_table;
  values["a01.attention_table"] = attention_table;
  values["a01.attention_total_ai"] = [] { return fmt("%.1f", attention_breakdown(4096, 128, 2).total.intensity); };
  values["a01.attention_ai_limit"] = [] { return fmt("%.3f", attention_breakdown(1e12, 128, 2).total.intensity); };
  values["a01.decode_batch_table"] = decode_batch_table;
  values["a01.decode_ai_batch1024"] = [] {
    return fmt("%.1f", analyze_inference(seven_b(), find_gpu("h100-sxm-fp16"), 1024, 2048).decode_intensity);
  };
  values["a01.usage_output"] = [] { return program_output_block(ROOFLAB_EXAMPLE_PATH_PREFIX "usage"); };
}

}  // namespace rooflab::docs
