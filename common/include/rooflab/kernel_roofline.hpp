// Where a CUDA kernel would sit on a GPU's roofline, from what the CPU
// runtime counted of it (rooflab/cuda_cpu.hpp): the FLOPs its assignment's
// formula gives, the tensor-core FLOPs the runtime counted apart (2·m·n·k per
// mma), and the DRAM bytes it touched. The estimate is a bound, never a
// measured time:
//   time ≥ max(CUDA-core FLOPs / fp32 peak, tensor-core FLOPs / tensor peak,
//              bytes / bandwidth),
// and real kernels reach roughly 30–75 % of it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace rooflab::roofline {

// A GPU as a kernel sees it: the fp32 peak of its CUDA cores, the dense
// fp16/bf16 peak of its tensor cores (not the 2:4-sparse figure) and its DRAM
// bandwidth. The tensor peaks and the bandwidths are a01's catalog's
// (a01_roofline/src/gpu_catalog.cpp, docs/02_roofline.md), copied, and
// tools.KernelRoofline.PeaksAndBandwidthsAreThoseOfA01sCatalog checks that
// they agree for every GPU a01 lists (all but the RTX 4090). Copied rather
// than shared: a01's catalog is a file of the student's lab, which reads
// best as the plain table it is, and the course's tools should not link a
// lab's library (in the student build it holds the student's code).
struct CudaCoreGpu {
  std::string id;
  std::string name;
  double fp32_flops_per_s;
  double tensor_flops_per_s;
  double bytes_per_s;
};

// H100 first (the default), then A100, T4 and RTX 4090.
const std::vector<CudaCoreGpu>& cuda_core_gpus();
// Throws std::invalid_argument naming `id` and the known ids.
const CudaCoreGpu& find_cuda_core_gpu(std::string_view id);

inline constexpr double kTypicalEfficiencyLow = 0.30;
inline constexpr double kTypicalEfficiencyHigh = 0.75;

struct Estimate {
  double intensity = 0;  // all FLOPs (CUDA-core and tensor-core) per DRAM byte
  double cuda_core_s = 0, tensor_core_s = 0;
  double compute_s = 0;  // the larger of the two: the units run concurrently
  double memory_s = 0;
  double bound_s = 0;  // the largest: no kernel on that GPU runs faster
  bool memory_bound = false;
  bool tensor_core_bound = false;     // compute-bound, by the tensor cores
  double attainable_flops_per_s = 0;  // all FLOPs / bound_s: min(mix's peak, intensity × bandwidth)
};
// `cuda_flops` run on the CUDA cores at the fp32 peak, `tensor_flops` on the
// tensor cores at theirs.
Estimate estimate(double cuda_flops, double dram_bytes, const CudaCoreGpu& gpu, double tensor_flops = 0);

}  // namespace rooflab::roofline
