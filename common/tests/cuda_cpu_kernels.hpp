// Host launchers of cuda_cpu_kernels.cu (plain CUDA, run on the CPU in tests).
#pragma once

#include <vector>

std::vector<float> scale_on_device(const std::vector<float>& values, float by);
// One sum per block of `threads` values (a multiple of 32).
std::vector<float> block_sums_on_device(const std::vector<float>& values, int threads);
// The same, its template kernel launched with deduced arguments and named
// with its namespace, as nvcc takes them: block_sums::kernel<<<…>>>(…).
std::vector<float> deduced_block_sums_on_device(const std::vector<float>& values, int threads);
// A cudaMemcpy from a null pointer, through ROOFLAB_CUDA_CHECK.
void fail_a_cuda_call();
