// The shape a05's profile counts its kernels at, and each kernel's FLOPs:
// shared by the profile (profile/kernels.cpp) and chapter 6's table of the
// reference's counts (literate/doc_numbers.cpp). Provided code.
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
inline double kernel_flops(const std::string& kernel) {
  const double scores = static_cast<double>(kBatch * kHeads * kLength * kLength);
  const double product = 2.0 * scores * kHeadDim;
  if (kernel == "attention_scores" || kernel == "weighted_values") return product;
  if (kernel == "softmax_rows") return 5.0 * scores;
  if (kernel == "flash_forward" || kernel == "flash_forward_tensor_core") return 2.0 * product + 5.0 * scores;
  return 0.0;
}

// Standard, flash and tensor-core flash attention's kernels at the shape
// (non-causal), as the CPU runtime counted them; a launcher that throws (one
// not implemented yet) is named on stderr and has no rows.
inline std::vector<rooflab::kernels::KernelRow> count_kernels() {
  const Tensor4 q = rooflab::random_normal(kBatch, kHeads, kLength, kHeadDim, 1);
  const Tensor4 k = rooflab::random_normal(kBatch, kHeads, kLength, kHeadDim, 2);
  const Tensor4 v = rooflab::random_normal(kBatch, kHeads, kLength, kHeadDim, 3);
  std::vector<rooflab::kernels::KernelRow> rows;
  for (const std::string method : {"standard", "flash", "tensor_core"}) {
    try {
      const auto run = [&] {
        if (method == "standard")
          standard_attention_cuda(q, k, v, false);
        else if (method == "flash")
          flash_attention_cuda(q, k, v, false);
        else
          flash_attention_tensor_core(q, k, v, false);
      };
      const auto found = rooflab::kernels::profile_kernels(method, kLength, run, kernel_flops);
      rows.insert(rows.end(), found.begin(), found.end());
    } catch (const std::exception& error) {
      std::fprintf(stderr, "%s attention at N=%lld: %s\n", method.c_str(), kLength, error.what());
    }
  }
  return rows;
}

}  // namespace a05_cuda_attention::profile
