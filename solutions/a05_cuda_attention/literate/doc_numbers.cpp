// Every number docs/06 and the a05 lab README quote, from the reference: the
// worked example's output, and the device memory each launcher needs, counted
// by the course's DeviceBuffer (the same on a GPU and in the CPU runtime).
#include <cstdint>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "../profile/kernel_counts.hpp"
#include "a05_cuda_attention/a05_cuda_attention.hpp"
#include "doc_regions.hpp"
#include "gpu_model_calibration.hpp"
#include "rooflab/build_paths.hpp"
#include "rooflab/device_buffer_bytes.hpp"
#include "rooflab/gpu_model_calibration.hpp"
#include "rooflab/kernel_profile.hpp"
#include "rooflab/ldmatrix_banks.hpp"
#include "rooflab/tensor_core_layouts.hpp"
#include "rooflab/worker_report.hpp"

namespace rooflab::docs {
namespace {

constexpr double kMiB = 1 << 20;

// The most device memory `launch` held at once, in MiB.
template <class Launch>
double peak_mib(Launch launch) {
  rooflab::cuda::reset_device_buffer_peak();
  const std::size_t before = rooflab::cuda::device_buffer_bytes();
  launch();
  return static_cast<double>(rooflab::cuda::device_buffer_peak() - before) / kMiB;
}

// Device memory of one causal head (B = H = 1, d = 64, fp32) against N.
std::string device_memory_table() {
  std::string table =
      "| N | standard attention (MiB) | flash attention (MiB) | standard / flash |\n"
      "|---:|---:|---:|---:|\n";
  for (const std::int64_t n : {128, 256, 512}) {
    const Tensor4 q = random_normal(1, 1, n, 64, 1), k = random_normal(1, 1, n, 64, 2),
                  v = random_normal(1, 1, n, 64, 3);
    const double standard = peak_mib([&] { a05_cuda_attention::standard_attention_cuda(q, k, v, true); });
    const double flash = peak_mib([&] { a05_cuda_attention::flash_attention_cuda(q, k, v, true); });
    table += "| " + fmt("%.0f", static_cast<double>(n)) + " | " + fmt("%.3f", standard) + " | " + fmt("%.3f", flash) +
             " | " + fmt("%.1f", standard / flash) + " |\n";
  }
  return table;
}

// The reference's kernels as the CPU runtime counts them (once: it takes seconds).
const std::vector<rooflab::kernels::KernelRow>& reference_kernels() {
  static const auto rows = a05_cuda_attention::profile::count_kernels();
  return rows;
}

// Their table on the H100.
std::string kernel_counts_table() {
  return rooflab::kernels::markdown_table(reference_kernels(), {}, rooflab::roofline::cuda_core_gpus().front());
}

// The reference flash kernel against the memory-efficiency rung's limits:
// DRAM bytes over its five tensors' bytes, and bank conflicts per request.
std::string flash_memory_figures(bool conflicts) {
  using namespace a05_cuda_attention::profile;
  for (const auto& row : reference_kernels()) {
    if (row.kernel != "flash_forward") continue;
    const double tensor = 4.0 * kBatch * kHeads * kLength;  // bytes of one row of each tensor, times N
    const double tensors = tensor * (4 * kHeadDim + 1);     // Q, K, V, O and the log-sum-exp
    return conflicts ? fmt("%.2f", row.shared_bank_conflicts / row.shared_requests)
                     : fmt("%.2f", row.dram_bytes / tensors);
  }
  return "?";
}

// The same for the reference tensor-core kernel (Q, K and V in fp16), at the
// profile's shape: DRAM bytes over its tensors', conflicts per request, and
// its tensor-core operations (wmma::mma_sync calls, counted per warp).
std::string tensor_core_memory_figures(const std::string& figure) {
  using namespace a05_cuda_attention::profile;
  static const rooflab::testing::WorkerReport report = [] {
    const Tensor4 q = random_normal(kBatch, kHeads, kLength, kHeadDim, 1),
                  k = random_normal(kBatch, kHeads, kLength, kHeadDim, 2),
                  v = random_normal(kBatch, kHeads, kLength, kHeadDim, 3);
    rooflab::testing::take_worker_report();
    a05_cuda_attention::flash_attention_tensor_core(q, k, v, false);
    return rooflab::testing::take_worker_report();
  }();
  double dram = 0, conflicts = 0, requests = 0, operations = 0;
  for (const auto& launch : report.launches) {
    dram += static_cast<double>(launch.dram_read_bytes + launch.dram_write_bytes);
    conflicts += static_cast<double>(launch.shared_bank_conflicts);
    requests += static_cast<double>(launch.shared_load_requests + launch.shared_store_requests);
    operations += static_cast<double>(launch.tensor_core_operations);
  }
  const double rows = static_cast<double>(kBatch * kHeads * kLength);
  const double tensors = rows * (3 * 2 * kHeadDim + 4 * kHeadDim + 4);  // Q, K, V in fp16; O and the lse in fp32
  if (figure == "dram") return fmt("%.2f", dram / tensors);
  if (figure == "conflicts") return fmt("%.2f", requests ? conflicts / requests : 0.0);
  return fmt("%.0f", operations);
}

// "H100 SXM 66.9 TFLOP/s, A100 19.5, …": the fp32 (or, with `tensor`, the
// dense fp16 tensor-core) peaks the estimate uses.
std::string peaks(bool tensor) {
  std::string text;
  for (const auto& gpu : rooflab::roofline::cuda_core_gpus()) {
    const double peak = tensor ? gpu.tensor_flops_per_s : gpu.fp32_flops_per_s;
    text += (text.empty() ? "" : ", ") + gpu.name + " " + fmt("%.1f", peak / 1e12);
    if (text.find("TFLOP/s") == std::string::npos) text += " TFLOP/s";
  }
  return text;
}

// Which lane holds each element of a rows × cols fragment of mma.sync,
// `per_lane` elements a lane, by the PTX ISA's mapping
// (rooflab/tensor_core_layouts.hpp), as a text figure.
template <class Mapping>
std::string lane_figure(const std::string& title, int rows, int cols, int per_lane, Mapping mapping) {
  std::vector<int> lane_at(static_cast<std::size_t>(rows * cols), -1);
  for (int lane = 0; lane < 32; ++lane)
    for (int i = 0; i < per_lane; ++i) {
      const rooflab::tensor_core::Element at = mapping(lane, i);
      lane_at[static_cast<std::size_t>(at.row * cols + at.col)] = lane;
    }
  std::string text = "```text\n" + title + "\n row \\ col";
  for (int col = 0; col < cols; ++col) text += fmt("%3.0f", col);
  text += "\n";
  for (int row = 0; row < rows; ++row) {
    text += fmt("%8.0f  ", row);
    for (int col = 0; col < cols; ++col) text += fmt("%3.0f", lane_at[static_cast<std::size_t>(row * cols + col)]);
    text += "\n";
  }
  return text + "```\n";
}

// The wavefronts of the ldmatrix.x4 that reads a 16 × 16 fp16 A from a tile
// whose rows are `row_bytes` apart (lane l gives row l % 16, 16-byte chunk
// l / 16), its chunks XOR-swizzled (chunk c of row r at c ^ (r % 8)) or not.
std::string a_tile_wavefronts(int row_bytes, bool swizzled) {
  std::uintptr_t rows[32];
  for (int lane = 0; lane < 32; ++lane) {
    const int row = lane % 16, chunk = swizzled ? (lane / 16) ^ (row % 8) : lane / 16;
    rows[lane] = static_cast<std::uintptr_t>(row * row_bytes + chunk * 16);
  }
  return fmt("%.0f", rooflab::cuda::ldmatrix_wavefronts(rows, 4));
}

// A file of plots/data, which `rooflab plots --check` keeps equal to what the
// reference computes (the GPU model's files take half a minute to compute).
std::string plot_data(const std::string& name) {
  std::ifstream in(rooflab::build_paths::source_dir() / "plots" / "data" / name);
  if (!in) throw std::runtime_error("plots/data/" + name + ": cannot read it (rooflab plots writes it)");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The GPU model's predictions on the H100 without the mask
// (gpu_model_predictions.csv): (method, N, d) -> TFLOP/s.
std::map<std::tuple<std::string, long long, int>, double> h100_predictions() {
  std::map<std::tuple<std::string, long long, int>, double> predicted;
  std::stringstream lines(plot_data("gpu_model_predictions.csv"));
  std::string line;
  std::getline(lines, line);  // the header
  while (std::getline(lines, line)) {
    std::vector<std::string> f;
    std::stringstream fields(line);
    for (std::string field; std::getline(fields, field, ',');) f.push_back(field);
    if (f.size() == 8 && f[3] == "0" && f[4] == "h100")
      predicted[{f[0], std::stoll(f[1]), std::stoi(f[2])}] = std::stod(f[6]);
  }
  return predicted;
}

// Today's reference kernels by the model, at the benchmark's shapes: TFLOP/s
// of each launcher and the flash kernel over the standard ones.
std::string gpu_model_predictions_table() {
  std::map<std::tuple<long long, int>, std::map<std::string, double>> by_shape;  // (N, d) -> method -> TFLOP/s
  for (const auto& [key, tflops] : h100_predictions())
    by_shape[{std::get<1>(key), std::get<2>(key)}][std::get<0>(key)] = tflops;
  std::string table =
      "| N | d | standard | flash | tensor_core | flash / standard |\n|---:|---:|---:|---:|---:|---:|\n";
  for (const auto& [shape, tflops] : by_shape)
    table += "| " + std::to_string(std::get<0>(shape)) + " | " + std::to_string(std::get<1>(shape)) + " | " +
             fmt("%.1f", tflops.at("standard")) + " | " + fmt("%.1f", tflops.at("flash")) + " | " +
             fmt("%.1f", tflops.at("tensor_core")) + " | " + fmt("%.2f", tflops.at("flash") / tflops.at("standard")) +
             " |\n";
  return table;
}

// The WMMA reference and the mma.sync rung at the profile's shape, as the
// CPU runtime counts them: what keeping S and P in registers, swizzling and
// cp.async change.
std::string mma_sync_counts_table() {
  using namespace a05_cuda_attention::profile;
  std::string table =
      "| rung | shared requests | bank conflicts | global load requests | of them cp.async | cp.async waits "
      "(per warp) | tensor-core FLOPs |\n|---|---:|---:|---:|---:|---:|---:|\n";
#if ROOFLAB_LITERATE_CUDA_ON_CPU
  for (const std::string method : {"tensor_core", "mma_sync"})
    for (const rooflab::kernels::KernelRow& row : count_launcher(
             method, a05_cuda_attention::literate::current_kernel(method).launcher, kHeads, kLength, kHeadDim, false))
      table += "| " + method + " | " + fmt("%.0f", row.shared_requests) + " | " +
               fmt("%.0f", row.shared_bank_conflicts) + " | " + fmt("%.0f", row.load_requests) + " | " +
               fmt("%.0f", row.async_copy_requests) + " | " + fmt("%.0f", row.async_copy_waits) + " | " +
               fmt("%.0f", row.tensor_core_flops) + " |\n";
#endif
  return table;
}

// The ladder on an H100 at N = 4096, B·H = 16, without the mask: each rung,
// what it changed, the model's TFLOP/s (gpu_model_predictions.csv), what a
// GPU measured of that very kernel where a run did (gpu_model_calibration.csv),
// and PyTorch's FlashAttention-2 measured in the latest run.
std::string ladder_table() {
  constexpr long long kN = 4096;
  const std::map<std::string, std::string> changes{
      {"standard", "three kernels; S and P through device memory"},
      {"flash_one_row_per_thread", "one kernel; a thread per query row"},
      {"flash_float_loads", "FlashAttention-2's split: 4 warps of 16 rows, a register tile per lane"},
      {"flash", "the same, 16 bytes per load and store"},
      {"tensor_core_unpadded", "WMMA; S, P and O through shared memory"},
      {"tensor_core", "rows padded: no bank conflicts"},
      {"mma_sync", "mma.sync and ldmatrix; S, P and O in registers; swizzled tiles; cp.async double buffering"}};
  const auto tflops = [&](double ms, int d) { return 4.0 * 16 * kN * kN * d / (ms * 1e-3) / 1e12; };
  std::map<std::pair<std::string, int>, double> model, measured;  // (method, d) -> TFLOP/s
  for (const auto& [key, tflops] : h100_predictions())
    if (std::get<1>(key) == kN) model[{std::get<0>(key), std::get<2>(key)}] = tflops;
  std::string measured_on;
  for (const auto& row : rooflab::gpu_model::parse_calibration_csv(plot_data("gpu_model_calibration.csv")))
    for (const std::string& method : a05_cuda_attention::literate::kLadder)
      if (row.n == kN && !row.causal && row.gpu == "h100" &&
          row.measured_kernel == a05_cuda_attention::literate::current_kernel(method).source) {
        measured[{method, row.d}] = tflops(row.measured_ms, row.d);
        measured_on = row.measured_on;
      }
  std::map<int, double> pytorch;  // d -> TFLOP/s, the latest run's
  for (const auto& timing : rooflab::gpu_model::read_recorded_timings(
           rooflab::build_paths::source_dir() / "plots" / "recorded", {"torch_flash"}))
    if (timing.n == kN && !timing.causal && timing.gpu == "h100") pytorch[timing.d] = tflops(timing.ms, timing.d);
  const auto cell = [](const std::map<std::pair<std::string, int>, double>& values, const std::string& method, int d) {
    const auto found = values.find({method, d});
    return found == values.end() ? std::string("—") : fmt("%.1f", found->second);
  };
  std::string table =
      "| rung | what it changed | source | d = 64: model | d = 64: measured | d = 128: model | d = 128: measured "
      "|\n|---|---|---|---:|---:|---:|---:|\n";
  for (const std::string& method : a05_cuda_attention::literate::kLadder)
    // The source, plain: the earlier rungs are the instructors' alone.
    table += "| " + method + " | " + changes.at(method) + " | " +
             a05_cuda_attention::literate::current_kernel(method).source + " | " + cell(model, method, 64) + " | " +
             cell(measured, method, 64) + " | " + cell(model, method, 128) + " | " + cell(measured, method, 128) +
             " |\n";
  table += "| PyTorch's FlashAttention-2 | fp16, measured beside them | | | " +
           (pytorch.count(64) ? fmt("%.1f", pytorch.at(64)) : std::string("—")) + " | | " +
           (pytorch.count(128) ? fmt("%.1f", pytorch.at(128)) : std::string("—")) + " |\n";
  if (pytorch.count(64) && pytorch.count(128))
    table += "\nThe model puts the mma.sync rung at " + fmt("%.2f", model.at({"mma_sync", 64}) / pytorch.at(64)) +
             " (d = 64) and " + fmt("%.2f", model.at({"mma_sync", 128}) / pytorch.at(128)) +
             " (d = 128) of PyTorch's FlashAttention-2 as measured on " + measured_on + ".\n";
  return table;
}

}  // namespace

void add_a05_cuda_attention_numbers(Values& values) {
  values["a05.mma_a_layout_figure"] = [] {
    return lane_figure("A of mma.m16n8k16 (16 × 16): the lane that holds each element", 16, 16, 8,
                       rooflab::tensor_core::a_m16n8k16);
  };
  values["a05.mma_c_layout_figure"] = [] {
    return lane_figure("C and D of mma.m16n8k16 (16 × 8): the lane that holds each element", 16, 8, 4,
                       rooflab::tensor_core::c_m16n8);
  };
  values["a05.ldmatrix_unswizzled_wavefronts"] = [] { return a_tile_wavefronts(128, false); };
  values["a05.ldmatrix_swizzled_wavefronts"] = [] { return a_tile_wavefronts(128, true); };
  values["a05.ldmatrix_padded_wavefronts"] = [] { return a_tile_wavefronts(144, false); };
  values["a05.cuda_core_peaks"] = [] { return peaks(false); };
  values["a05.tensor_core_peaks"] = [] { return peaks(true); };
  values["a05.kernel_counts_table"] = [] { return kernel_counts_table(); };
  values["a05.flash_dram_over_tensors"] = [] { return flash_memory_figures(false); };
  values["a05.flash_conflicts_per_request"] = [] { return flash_memory_figures(true); };
  values["a05.tensor_core_dram_over_tensors"] = [] { return tensor_core_memory_figures("dram"); };
  values["a05.tensor_core_conflicts_per_request"] = [] { return tensor_core_memory_figures("conflicts"); };
  values["a05.tensor_core_operations"] = [] { return tensor_core_memory_figures("operations"); };
  values["a05.usage_output"] = [] { return program_output_block(ROOFLAB_EXAMPLE_PATH_PREFIX "usage"); };
  values["a05.device_memory_table"] = [] { return device_memory_table(); };
  values["a05.gpu_model_calibration"] = [] {
    return rooflab::gpu_model::calibration_summary(
        rooflab::gpu_model::parse_calibration_csv(plot_data("gpu_model_calibration.csv")));
  };
  values["a05.gpu_model_predictions"] = [] { return gpu_model_predictions_table(); };
  values["a05.ladder_table"] = [] { return ladder_table(); };
  values["a05.mma_sync_counts"] = [] { return mma_sync_counts_table(); };
}

}  // namespace rooflab::docs
