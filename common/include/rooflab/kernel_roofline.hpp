// Where a CUDA kernel would sit on a GPU's roofline, from what the CPU
// runtime counted of it (rooflab/cuda_cpu.hpp): the FLOPs its assignment's
// formula gives and the DRAM bytes it touched. The estimate is a bound, never
// a measured time: time ≥ max(FLOPs / peak, bytes / bandwidth), and real
// kernels reach roughly 30–75 % of it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace rooflab::roofline {

// A GPU as fp32 kernels on its CUDA cores see it (the course's kernels use
// no tensor cores): the fp32 peak and the DRAM bandwidth. The bandwidths are
// a01's catalog's (docs/02_roofline.md); a test checks that they agree.
struct CudaCoreGpu {
  std::string id;
  std::string name;
  double fp32_flops_per_s;
  double bytes_per_s;
};

// H100 first (the default), then A100, T4 and RTX 4090.
const std::vector<CudaCoreGpu>& cuda_core_gpus();
// Throws std::invalid_argument naming `id` and the known ids.
const CudaCoreGpu& find_cuda_core_gpu(std::string_view id);

inline constexpr double kTypicalEfficiencyLow = 0.30;
inline constexpr double kTypicalEfficiencyHigh = 0.75;

struct Estimate {
  double intensity = 0;  // FLOPs per DRAM byte
  double compute_s = 0, memory_s = 0;
  double bound_s = 0;  // the larger: no kernel on that GPU runs faster
  bool memory_bound = false;
  double attainable_flops_per_s = 0;  // min(peak, intensity × bandwidth)
};
Estimate estimate(double flops, double dram_bytes, const CudaCoreGpu& gpu);

}  // namespace rooflab::roofline
