// The cache a06's profile counts the CUDA decode's kernels at, and their
// FLOPs: shared by the profile (profile/scaling.cpp) and the reference's
// kernel rows in plots/data (literate/plot_data.cpp). Provided code.
#pragma once

#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "a06_kv_cache_decode/a06_kv_cache_decode.hpp"
#include "rooflab/kernel_profile.hpp"

namespace a06_kv_cache_decode::profile {

// One sequence of GPT-2 small's heads.
inline constexpr std::int64_t kKernelHeads = 12, kKernelHeadDim = 64, kKernelLength = 2048;

// Decode attention reads each cached key and value once: 2 FLOPs per
// multiply-add of q·k and of p·v, all in split_kv; merging the splits is
// O(splits · d), left out.
inline double kernel_flops(const std::string& kernel) {
  return kernel == "split_kv" ? 4.0 * static_cast<double>(kKernelHeads * kKernelLength * kKernelHeadDim) : 0.0;
}

// The CUDA decode over a contiguous cache, as the CPU runtime counted it; a
// launcher that throws is named on stderr.
inline std::vector<rooflab::kernels::KernelRow> count_kernels() {
  const Tensor4 keys = rooflab::random_normal(1, kKernelHeads, kKernelLength, kKernelHeadDim, 5);
  const Tensor4 values = rooflab::random_normal(1, kKernelHeads, kKernelLength, kKernelHeadDim, 6);
  const Tensor4 q = rooflab::random_normal(1, kKernelHeads, 1, kKernelHeadDim, 7);
  try {
    const ContiguousKvCache cache =
        append(make_contiguous_cache(1, kKernelHeads, kKernelHeadDim, kKernelLength), 0, keys, values);
    return rooflab::kernels::profile_kernels(
        "decode", kKernelLength, [&] { decode_attention_cuda(q, cache, {}); }, kernel_flops);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "CUDA decode at L=%lld: %s\n", static_cast<long long>(kKernelLength), error.what());
    return {};
  }
}

}  // namespace a06_kv_cache_decode::profile
