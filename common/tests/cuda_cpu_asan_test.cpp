// Built with AddressSanitizer (common/CMakeLists.txt): a kernel that reads
// past the end of a cudaMalloc'd buffer is stopped with the out-of-bounds
// access named, as compute-sanitizer would name it on a GPU.
#include <gtest/gtest.h>

#include "rooflab/cuda_cpu.hpp"

namespace {

__global__ void off_by_one(const float* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) out[0] += in[i];  // i == n reads one past the end
}

void run_off_by_one() {
  float *in = nullptr, *out = nullptr;
  cudaMalloc(&in, 64 * sizeof(float));
  cudaMalloc(&out, sizeof(float));
  rooflab::cuda_cpu::launch("off_by_one", off_by_one, dim3(2), dim3(64), 0, in, out, 64);
}

__global__ void in_bounds(const float* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(out, in[i]);
}

TEST(CudaCpuAddressSanitizer, AnOutOfBoundsReadInAKernelIsCaught) {
  EXPECT_DEATH(run_off_by_one(), "heap-buffer-overflow");
}

TEST(CudaCpuAddressSanitizer, ACorrectKernelRunsCleanUnderIt) {
  float *in = nullptr, *out = nullptr;
  cudaMalloc(&in, 64 * sizeof(float));
  cudaMalloc(&out, sizeof(float));
  rooflab::cuda_cpu::launch("in_bounds", in_bounds, dim3(2), dim3(64), 0, in, out, 64);
  float total = -1;
  cudaMemcpy(&total, out, sizeof(float), cudaMemcpyDeviceToHost);
  EXPECT_EQ(total, 0.0f);
  cudaFree(in);
  cudaFree(out);
}

}  // namespace
