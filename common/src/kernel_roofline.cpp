#include "rooflab/kernel_roofline.hpp"

#include <algorithm>
#include <stdexcept>

namespace rooflab::roofline {

const std::vector<CudaCoreGpu>& cuda_core_gpus() {
  // fp32 (non-tensor) peaks from NVIDIA's datasheets. Dense fp16/bf16
  // tensor-core peaks and bandwidths as a01's catalog (docs/02_roofline.md),
  // fp32 accumulate, except the RTX 4090, which a01 does not list: 165.2 is
  // the Ada whitepaper's dense fp16 tensor figure with fp16 accumulate (with
  // fp32 accumulate, as a05's kernel does, a GeForce card runs at half that,
  // 82.6). The higher peak keeps the estimate a bound, only a looser one.
  static const std::vector<CudaCoreGpu> gpus{
      {"h100", "H100 SXM", 66.9e12, 989.4e12, 3.35e12},
      {"a100", "A100 SXM 80GB", 19.5e12, 312e12, 2.039e12},
      {"t4", "T4", 8.1e12, 65e12, 0.320e12},
      {"rtx4090", "RTX 4090", 82.6e12, 165.2e12, 1.008e12},
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

Estimate estimate(double cuda_flops, double dram_bytes, const CudaCoreGpu& gpu, double tensor_flops) {
  Estimate result;
  result.cuda_core_s = cuda_flops / gpu.fp32_flops_per_s;
  result.tensor_core_s = tensor_flops / gpu.tensor_flops_per_s;
  // max, not the sum: an SM issues to its CUDA cores and its tensor cores
  // concurrently, so the sum is no lower bound on the time, and only a lower
  // bound keeps "no GPU runs the kernel faster" true.
  result.compute_s = std::max(result.cuda_core_s, result.tensor_core_s);
  result.memory_s = dram_bytes / gpu.bytes_per_s;
  result.bound_s = std::max(result.compute_s, result.memory_s);
  result.memory_bound = result.memory_s >= result.compute_s;
  result.tensor_core_bound = !result.memory_bound && result.tensor_core_s > result.cuda_core_s;
  const double flops = cuda_flops + tensor_flops;
  result.intensity = dram_bytes > 0 ? flops / dram_bytes : 0;
  // The peak of this mix of FLOPs: all of them over the compute time (the
  // fp32 peak for CUDA-core work alone, the tensor peak for tensor work alone).
  const double peak = result.compute_s > 0 ? flops / result.compute_s : gpu.fp32_flops_per_s;
  result.attainable_flops_per_s = std::min(peak, result.intensity * gpu.bytes_per_s);
  return result;
}

}  // namespace rooflab::roofline
