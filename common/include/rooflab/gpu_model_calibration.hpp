// The GPU model (rooflab/gpu_model.hpp) against what a GPU measured: the
// recorded runs of tools/gpu/run_all.sh (plots/recorded/<date>_<gpu>/
// attention_gpu.csv), each reference kernel's counters carried from shapes
// the CPU runtime can run to the measured ones, and one row per measured
// point (plots/data/gpu_model_calibration.csv, which `lab plots --check`
// keeps equal to what this code computes and `lab profile` summarises).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "rooflab/gpu_model.hpp"
#include "rooflab/kernel_profile.hpp"

namespace rooflab::gpu_model {

// One point of a recorded run: a launcher (run_all.sh's kernel column:
// "standard", "flash", "tensor_core") at one shape.
struct RecordedTiming {
  std::string gpu;   // the folder's GPU id: "h100"
  std::string date;  // the folder's date: "2026-11-27"
  std::string method;
  long long n = 0;
  int d = 0;
  bool causal = false;
  double ms = 0;
};

// Every "<method>,<n>,<d>,<causal>,<ms>,<tflops>" line of each
// <folder>/<date>_<gpu>/attention_gpu.csv whose method is one of `methods`,
// folders in name order (oldest first). Throws naming the file and line for a
// line that starts like a point but does not parse, and for a folder whose
// name is not <yyyy-mm-dd>_<gpu id the model knows>.
std::vector<RecordedTiming> read_recorded_timings(const std::filesystem::path& folder,
                                                  const std::vector<std::string>& methods);

// A kernel's rows at three lengths carried to a fourth: every counter, and
// the blocks per launch, is a polynomial of degree two in N wherever N is a
// multiple of every tile of the kernel (the products grow as N², the tensor
// reads and writes as N), so three lengths determine it exactly. The result
// is scaled by `batch_heads` (the rows were counted for one batch and head).
// Threads and shared memory per block are the last length's. Kernels are
// matched by name; throws when a kernel is missing at one length.
std::vector<kernels::KernelRow> extrapolate(const std::vector<std::vector<kernels::KernelRow>>& at_lengths,
                                            const std::vector<long long>& lengths, long long n, double batch_heads);

// What the model makes of one kernel row on `gpu`, with nvcc's register
// count where known (0: assumed, gpu_model::kAssumedRegisters).
Estimate estimate_row(const kernels::KernelRow& row, const Architecture& gpu, int registers);

struct CalibrationRow {
  std::string method;
  long long n = 0;
  int d = 0;
  bool causal = false;
  std::string gpu, measured_on;
  double measured_ms = 0, model_ms = 0;
  // The source of the kernel the run measured and the model was given:
  // "src/flash_attention.cu", or an earlier rung the reference replaced
  // since ("literate/ladder/flash_one_row_per_thread.cu").
  std::string measured_kernel;
  std::string limited_by;  // the model's deciding limit, of the slowest kernel
};
std::string calibration_csv(const std::vector<CalibrationRow>& rows);
// Throws naming the line for a row that does not parse.
std::vector<CalibrationRow> parse_calibration_csv(const std::string& text);
// A Markdown table, a row per launcher and run: the kernel measured, the
// model's ratio to the measured times (least, geometric mean, most), how
// many lie within 2×, and the limit the model finds most often. "" for no
// rows.
std::string calibration_summary(const std::vector<CalibrationRow>& rows);

}  // namespace rooflab::gpu_model
