#include "analysis.hpp"

#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "a01_roofline/gpu_catalog.hpp"

namespace rooflab::analyze {
namespace a02 = a02_transformer_costs;
namespace {

std::string fmt(const char* format, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}

std::string bound(const a02::Timing& timing) { return timing.memory_bound ? "memory" : "compute"; }

}  // namespace

Analysis analyze(const a02::TransformerConfig& model, const a02::Hardware& gpu, double batch, double seq, bool decode) {
  if (!(batch >= 1) || !std::isfinite(batch)) throw std::runtime_error("--batch must be at least 1");
  if (!(seq >= 1) || !std::isfinite(seq)) throw std::runtime_error("--seq must be at least 1");
  if (seq > model.context_len)
    throw std::runtime_error("--seq " + fmt("%.0f", seq) + " exceeds " + model.name + "'s context_len " +
                             fmt("%.0f", model.context_len));
  Analysis a;
  a.model = model;
  a.gpu = gpu;
  a.decode = decode;
  a.pass = decode ? a02::decode(batch, seq) : a02::prefill(batch, seq);
  const double layers = model.num_layers;
  const auto row = [&](const std::string& name, const a02::Cost& cost) {
    // A decode step has no mask: leave the row out rather than time zero work.
    if (cost.flops == 0 && cost.bytes == 0) return;
    a.components.push_back({name, cost, a02::roofline_time(cost, gpu)});
  };
  row("QKV projection", layers * a02::qkv_projection_cost(model, a.pass));
  row("scores QK^T/sqrt(d)", layers * a02::attention_scores_cost(model, a.pass));
  row("causal mask", layers * a02::causal_mask_cost(model, a.pass));
  row("softmax", layers * a02::softmax_cost(model, a.pass));
  row("weights x V", layers * a02::attention_values_cost(model, a.pass));
  row("output projection", layers * a02::output_projection_cost(model, a.pass));
  row("MLP", layers * a02::mlp_cost(model, a.pass));
  row("LM head", a02::lm_head_cost(model, a.pass));
  const a02::Cost total = a02::model_cost(model, a.pass);
  a.total = {"total", total, a02::roofline_time(total, gpu)};
  a.weight_bytes = a02::weight_bytes(model);
  a.kv_cache_bytes = a02::kv_cache_bytes(model, batch, seq);
  return a;
}

a02::Hardware resolve_gpu(const std::string& id, std::optional<double> bandwidth, std::optional<double> flops) {
  a02::Hardware gpu;
  if (id == "custom") {
    if (!bandwidth || !flops) throw std::runtime_error("--gpu custom needs both --bandwidth (bytes/s) and --flops");
    gpu.name = "custom";
  } else {
    try {
      const a01_roofline::GpuSpec& spec = a01_roofline::find_gpu(id);
      gpu = {spec.name, spec.peak_flops_per_s, spec.bandwidth_bytes_per_s};
    } catch (const std::invalid_argument& error) {
      throw std::runtime_error(std::string("--gpu: ") + error.what() + ", custom");
    }
  }
  if (bandwidth) {
    if (!(*bandwidth > 0) || !std::isfinite(*bandwidth))
      throw std::runtime_error("--bandwidth must be a positive number of bytes/s, e.g. 300e9");
    gpu.bandwidth_bytes_per_s = *bandwidth;
    gpu.name += ", " + fmt("%g", *bandwidth / 1e9) + " GB/s";
  }
  if (flops) {
    if (!(*flops > 0) || !std::isfinite(*flops))
      throw std::runtime_error("--flops must be a positive number of FLOP/s, e.g. 65e12");
    gpu.peak_flops_per_s = *flops;
    gpu.name += ", " + fmt("%g", *flops / 1e12) + " TFLOP/s";
  }
  return gpu;
}

std::string format_table(const Analysis& a) {
  std::string out =
      a.model.name + " on " + a.gpu.name + ": " +
      (a.decode ? "decode step, batch " + fmt("%.0f", a.pass.batch) + ", KV cache of " + fmt("%.0f", a.pass.context) +
                      " positions"
                : "prefill, batch " + fmt("%.0f", a.pass.batch) + " x " + fmt("%.0f", a.pass.context) + " tokens") +
      "\n";
  out += "  weights read " + fmt("%.3f", a.weight_bytes / 1e9) + " GB, KV cache " +
         fmt("%.3f", a.kv_cache_bytes / 1e9) + " GB, ridge point " +
         fmt("%.1f", a.gpu.peak_flops_per_s / a.gpu.bandwidth_bytes_per_s) + " FLOP/byte\n\n";
  char line[256];
  std::snprintf(line, sizeof line, "%-20s %12s %12s %10s %12s %12s  %s\n", "component", "GFLOP", "GB moved",
                "FLOP/byte", "T_compute ms", "T_memory ms", "bound");
  out += line;
  const auto print = [&](const Row& r) {
    std::snprintf(line, sizeof line, "%-20s %12.3f %12.4f %10.2f %12.4f %12.4f  %s\n", r.name.c_str(),
                  r.cost.flops / 1e9, r.cost.bytes / 1e9, r.cost.flops / r.cost.bytes, 1e3 * r.timing.compute_s,
                  1e3 * r.timing.memory_s, bound(r.timing).c_str());
    out += line;
  };
  for (const Row& r : a.components) print(r);
  print(a.total);
  out += "\nT = max(T_compute, T_memory) = " + fmt("%.4f", 1e3 * a.total.timing.time_s) +
         " ms per pass: " + bound(a.total.timing) + "-bound, " +
         fmt("%.1f", a.pass.batch * a.pass.new_tokens / a.total.timing.time_s) + " tokens/s\n";
  return out;
}

nlohmann::json to_json(const Analysis& a) {
  const auto row = [](const Row& r) {
    return nlohmann::json{{"name", r.name},
                          {"flops", r.cost.flops},
                          {"bytes", r.cost.bytes},
                          {"intensity", r.cost.flops / r.cost.bytes},
                          {"t_compute_s", r.timing.compute_s},
                          {"t_memory_s", r.timing.memory_s},
                          {"time_s", r.timing.time_s},
                          {"bound", bound(r.timing)}};
  };
  nlohmann::json json;
  json["model"] = a.model.name;
  json["gpu"] = {{"name", a.gpu.name},
                 {"peak_flops_per_s", a.gpu.peak_flops_per_s},
                 {"bandwidth_bytes_per_s", a.gpu.bandwidth_bytes_per_s}};
  json["pass"] = {{"kind", a.decode ? "decode" : "prefill"},
                  {"batch", a.pass.batch},
                  {"new_tokens", a.pass.new_tokens},
                  {"context", a.pass.context}};
  json["weight_bytes"] = a.weight_bytes;
  json["kv_cache_bytes"] = a.kv_cache_bytes;
  json["components"] = nlohmann::json::array();
  for (const Row& r : a.components) json["components"].push_back(row(r));
  json["total"] = row(a.total);
  return json;
}

}  // namespace rooflab::analyze
