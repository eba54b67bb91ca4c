// The GPU model against every run of a05's reference kernels recorded on a
// GPU (plots/recorded/<date>_<gpu>/attention_gpu.csv, written by
// tools/gpu/run_all.sh): plots/data/gpu_model_calibration.csv, one row per
// measured point. The counters at the measured shapes (N = 1024 … 8192,
// B·H = 16) would take the CPU runtime hours to count, so each kernel is
// counted at N = 64, 128 and 192 for one batch and head, where every tile
// of every reference kernel divides N, and carried to N exactly
// (rooflab::gpu_model::extrapolate).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "../profile/kernel_counts.hpp"
#include "rooflab/build_paths.hpp"
#if ROOFLAB_LITERATE_CUDA_ON_CPU
#include "ladder/ladder.hpp"
#endif
#include "rooflab/gpu_model_calibration.hpp"

namespace a05_cuda_attention::literate {

// run_all.sh's benchmark runs B = 1, H = 16 (bench attention's defaults).
inline constexpr double kRecordedBatchHeads = 16;
inline const std::vector<long long> kCountedLengths{64, 128, 192};
// The ladder, bottom to top: the bench's name for each rung, a05's
// reference launchers among them (standard, flash, tensor_core, mma_sync).
inline const std::vector<std::string> kLadder{"standard", "flash_one_row_per_thread", "flash_float_loads",
                                              "flash",    "tensor_core_unpadded",     "tensor_core",
                                              "mma_sync"};
inline bool is_reference(const std::string& method) {
  return method == "standard" || method == "flash" || method == "tensor_core" || method == "mma_sync";
}

// nvcc's registers (sm_90) for the reference's kernels (kernel_counts.hpp)
// and the ladder's earlier ones, measured the same way and checked by the
// same test (tools.reference_registers_are_nvccs).
inline constexpr profile::KernelRegisters kLadderRegistersSm90[] = {
    {"flash_forward_one_row_per_thread", 0, 96},
    {"flash_forward_float_loads", 0, 128},
    {"flash_forward_tensor_core_unpadded", 64, 61},
    {"flash_forward_tensor_core_unpadded", 128, 64},
};
inline int registers_sm90(const std::string& kernel, long long head_dim) {
  for (const profile::KernelRegisters& entry : profile::kReferenceRegistersSm90)
    if (kernel == entry.kernel && (entry.head_dim == 0 || entry.head_dim == head_dim)) return entry.registers;
  for (const profile::KernelRegisters& entry : kLadderRegistersSm90)
    if (kernel == entry.kernel && (entry.head_dim == 0 || entry.head_dim == head_dim)) return entry.registers;
  return 0;
}

// The kernel a run recorded on `date` measured for `method`: the reference
// itself, or, before the day it last changed, the ladder's earlier rung that
// it replaced (ladder/ladder.hpp); the bench times those rungs too, under
// their own names. Update it with the kernel: a change to a reference kernel
// adds a line here and keeps the old one as a rung.
struct MeasuredKernel {
  std::string source;  // "src/flash_attention.cu", "literate/ladder/…"
  profile::Launcher launcher;
};
inline MeasuredKernel measured_kernel(const std::string& method, const std::string& date) {
#if ROOFLAB_LITERATE_CUDA_ON_CPU
  // f5b5d29: the flash kernel split as FlashAttention-2 splits it; 7aeee54:
  // its loads, stores and shared-memory reads float4s.
  if (method == "flash_one_row_per_thread" || (method == "flash" && date < "2026-11-28"))
    return {"literate/ladder/flash_one_row_per_thread.cu", ladder::flash_attention_one_row_per_thread};
  if (method == "flash_float_loads" || (method == "flash" && date < "2026-11-29"))
    return {"literate/ladder/flash_float_loads.cu", ladder::flash_attention_float_loads};
  // c8e0b58: the tensor-core kernel's tiles padded, no bank conflicts.
  if (method == "tensor_core_unpadded" || (method == "tensor_core" && date < "2026-11-28"))
    return {"literate/ladder/flash_tensor_core_unpadded.cu", ladder::flash_attention_tensor_core_unpadded};
#else
  (void)date;
#endif
  const std::string file = method == "standard"               ? "standard_attention"
                           : method == "flash"                ? "flash_attention"
                           : method.rfind("mma_sync", 0) == 0 ? "flash_attention_mma_sync"
                                                              : "flash_attention_tensor_core";
  return {"src/" + file + ".cu", profile::launcher_of(method)};
}

// The kernel a run would measure today for `method`: the reference's, or the
// rung of that name.
inline MeasuredKernel current_kernel(const std::string& method) { return measured_kernel(method, "9999-12-31"); }

// An earlier rung still computes attention: its output at N = 100 (not a
// tile multiple) against the reference's launcher of the same kind. Throws
// naming the rung.
inline void check_rung(const MeasuredKernel& kernel, const std::string& method, int d, bool causal) {
  const bool tensor_cores = method.rfind("flash", 0) != 0;  // tensor_core_unpadded
  const Tensor4 q = rooflab::random_normal(1, 2, 100, d, 4), k = rooflab::random_normal(1, 2, 100, d, 5),
                v = rooflab::random_normal(1, 2, 100, d, 6);
  const AttentionResult rung = kernel.launcher(q, k, v, causal);
  const AttentionResult reference = profile::launcher_of(tensor_cores ? "tensor_core" : "flash")(q, k, v, causal);
  const double tolerance = tensor_cores ? 2e-2 : 1e-4;  // fp16 inputs, or fp32
  for (std::size_t i = 0; i < reference.output.data.size(); ++i)
    if (!(std::abs(rung.output.data[i] - reference.output.data[i]) <= tolerance))
      throw std::runtime_error(kernel.source + " (N = 100, d = " + std::to_string(d) + (causal ? ", causal" : "") +
                               "): output " + std::to_string(i) + " is " + std::to_string(rung.output.data[i]) +
                               ", the reference's " + std::to_string(reference.output.data[i]));
}

// A launcher's kernels modelled at (N, d, mask) with B·H = 16 on `gpu`: the
// time of all its kernels and the limit of the slowest. The counts at the
// three small lengths are taken once per kernel source, d and mask.
struct Modelled {
  double ms = 0;
  std::string limited_by;
};
inline Modelled model_at(const MeasuredKernel& kernel, const std::string& method, long long n, int d, bool causal,
                         const rooflab::gpu_model::Architecture& gpu) {
  namespace gm = rooflab::gpu_model;
  static std::map<std::tuple<std::string, int, bool>, std::vector<std::vector<rooflab::kernels::KernelRow>>> counted;
  auto& at_lengths = counted[{kernel.source, d, causal}];
  if (at_lengths.empty())
    for (const long long length : kCountedLengths)
      at_lengths.push_back(profile::count_launcher(method, kernel.launcher, 1, length, d, causal));
  Modelled modelled;
  double slowest = 0;
  for (const rooflab::kernels::KernelRow& carried :
       gm::extrapolate(at_lengths, kCountedLengths, n, kRecordedBatchHeads)) {
    const gm::Estimate estimate = gm::estimate_row(carried, gpu, registers_sm90(carried.kernel, d));
    modelled.ms += estimate.seconds * 1e3;
    if (estimate.seconds > slowest) {
      slowest = estimate.seconds;
      modelled.limited_by = carried.kernel + ": " + estimate.limited_by;
    }
  }
  return modelled;
}

inline std::vector<rooflab::gpu_model::RecordedTiming> recorded_timings() {
  std::vector<std::string> methods = kLadder;
  methods.push_back("mma_sync_bf16");
  return rooflab::gpu_model::read_recorded_timings(rooflab::build_paths::source_dir() / "plots" / "recorded", methods);
}

// The calibration rows: every recorded point beside the model of the kernel
// it measured. Only the header where the kernels run on a GPU (the CPU
// runtime counts them, nothing else does).
inline std::string gpu_model_calibration_csv() {
  namespace gm = rooflab::gpu_model;
  std::vector<gm::CalibrationRow> rows;
#if ROOFLAB_LITERATE_CUDA_ON_CPU
  // Every rung, measured or not yet, still computes attention, at both head
  // dimensions the benchmark runs, before any of its counts is used.
  for (const std::string& rung : kLadder)
    if (!is_reference(rung))
      for (const int d : {64, 128})
        for (const bool causal : {false, true}) check_rung(measured_kernel(rung, ""), rung, d, causal);
  for (const gm::RecordedTiming& timing : recorded_timings()) {
    const MeasuredKernel kernel = measured_kernel(timing.method, timing.date);
    const Modelled modelled =
        model_at(kernel, timing.method, timing.n, timing.d, timing.causal, gm::find_architecture(timing.gpu));
    gm::CalibrationRow row;
    row.method = timing.method;
    row.n = timing.n;
    row.d = timing.d;
    row.causal = timing.causal;
    row.gpu = timing.gpu;
    row.measured_on = timing.date;
    row.measured_ms = timing.ms;
    row.model_ms = modelled.ms;
    row.measured_kernel = kernel.source;
    row.limited_by = modelled.limited_by;
    rows.push_back(row);
  }
#endif
  return gm::calibration_csv(rows);
}

// What the model expects of every rung of the ladder (today's reference
// kernels among them) at every shape a run
// recorded (gpu_model_predictions.csv): "method,n,d,causal,gpu,model_ms,
// model_tflops,limited_by", for the next GPU run to confirm or refute.
inline std::string gpu_model_predictions_csv() {
  namespace gm = rooflab::gpu_model;
  std::string csv = "method,n,d,causal,gpu,model_ms,model_tflops,limited_by\n";
#if ROOFLAB_LITERATE_CUDA_ON_CPU
  std::vector<std::tuple<std::string, long long, int, bool>> shapes;
  for (const gm::RecordedTiming& timing : recorded_timings()) {
    const auto shape = std::make_tuple(timing.gpu, timing.n, timing.d, timing.causal);
    if (std::find(shapes.begin(), shapes.end(), shape) == shapes.end()) shapes.push_back(shape);
  }
  for (const auto& [gpu, n, d, causal] : shapes)
    for (const std::string& method : kLadder) {
      const Modelled modelled = model_at(current_kernel(method), method, n, d, causal, gm::find_architecture(gpu));
      // 4·B·H·N²·d FLOPs, halved under the causal mask (the benchmark's count).
      const double flops = 4.0 * kRecordedBatchHeads * static_cast<double>(n) * n * d * (causal ? 0.5 : 1.0);
      char line[256];
      std::snprintf(line, sizeof line, "%s,%lld,%d,%d,%s,%.4f,%.2f,%s\n", method.c_str(), n, d, causal ? 1 : 0,
                    gpu.c_str(), modelled.ms, flops / (modelled.ms * 1e-3) / 1e12, modelled.limited_by.c_str());
      csv += line;
    }
#endif
  return csv;
}

}  // namespace a05_cuda_attention::literate
