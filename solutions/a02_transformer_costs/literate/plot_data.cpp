// Figures of docs/03_transformer_costs.md.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <string>
#include <vector>

#include "a01_roofline/gpu_catalog.hpp"
#include "a02_transformer_costs/a02_transformer_costs.hpp"
#include "plot_data.hpp"

namespace rooflab::plots {
namespace {

using namespace a02_transformer_costs;

std::string fmt(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.6g", value);
  return buffer;
}

// One CSV row. (Appending piece by piece also keeps g++ 12's false -Wrestrict
// on `"literal" + std::string` away.)
std::string row(std::initializer_list<std::string> cells) {
  std::string line;
  for (const std::string& cell : cells) {
    if (!line.empty()) line += ',';
    line += cell;
  }
  line += '\n';
  return line;
}

double intensity(const Cost& cost) { return cost.flops / cost.bytes; }

struct Workload {
  std::string label;
  Pass pass;
};

const std::vector<Workload>& roofline_workloads() {
  static const std::vector<Workload> workloads{{"prefill B=1 N=1024", prefill(1, 1024)},
                                               {"decode B=1 N=1024", decode(1, 1024)},
                                               {"decode B=64 N=1024", decode(64, 1024)}};
  return workloads;
}

double attainable(double ai, const a01_roofline::GpuSpec& gpu) {
  return std::min(gpu.peak_flops_per_s, gpu.bandwidth_bytes_per_s * ai);
}

// One block per catalog GPU (gnuplot `index`), its first line the legend title.
std::string roofs() {
  std::string csv = "# the roofline of each a01 catalog GPU: intensity (FLOP/byte), attainable FLOP/s\n";
  for (const auto& gpu : a01_roofline::gpu_catalog()) {
    csv += row({"intensity", gpu.name});
    std::vector<double> points{gpu.peak_flops_per_s / gpu.bandwidth_bytes_per_s};  // the knee, exactly
    for (double e = -1; e <= 4.0001; e += 0.125) points.push_back(std::pow(10.0, e));
    std::sort(points.begin(), points.end());
    for (double ai : points) csv += row({fmt(ai), fmt(attainable(ai, gpu))});
    csv += "\n\n";
  }
  return csv;
}

// One block per workload: its point on every GPU's roof.
std::string workload_points() {
  std::string csv = "# GPT-2 XL passes placed on each catalog GPU's roof: intensity, attainable FLOP/s\n";
  for (const Workload& w : roofline_workloads()) {
    csv += row({"intensity", w.label});
    const double ai = intensity(model_cost(gpt2_xl(), w.pass));
    for (const auto& gpu : a01_roofline::gpu_catalog()) csv += row({fmt(ai), fmt(attainable(ai, gpu))});
    csv += "\n\n";
  }
  return csv;
}

std::string decode_ai_vs_batch() {
  const std::vector<double> kv_lengths{32, 256, 1024};
  const Hardware t4 = lab_t4();
  const std::string ridge = fmt(t4.peak_flops_per_s / t4.bandwidth_bytes_per_s);
  std::string csv = row({"batch", "KV length 32", "KV length 256", "KV length 1024", "T4 ridge point"});
  for (double batch = 1; batch <= 1024; batch *= 2) {
    std::vector<std::string> ai;
    for (double n : kv_lengths) ai.push_back(fmt(intensity(model_cost(gpt2_xl(), decode(batch, n)))));
    csv += row({fmt(batch), ai[0], ai[1], ai[2], ridge});
  }
  return csv;
}

// A grid for gnuplot's `with image`: log2(batch), log2(KV length), intensity;
// a blank line after each batch row.
std::string decode_ai_heatmap() {
  std::string csv = row({"log2 batch", "log2 KV length", "decode intensity"});
  for (int b = 0; b <= 8; ++b) {
    for (int k = 5; k <= 10; ++k)
      csv += row({std::to_string(b), std::to_string(k),
                  fmt(intensity(model_cost(gpt2_xl(), decode(std::pow(2.0, b), std::pow(2.0, k)))))});
    csv += "\n";
  }
  return csv;
}

std::string four_cases() {
  std::string csv = row({"case", "T_compute (ms)", "T_memory (ms)"});
  for (bool cached : {false, true})
    for (double batch : {1.0, 64.0})
      for (double n : {32.0, 1024.0}) {
        const Pass pass = cached ? decode(batch, n) : prefill(batch, n);
        const Timing t = roofline_time(model_cost(gpt2_xl(), pass), lab_t4());
        std::string label = cached ? "decode" : "prefill";
        label += " B=" + fmt(batch);
        label += " N=" + fmt(n);
        csv += row({label, fmt(1e3 * t.compute_s), fmt(1e3 * t.memory_s)});
      }
  return csv;
}

}  // namespace

void add_a02_transformer_costs_plot_data(Files& files) {
  files["a02_roofs.csv"] = roofs();
  files["a02_gpt2xl_points.csv"] = workload_points();
  files["a02_decode_ai_vs_batch.csv"] = decode_ai_vs_batch();
  files["a02_decode_ai_heatmap.csv"] = decode_ai_heatmap();
  files["a02_time_four_cases.csv"] = four_cases();
}

}  // namespace rooflab::plots
