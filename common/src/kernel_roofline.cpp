#include "rooflab/kernel_roofline.hpp"

#include <algorithm>
#include <stdexcept>

namespace rooflab::roofline {

const std::vector<CudaCoreGpu>& cuda_core_gpus() {
  // fp32 (non-tensor) peaks from NVIDIA's datasheets; bandwidths as a01's catalog.
  static const std::vector<CudaCoreGpu> gpus{
      {"h100", "H100 SXM, fp32 CUDA cores", 66.9e12, 3.35e12},
      {"a100", "A100 SXM 80GB, fp32 CUDA cores", 19.5e12, 2.039e12},
      {"t4", "T4, fp32 CUDA cores", 8.1e12, 0.320e12},
      {"rtx4090", "RTX 4090, fp32 CUDA cores", 82.6e12, 1.008e12},
  };
  return gpus;
}

const CudaCoreGpu& find_cuda_core_gpu(std::string_view id) {
  std::string known;
  for (const CudaCoreGpu& gpu : cuda_core_gpus()) {
    if (gpu.id == id) return gpu;
    known += (known.empty() ? "" : ", ") + gpu.id;
  }
  throw std::invalid_argument("--gpu " + std::string(id) + ": not a GPU the roofline estimate knows (" + known + ")");
}

Estimate estimate(double flops, double dram_bytes, const CudaCoreGpu& gpu) {
  Estimate result;
  result.compute_s = flops / gpu.fp32_flops_per_s;
  result.memory_s = dram_bytes / gpu.bytes_per_s;
  result.bound_s = std::max(result.compute_s, result.memory_s);
  result.memory_bound = result.memory_s >= result.compute_s;
  result.intensity = dram_bytes > 0 ? flops / dram_bytes : 0;
  result.attainable_flops_per_s = std::min(gpu.fp32_flops_per_s, result.intensity * gpu.bytes_per_s);
  return result;
}

}  // namespace rooflab::roofline
