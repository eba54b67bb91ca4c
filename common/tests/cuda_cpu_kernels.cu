// Plain CUDA, as a student writes it: chevron launches, static and dynamic
// shared memory, a warp-shuffle reduction. The build runs it on the CPU
// (cmake/cuda_on_cpu.cmake); cuda_cpu_source_test.cpp checks its results.
#include "cuda_cpu_kernels.hpp"

#include <algorithm>

#include "rooflab/cuda_helpers.hpp"

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

namespace block_sums {
// block_sums_kernel, with a parameter only deduction fills in.
template <class T>
__global__ void kernel(const T* in, T* out, int n) {
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
}  // namespace block_sums

std::vector<float> scale_on_device(const std::vector<float>& values, float by) {
  const int n = static_cast<int>(values.size());
  rooflab::cuda::DeviceBuffer<float> data(values);
  // Template arguments inside the chevrons, as CUDA allows: the CPU build's
  // rewrite must read the whole configuration (cmake/cuda_cpu_rewrite.cmake).
  scale_kernel<<<std::max<int>(rooflab::cuda::ceil_div(n, 128), 1), std::min<int>(128, 1024)>>>(data.get(), by, n);
  ROOFLAB_CUDA_CHECK(cudaGetLastError());
  return data.to_host();
}

std::vector<float> block_sums_on_device(const std::vector<float>& values, int threads) {
  const int n = static_cast<int>(values.size()), blocks = rooflab::cuda::ceil_div(n, threads);
  const std::size_t shared = static_cast<std::size_t>(threads / 32) * sizeof(float);
  rooflab::cuda::require_shared_memory(shared, "threads");
  rooflab::cuda::DeviceBuffer<float> in(values), out(static_cast<std::size_t>(blocks));
  block_sums_kernel<float><<<blocks, threads, shared>>>(in.get(), out.get(), n);
  ROOFLAB_CUDA_CHECK(cudaGetLastError());
  return out.to_host();
}

std::vector<float> deduced_block_sums_on_device(const std::vector<float>& values, int threads) {
  const int n = static_cast<int>(values.size()), blocks = rooflab::cuda::ceil_div(n, threads);
  const std::size_t shared = static_cast<std::size_t>(threads / 32) * sizeof(float);
  rooflab::cuda::DeviceBuffer<float> in(values), out(static_cast<std::size_t>(blocks));
  block_sums::kernel<<<blocks, threads, shared>>>(in.get(), out.get(), n);  // T deduced: float
  ROOFLAB_CUDA_CHECK(cudaGetLastError());
  return out.to_host();
}

void fail_a_cuda_call() { ROOFLAB_CUDA_CHECK(cudaMemcpy(nullptr, nullptr, 4, cudaMemcpyHostToDevice)); }
