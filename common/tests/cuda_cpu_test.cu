// The CPU CUDA runtime (rooflab/cuda_cpu.hpp): kernels written as for nvcc
// run here with CUDA's semantics, and what a GPU would hang on or leave
// undefined is an error naming the kernel. Compiled as CUDA sources are
// (cmake/cuda_on_cpu.cmake), so that the runtime sees every access.
#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include "cuda_cpu_testing.hpp"

namespace {

using rooflab::cuda_cpu::KernelError;
using rooflab::cuda_cpu::launch;
using rooflab::cuda_cpu::testing::device_copy;
using rooflab::cuda_cpu::testing::host_copy;

// A tree reduction in shared memory: every step needs the barrier before it.
__global__ void block_sum(const float* in, float* total, int n) {
  __shared__ float partial[256];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  partial[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(total, partial[0]);
}

TEST(CudaCpu, SharedMemoryReductionAcrossBlocks) {
  std::vector<float> values(1000);
  std::iota(values.begin(), values.end(), 1.0f);
  float* in = device_copy(values);
  float* total = device_copy(std::vector<float>{0.0f});
  launch("block_sum", block_sum, dim3(4), dim3(256), 0, in, total, 1000);
  EXPECT_EQ(host_copy(total, 1)[0], 500500.0f);
  cudaFree(in);
  cudaFree(total);
}

// Each warp sums its lanes with shuffles; lane 0 writes the warp's sum, and
// the ballot of odd lanes.
__global__ void warp_sums(const int* in, int* sums, unsigned* ballots) {
  const int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
  int value = in[threadIdx.x];
  for (int offset = 16; offset > 0; offset /= 2) value += __shfl_down_sync(0xffffffffu, value, offset);
  const int everyone = __shfl_sync(0xffffffffu, value, 0);  // lane 0's total, broadcast
  int butterfly = in[threadIdx.x];
  for (int mask = 16; mask > 0; mask /= 2) butterfly += __shfl_xor_sync(0xffffffffu, butterfly, mask);
  const unsigned odd = __ballot_sync(0xffffffffu, lane % 2 == 1);
  if (lane == 0) {
    sums[warp] = value;
    ballots[warp] = odd;
  }
  if (everyone != butterfly) sums[warp] = -1;  // every lane agrees with the butterfly's total
}

TEST(CudaCpu, WarpShufflesAndBallots) {
  std::vector<int> values(64);
  std::iota(values.begin(), values.end(), 0);
  int* in = device_copy(values);
  int* sums = device_copy(std::vector<int>(2, 0));
  unsigned* ballots = device_copy(std::vector<unsigned>(2, 0));
  launch("warp_sums", warp_sums, dim3(1), dim3(64), 0, in, sums, ballots);
  EXPECT_EQ(host_copy(sums, 2), (std::vector<int>{496, 1520}));  // 0+…+31, 32+…+63
  EXPECT_EQ(host_copy(ballots, 2), (std::vector<unsigned>{0xaaaaaaaau, 0xaaaaaaaau}));
  cudaFree(in);
  cudaFree(sums);
  cudaFree(ballots);
}

__global__ void extremes(const int* in, int* largest, int* smallest) {
  atomicMax(largest, in[blockIdx.x * blockDim.x + threadIdx.x]);
  atomicMin(smallest, in[blockIdx.x * blockDim.x + threadIdx.x]);
}

TEST(CudaCpu, AtomicMaxAndMinAcrossBlocks) {
  std::vector<int> values(256);
  for (int i = 0; i < 256; ++i) values[static_cast<std::size_t>(i)] = (i * 37) % 256 - 100;  // -100 … 155
  int* in = device_copy(values);
  int* largest = device_copy(std::vector<int>{-1000});
  int* smallest = device_copy(std::vector<int>{1000});
  launch("extremes", extremes, dim3(4), dim3(64), 0, in, largest, smallest);
  EXPECT_EQ(host_copy(largest, 1)[0], 155);
  EXPECT_EQ(host_copy(smallest, 1)[0], -100);
  cudaFree(in);
  cudaFree(largest);
  cudaFree(smallest);
}

__global__ void indices(int* out) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  out[y * gridDim.x * blockDim.x + x] = 1000 * y + x;
}

TEST(CudaCpu, TwoDimensionalGridsAndBlocks) {
  int* out = device_copy(std::vector<int>(6 * 8, -1));
  launch("indices", indices, dim3(2, 3), dim3(4, 2), 0, out);
  const std::vector<int> got = host_copy(out, 48);
  for (int y = 0; y < 6; ++y)
    for (int x = 0; x < 8; ++x) EXPECT_EQ(got[static_cast<std::size_t>(y * 8 + x)], 1000 * y + x);
  cudaFree(out);
}

__global__ void reverse_in_shared(const float* in, float* out, int n) {
  extern __shared__ float tile[];
  tile[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  if (static_cast<int>(threadIdx.x) < n) out[threadIdx.x] = tile[n - 1 - threadIdx.x];
}

TEST(CudaCpu, DynamicSharedMemory) {
  float* in = device_copy(std::vector<float>{1, 2, 3, 4, 5});
  float* out = device_copy(std::vector<float>(5, 0));
  launch("reverse_in_shared", reverse_in_shared, dim3(1), dim3(5), 5 * sizeof(float), in, out, 5);
  EXPECT_EQ(host_copy(out, 5), (std::vector<float>{5, 4, 3, 2, 1}));
  cudaFree(in);
  cudaFree(out);
}

__global__ void early_return_before_barrier(float* out) {
  if (threadIdx.x < 16) return;  // these never reach the barrier below
  __syncthreads();
  out[threadIdx.x] = 1;
}

TEST(CudaCpu, ABarrierNotEveryThreadReachesIsAnErrorNamingTheKernel) {
  float* out = device_copy(std::vector<float>(64, 0));
  try {
    launch("early_return_before_barrier", early_return_before_barrier, dim3(2), dim3(64), 0, out);
    FAIL() << "expected a KernelError";
  } catch (const KernelError& error) {
    EXPECT_NE(std::string(error.what()).find("kernel early_return_before_barrier"), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find("not reached by every thread"), std::string::npos) << error.what();
  }
  EXPECT_EQ(cudaGetLastError(), cudaErrorLaunchFailure);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);  // reading it clears it
  cudaFree(out);
}

__global__ void shuffle_after_lanes_exit(int* out) {
  if (threadIdx.x >= 8) return;
  out[threadIdx.x] = __shfl_sync(0xffffffffu, static_cast<int>(threadIdx.x), 0);  // lanes 8..31 are gone
}

TEST(CudaCpu, AShuffleWhoseMaskNamesAnExitedLaneIsAnError) {
  int* out = device_copy(std::vector<int>(32, 0));
  try {
    launch("shuffle_after_lanes_exit", shuffle_after_lanes_exit, dim3(1), dim3(32), 0, out);
    FAIL() << "expected a KernelError";
  } catch (const KernelError& error) {
    EXPECT_NE(std::string(error.what()).find("__shfl_sync with mask 0xffffffff"), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find("which has exited"), std::string::npos) << error.what();
  }
  cudaFree(out);
}

__global__ void partial_warp_shuffle(int* out) {
  out[threadIdx.x] = __shfl_sync(0xffffffffu, 1, 0);  // a block of 40: warp 1 has only 8 lanes
}

TEST(CudaCpu, AMaskNamingLanesTheBlockDoesNotHaveIsAnError) {
  int* out = device_copy(std::vector<int>(40, 0));
  EXPECT_THROW(launch("partial_warp_shuffle", partial_warp_shuffle, dim3(1), dim3(40), 0, out), KernelError);
  cudaFree(out);
}

__global__ void nothing(int*) {}

TEST(CudaCpu, LaunchesAGpuWouldRefuseAreErrors) {
  EXPECT_THROW(launch("nothing", nothing, dim3(1), dim3(1025), 0, nullptr), KernelError);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue);
  EXPECT_THROW(launch("nothing", nothing, dim3(1), dim3(32), 64 * 1024, nullptr), KernelError);
  EXPECT_NE(rooflab::cuda_cpu::last_error_message().find("shared memory"), std::string::npos);
  EXPECT_THROW(launch("nothing", nothing, dim3(0), dim3(32), 0, nullptr), KernelError);
  cudaGetLastError();
}

__global__ void throws_midway(int*) {
  if (threadIdx.x == 3) throw std::runtime_error("thread 3 gave up");
  __syncthreads();
}

TEST(CudaCpu, AnExceptionFromKernelCodeReachesTheLauncher) {
  EXPECT_THROW(launch("throws_midway", throws_midway, dim3(2), dim3(8), 0, nullptr), std::runtime_error);
  cudaGetLastError();
}

TEST(CudaCpu, DeviceFunctionsOutsideAKernelAreALogicError) { EXPECT_THROW(__syncthreads(), std::logic_error); }

}  // namespace
