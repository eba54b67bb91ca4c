// The shape a05's profile counts its kernels at, each kernel's FLOPs and
// registers: shared by the profile (profile/kernels.cpp), chapter 6's table
// of the reference's counts and the GPU model's calibration (literate/).
// Provided code.
#pragma once

#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "a05_cuda_attention/a05_cuda_attention.hpp"
#include "rooflab/kernel_profile.hpp"
#include "rooflab/tensor.hpp"

namespace a05_cuda_attention::profile {

// One shape, small enough for the CPU runtime to count in a few seconds.
inline constexpr long long kBatch = 1, kHeads = 2, kLength = 256, kHeadDim = 64;

// FLOPs per kernel (docs/06_cuda_attention.md): 2 per multiply-add of the two
// products, 5 per score for a softmax (max, subtract, exp, sum, scale). All of
// a kernel's FLOPs, whichever unit does them: the profile takes the tensor-core
// FLOPs the runtime counted out of them (rooflab::kernels::profile_kernels),
// which leaves the tensor-core kernel's softmax on the CUDA cores.
// At any shape: with the causal mask the kernels that skip the keys past the
// diagonal (all but attention_scores and softmax_rows, which mask them) do
// about half the work.
inline double kernel_flops_at(const std::string& kernel, long long batch_heads, long long n, long long head_dim,
                              bool causal) {
  const double scores = static_cast<double>(batch_heads * n * n);
  const double product = 2.0 * scores * static_cast<double>(head_dim);
  const double seen = causal ? 0.5 : 1.0;
  if (kernel == "attention_scores") return product;
  if (kernel == "weighted_values") return seen * product;
  if (kernel == "softmax_rows") return 5.0 * scores;
  if (kernel.rfind("flash_forward", 0) == 0) return seen * (2.0 * product + 5.0 * scores);  // every flash kernel
  return 0.0;
}
inline double kernel_flops(const std::string& kernel) {
  return kernel_flops_at(kernel, kBatch * kHeads, kLength, kHeadDim, false);
}

// nvcc's registers per thread for the reference's kernels on sm_90 (`nvcc
// -arch=sm_90 --resource-usage`), what the GPU model takes for each kernel,
// and for yours of the same name unless `lab profile` found nvcc to count
// your own; head_dim 0 where the kernel is not a template on d. The
// course's tests compile the reference and check every entry where nvcc is.
struct KernelRegisters {
  const char* kernel;
  long long head_dim;
  int registers;
};
inline constexpr KernelRegisters kReferenceRegistersSm90[] = {
    {"attention_scores", 0, 31},
    {"softmax_rows", 0, 29},
    {"weighted_values", 0, 31},
    {"flash_forward", 0, 128},
    {"flash_forward_tensor_core", 64, 48},
    {"flash_forward_tensor_core", 128, 64},
    {"flash_forward_mma_sync", 64, 130},
    {"flash_forward_mma_sync", 128, 180},
};
inline rooflab::kernels::Registers reference_registers(long long head_dim) {
  rooflab::kernels::Registers registers;
  for (const KernelRegisters& entry : kReferenceRegistersSm90)
    if (entry.head_dim == 0 || entry.head_dim == head_dim) registers[entry.kernel] = entry.registers;
  return registers;
}

// One launcher's kernels at one shape (batch 1), as the CPU runtime counted
// them, its rows named `method`. A launcher that throws (one not implemented
// yet) is named on stderr and has no rows.
using Launcher = AttentionResult (*)(const Tensor4&, const Tensor4&, const Tensor4&, bool);
inline std::vector<rooflab::kernels::KernelRow> count_launcher(const std::string& method, Launcher launcher,
                                                               long long heads, long long n, long long head_dim,
                                                               bool causal) {
  const Tensor4 q = rooflab::random_normal(1, heads, n, head_dim, 1);
  const Tensor4 k = rooflab::random_normal(1, heads, n, head_dim, 2);
  const Tensor4 v = rooflab::random_normal(1, heads, n, head_dim, 3);
  try {
    return rooflab::kernels::profile_kernels(
        method, n, [&] { launcher(q, k, v, causal); },
        [&](const std::string& kernel) { return kernel_flops_at(kernel, heads, n, head_dim, causal); });
  } catch (const std::exception& error) {
    std::fprintf(stderr, "%s attention at N=%lld: %s\n", method.c_str(), n, error.what());
    return {};
  }
}

// The launcher of each of a05's methods: "standard", "flash", "tensor_core",
// "mma_sync" (the bonus, fp16) and "mma_sync_bf16".
inline Launcher launcher_of(const std::string& method) {
  if (method == "standard") return standard_attention_cuda;
  if (method == "flash") return flash_attention_cuda;
  if (method == "mma_sync") return flash_attention_mma_sync;
  if (method == "mma_sync_bf16") return flash_attention_mma_sync_bf16;
  return flash_attention_tensor_core;
}

// Standard, flash, tensor-core and (the bonus) mma.sync flash attention's
// kernels at the profile's shape (non-causal).
inline std::vector<rooflab::kernels::KernelRow> count_kernels() {
  static_assert(kBatch == 1, "count_launcher counts batch 1");
  std::vector<rooflab::kernels::KernelRow> rows;
  for (const std::string method : {"standard", "flash", "tensor_core", "mma_sync"}) {
    const auto found = count_launcher(method, launcher_of(method), kHeads, kLength, kHeadDim, false);
    rows.insert(rows.end(), found.begin(), found.end());
  }
  return rows;
}

}  // namespace a05_cuda_attention::profile
