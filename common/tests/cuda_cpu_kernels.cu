// Plain CUDA, as a student writes it: chevron launches, static and dynamic
// shared memory, a warp-shuffle reduction. The build runs it on the CPU
// (cmake/cuda_on_cpu.cmake); cuda_cpu_source_test.cpp checks its results.
#include "cuda_cpu_kernels.hpp"

namespace {

__global__ void scale_kernel(float* data, float by, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] *= by;
}

// Each block sums blockDim.x values: per warp with shuffles, then the warps'
// sums through dynamic shared memory.
template <class T>
__global__ void block_sums_kernel(const T* in, T* out, int n) {
  extern __shared__ float warp_sums[];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  T value = i < n ? in[i] : T(0);
  for (int offset = warpSize / 2; offset > 0; offset /= 2) value += __shfl_down_sync(0xffffffffu, value, offset);
  if (threadIdx.x % warpSize == 0) warp_sums[threadIdx.x / warpSize] = value;
  __syncthreads();
  if (threadIdx.x == 0) {
    T total = 0;
    for (unsigned w = 0; w < blockDim.x / warpSize; ++w) total += warp_sums[w];
    out[blockIdx.x] = total;
  }
}

}  // namespace

std::vector<float> scale_on_device(const std::vector<float>& values, float by) {
  const int n = static_cast<int>(values.size());
  float* data = nullptr;
  cudaMalloc(&data, values.size() * sizeof(float));
  cudaMemcpy(data, values.data(), values.size() * sizeof(float), cudaMemcpyHostToDevice);
  scale_kernel<<<(n + 127) / 128, 128>>>(data, by, n);
  std::vector<float> out(values.size());
  cudaMemcpy(out.data(), data, values.size() * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(data);
  return out;
}

std::vector<float> block_sums_on_device(const std::vector<float>& values, int threads) {
  const int n = static_cast<int>(values.size()), blocks = (n + threads - 1) / threads;
  float *in = nullptr, *out = nullptr;
  cudaMalloc(&in, values.size() * sizeof(float));
  cudaMalloc(&out, static_cast<std::size_t>(blocks) * sizeof(float));
  cudaMemcpy(in, values.data(), values.size() * sizeof(float), cudaMemcpyHostToDevice);
  block_sums_kernel<float><<<blocks, threads, (threads / 32) * sizeof(float)>>>(in, out, n);
  std::vector<float> sums(static_cast<std::size_t>(blocks));
  cudaMemcpy(sums.data(), out, sums.size() * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(in);
  cudaFree(out);
  return sums;
}
