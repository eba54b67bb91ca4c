// What each CUDA kernel of a launcher moved at one shape, as the CPU runtime
// counted it (rooflab/cuda_cpu.hpp), with the FLOPs of the assignment's
// formula and the tensor-core FLOPs the runtime counted: the rows a05's and
// a06's profiles print, `lab profile` shows as a table beside the
// reference's, and the grader's report draws on a roofline.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "rooflab/gpu_model.hpp"
#include "rooflab/kernel_roofline.hpp"

namespace rooflab::kernels {

// One source line's loads or stores in a kernel, over its launches: what
// Nsight Compute's source view shows line by line.
struct LineRow {
  std::string line;  // "src/flash_attention.cu:57"
  bool shared = false, store = false;
  double requests = 0;
  double units = 0;  // 32-byte sectors (global) or wavefronts (shared)
  double bank_conflicts = 0;
};

struct KernelRow {
  std::string method;  // the launcher: "standard", "flash", "decode" …
  std::string kernel;
  long long n = 0;  // the shape's sequence length
  double launches = 0;
  double flops = 0;  // on the CUDA cores
  double dram_bytes = 0;
  double load_requests = 0, load_sectors = 0, store_requests = 0, store_sectors = 0;
  double shared_requests = 0, shared_bank_conflicts = 0;
  double tensor_core_flops = 0;  // the runtime's count: 2·m·n·k per mma
  // Its launch shape: blocks per launch (the average where launches differ),
  // and the last launch's threads per block and shared memory per block
  // (static and dynamic). 0 in a CSV from before shapes were recorded.
  double blocks = 0, threads_per_block = 0, shared_bytes_per_block = 0;
  // The most requests one warp made, in any launch (MemoryCounters).
  double heaviest_warp_requests = 0;
  // Of the load requests, cp.async's, and the warps' cp.async waits
  // (MemoryCounters). 0 in a CSV from before they were counted.
  double async_copy_requests = 0, async_copy_waits = 0;
  // Its source lines with the most bank conflicts, then the most traffic
  // (sectors and wavefronts), at most kLinesPerKernel; only from
  // profile_kernels (not in the CSV).
  std::vector<LineRow> lines = {};
};
inline constexpr std::size_t kLinesPerKernel = 5;

// Runs `call` and returns a row per kernel it launched, a kernel's launches
// merged, in the order of their first launch. `flops(kernel)` gives all of a
// kernel's FLOPs over its launches, by the assignment's formula, whichever
// unit does them; the tensor-core FLOPs the runtime counted are taken out of
// them (down to 0), so a row's `flops` are what is left for the CUDA cores
// and no FLOP counts twice. Empty where kernels ran on a GPU.
std::vector<KernelRow> profile_kernels(const std::string& method, long long n, const std::function<void()>& call,
                                       const std::function<double(const std::string& kernel)>& flops);

// One CSV line a row: "kernel,<method>,<kernel>,<n>,<launches>,<flops>,…,
// <tensor_core_flops>,<blocks>,<threads_per_block>,<shared_bytes_per_block>,
// <heaviest_warp_requests>,<async_copy_requests>,<async_copy_waits>".
std::string csv_header();
std::string csv_row(const KernelRow& row);
// Whether `line` is a kernel row (fields parsed as numbers, names capped and
// checked as identifiers: a submission's profile prints what it likes). Rows
// from older CSVs, without the launch shape (14 fields) or also without the
// tensor-core FLOPs (13), read those as 0.
bool parse_csv_row(const std::string& line, KernelRow& row);
std::vector<KernelRow> parse_csv(const std::string& text);

// A limit a lab grades a kernel's counters against (a05's memory-efficiency
// rungs): the tables mark a figure past it, with the limit.
struct GradedLimit {
  std::string kernel;
  double bank_conflicts_per_request = 0;
};

// A Markdown table of `rows` on `gpu`: requests, sectors per request, bank
// conflicts per request, DRAM bytes, CUDA-core and tensor-core FLOPs ("—"
// where a kernel ran no tensor-core operation), intensity (all FLOPs) and the
// roofline bound with the 30–75 % range real kernels reach, each beside the
// `reference` row of the same method and kernel where there is one.
std::string markdown_table(const std::vector<KernelRow>& rows, const std::vector<KernelRow>& reference,
                           const roofline::CudaCoreGpu& gpu, const std::vector<GradedLimit>& limits = {});

// Each kernel's lines with the most traffic, as a Markdown table: requests,
// sectors or wavefronts per request, bank conflicts per request; "" when no
// row has lines.
std::string lines_table(const std::vector<KernelRow>& rows, const std::vector<GradedLimit>& limits = {});

// nvcc's registers per thread by kernel name; a kernel not listed is assumed
// to use gpu_model::kAssumedRegisters.
using Registers = std::map<std::string, int>;

// What the GPU model takes for each kernel: the reference's counts (nvcc's for
// sm_90, whichever GPU is modelled) for the reference's kernels and for yours
// of the same name, unless nvcc compiled your own file (`lab profile` runs
// `nvcc --resource-usage` on it where nvcc is installed). The tables say which.
struct RegisterCounts {
  Registers reference;
  Registers yours;
};

// The counts as CSV lines "registers,<whose>,<kernel>,<count>" (whose is
// "reference" or "yours"): what `profile --registers` prints for the grader,
// which reads them back with parse_registers_csv (other lines are skipped).
std::string registers_csv(const RegisterCounts& registers);
RegisterCounts parse_registers_csv(const std::string& text);

// Where the model's registers per thread come from, as a sentence's end:
// nvcc's for your kernels where it compiled your files (`nvcc_ran`), else the
// reference's kernel of that name, else assumed.
std::string registers_source(const RegisterCounts& registers, bool nvcc_ran);

// A Markdown table of where the GPU model (rooflab/gpu_model.hpp) places each
// row on `gpu` at the profile's shape: launch shape, registers, blocks per SM
// and what limits them, occupancy, SMs given a block, rounds of resident
// blocks on the busiest SM, the limit that decides, the modelled time and
// TFLOP/s, and the roofline's bound beside them; each beside the reference's
// row of the same kernel. A row without a launch shape (an older CSV) says so.
std::string model_table(const std::vector<KernelRow>& rows, const std::vector<KernelRow>& reference,
                        const gpu_model::Architecture& gpu, const RegisterCounts& registers);

// A gnuplot script drawing `gpu`'s rooflines (CUDA cores and tensor cores)
// and each kernel on them (the submission's filled, the reference's open),
// and below the roof where the GPU model puts each (triangles), into `png`.
std::string roofline_script(const std::vector<KernelRow>& rows, const std::vector<KernelRow>& reference,
                            const roofline::CudaCoreGpu& gpu, const std::string& png,
                            const RegisterCounts& registers = {});

// What a profile does with its rows, by its command line:
//   (no flags)  the CSV rows on stdout: what the grader reads;
//   --registers [--nvcc-registers FILE]
//               registers_csv of the reference's counts and, from FILE, yours
//               (what the grader's report hands the GPU model);
//   --table [--gpu ID] [--reference FILE] [--plot FILE.gp] [--calibration FILE]
//           [--nvcc-registers FILE]
//               the Markdown tables on `--gpu` (default h100): the counters
//               and the roofline, then the GPU model's estimate, beside the
//               rows of FILE (the reference profile's CSV) where given; with
//               --calibration the model against every recorded measurement
//               (plots/data/gpu_model_calibration.csv); with --plot a gnuplot
//               script drawing the roofline into FILE.png; with
//               --nvcc-registers what `nvcc --resource-usage` printed for the
//               submission's own .cu files, whose counts at `head_dim` the
//               model then takes for its kernels (`lab profile` passes these).
// `count_rows` runs the kernels only for the modes that print them: a bad
// flag, or --registers, costs no profile run.
// Returns the exit code; a bad flag is 2, with a message naming it.
int report_kernels(const std::function<std::vector<KernelRow>()>& count_rows, int argc, char** argv,
                   const std::vector<GradedLimit>& limits = {}, const Registers& reference_registers = {},
                   long long head_dim = 0);

}  // namespace rooflab::kernels
