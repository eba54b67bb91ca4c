// What compute-sanitizer's racecheck and memcheck would report, found by the
// CPU runtime on every launch: races in shared and global memory (within a
// block and between blocks), host pointers, accesses past a buffer's end or
// after cudaFree. Each message names the kernel, the threads, the source
// lines and the memory.
#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include "cuda_cpu_testing.hpp"

namespace {

using rooflab::cuda_cpu::launch;
using rooflab::cuda_cpu::testing::device_copy;
using rooflab::cuda_cpu::testing::host_copy;
using rooflab::cuda_cpu::testing::kernel_error;
using ::testing::HasSubstr;

// Each thread reads its neighbour's slot of shared memory: correct only with
// the barrier between the write and the read.
constexpr int kNeighbourWriteLine = __LINE__ + 4, kNeighbourReadLine = __LINE__ + 6;
template <bool kBarrier>
__global__ void neighbour(const int* in, int* out) {
  __shared__ int slot[64];
  slot[threadIdx.x] = in[threadIdx.x];
  if (kBarrier) __syncthreads();
  out[threadIdx.x] = slot[(threadIdx.x + 1) % blockDim.x];
}

TEST(CudaCpuRaces, AMissingBarrierIsARaceNamingBothThreadsLinesAndTheArray) {
  std::vector<int> values(64);
  std::iota(values.begin(), values.end(), 100);
  int* in = device_copy(values);
  int* out = device_copy(std::vector<int>(64, 0));
  const std::string race = kernel_error([&] { launch("neighbour", neighbour<false>, dim3(1), dim3(64), 0, in, out); });
  EXPECT_THAT(race, HasSubstr("kernel neighbour: race on __shared__ slot, byte "));
  // The write and the read, in whichever order the threads ran.
  EXPECT_THAT(race, HasSubstr(" of block (0, 0, 0) "));
  EXPECT_THAT(race, HasSubstr("it at tests/cuda_cpu_checks_test.cu:" + std::to_string(kNeighbourWriteLine)));
  EXPECT_THAT(race, HasSubstr("it at tests/cuda_cpu_checks_test.cu:" + std::to_string(kNeighbourReadLine)));
  EXPECT_THAT(race, HasSubstr("no __syncthreads between"));
  launch("neighbour", neighbour<true>, dim3(1), dim3(64), 0, in, out);
  EXPECT_EQ(host_copy(out, 64)[0], 101);
  EXPECT_EQ(host_copy(out, 64)[63], 100);
  cudaFree(in);
  cudaFree(out);
}

// Threads claim rows by a read-modify-write of a shared counter. Without an
// atomic every thread of a warp may read the same value on a GPU; here each
// fiber runs alone between barriers, so only the checker can see it.
template <bool kAtomic>
__global__ void claim_rows(int* claimed) {
  __shared__ int next;
  if (threadIdx.x == 0) next = 0;
  __syncthreads();
  int row;
  if (kAtomic) {
    row = atomicAdd(&next, 1);
  } else {
    row = next;
    next = row + 1;
  }
  claimed[row] = static_cast<int>(threadIdx.x);
}

TEST(CudaCpuRaces, ANonAtomicReadModifyWriteIsARaceAndAnAtomicOneIsNot) {
  int* claimed = device_copy(std::vector<int>(64, -1));
  const std::string race =
      kernel_error([&] { launch("claim_rows", claim_rows<false>, dim3(1), dim3(64), 0, claimed); });
  EXPECT_THAT(race, HasSubstr("race on __shared__ next"));
  EXPECT_EQ(kernel_error([&] { launch("claim_rows", claim_rows<true>, dim3(1), dim3(64), 0, claimed); }), "");
  std::vector<int> rows = host_copy(claimed, 64);
  std::sort(rows.begin(), rows.end());
  for (int t = 0; t < 64; ++t) EXPECT_EQ(rows[static_cast<std::size_t>(t)], t);
  cudaFree(claimed);
}

__global__ void every_block_writes_one_slot(float* out) {
  if (threadIdx.x == 0) out[0] = static_cast<float>(blockIdx.x);
}

__global__ void every_block_adds_atomically(float* out, const float* in) {
  atomicAdd(out, in[blockIdx.x * blockDim.x + threadIdx.x]);
}

TEST(CudaCpuRaces, BlocksWritingOneGlobalValueRaceButFloatAtomicsDoNot) {
  float* out = device_copy(std::vector<float>(1, 0.0f));
  const std::string race = kernel_error(
      [&] { launch("every_block_writes_one_slot", every_block_writes_one_slot, dim3(4), dim3(32), 0, out); });
  EXPECT_THAT(race, HasSubstr("race on device buffer of 4 bytes (the kernel's argument 1), byte 0"));
  EXPECT_THAT(race, HasSubstr("in another block of the same launch"));
  std::vector<float> values(4 * 64);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = 0.1f * static_cast<float>(i % 7);
  float* in = device_copy(values);
  float* total = device_copy(std::vector<float>(1, 0.0f));
  EXPECT_EQ(kernel_error([&] {
              launch("every_block_adds_atomically", every_block_adds_atomically, dim3(4), dim3(64), 0, total, in);
            }),
            "");
  EXPECT_NEAR(host_copy(total, 1)[0], std::accumulate(values.begin(), values.end(), 0.0), 1e-3);
  cudaFree(out);
  cudaFree(in);
  cudaFree(total);
}

// Lane i writes its slot, lane i + 1 reads it: __syncwarp orders the two.
template <bool kSyncwarp>
__global__ void pass_within_warp(int* out) {
  __shared__ int slot[32];
  slot[threadIdx.x] = static_cast<int>(threadIdx.x) * 10;
  if (kSyncwarp) __syncwarp();
  out[threadIdx.x] = slot[(threadIdx.x + 31) % 32];
}

TEST(CudaCpuRaces, ASyncwarpOrdersTheLanesThatTookPart) {
  int* out = device_copy(std::vector<int>(32, 0));
  EXPECT_THAT(kernel_error([&] { launch("pass_within_warp", pass_within_warp<false>, dim3(1), dim3(32), 0, out); }),
              HasSubstr("race on __shared__ slot"));
  EXPECT_EQ(kernel_error([&] { launch("pass_within_warp", pass_within_warp<true>, dim3(1), dim3(32), 0, out); }), "");
  EXPECT_EQ(host_copy(out, 32)[1], 0);
  EXPECT_EQ(host_copy(out, 32)[0], 310);
  cudaFree(out);
}

// State kept outside device buffers is device memory too, and races the same.
__device__ int launches_seen;

__global__ void count_in_a_device_variable(int* out) {
  launches_seen = launches_seen + 1;
  out[threadIdx.x] = launches_seen;
}

TEST(CudaCpuRaces, ADeviceVariableIsCheckedLikeABuffer) {
  int* out = device_copy(std::vector<int>(32, 0));
  EXPECT_THAT(kernel_error(
                  [&] { launch("count_in_a_device_variable", count_in_a_device_variable, dim3(1), dim3(32), 0, out); }),
              HasSubstr("race on __device__ variable launches_seen, byte 0"));
  cudaFree(out);
}

// The messages below name this line: the kernel's read of `in`.
constexpr int kCopyReadLine = __LINE__ + 3;
__global__ void copy_kernel(const float* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) out[i] = in[i];  // i == n reads one past the end of n floats
}
const std::string kCopyRead = "tests/cuda_cpu_checks_test.cu:" + std::to_string(kCopyReadLine);

TEST(CudaCpuMemcheck, AHostPointerIsAnErrorNamingTheArgument) {
  std::vector<float> host(64, 1.0f);
  float* out = device_copy(std::vector<float>(64, 0.0f));
  const std::string error =
      kernel_error([&] { launch("copy_kernel", copy_kernel, dim3(1), dim3(32), 0, host.data(), out, 32); });
  EXPECT_THAT(error, HasSubstr("kernel copy_kernel: invalid read of 4 bytes"));
  EXPECT_THAT(error, HasSubstr("host memory"));
  EXPECT_THAT(error, HasSubstr("the kernel's argument 1 points into"));
  EXPECT_THAT(error, HasSubstr(kCopyRead));
  cudaFree(out);
}

TEST(CudaCpuMemcheck, ReadingPastTheEndNamesTheBufferAndTheLine) {
  float* in = device_copy(std::vector<float>(63, 1.0f));
  float* out = device_copy(std::vector<float>(64, 0.0f));
  const std::string error =
      kernel_error([&] { launch("copy_kernel", copy_kernel, dim3(2), dim3(32), 0, in, out, 63); });
  EXPECT_THAT(error, HasSubstr("device buffer of 252 bytes (the kernel's argument 1), byte 252: past its end"));
  EXPECT_THAT(error, HasSubstr("thread (31, 0, 0) of block (1, 0, 0) at " + kCopyRead));
  EXPECT_EQ(kernel_error([&] { launch("copy_kernel", copy_kernel, dim3(2), dim3(32), 0, in, out, 62); }), "");
  cudaFree(in);
  cudaFree(out);
}

TEST(CudaCpuMemcheck, ABufferUsedAfterCudaFreeIsAnError) {
  float* in = device_copy(std::vector<float>(64, 1.0f));
  float* out = device_copy(std::vector<float>(64, 0.0f));
  cudaFree(in);
  EXPECT_THAT(kernel_error([&] { launch("copy_kernel", copy_kernel, dim3(1), dim3(32), 0, in, out, 32); }),
              HasSubstr("cudaFree released (use after free)"));
  cudaFree(out);
}

TEST(CudaCpuMemcheck, CopiesNeedADeviceSide) {
  std::vector<float> host(8, 1.0f), other(8);
  EXPECT_EQ(cudaMemcpy(other.data(), host.data(), 32, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
  EXPECT_THAT(rooflab::cuda_cpu::last_error_message(), HasSubstr("destination of 32 bytes is not inside"));
  float* device = device_copy(host);
  EXPECT_EQ(cudaMemcpy(other.data(), device, 64, cudaMemcpyDeviceToHost), cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemcpy(other.data(), device, 32, cudaMemcpyDeviceToHost), cudaSuccess);
  cudaGetLastError();
  cudaFree(device);
}

}  // namespace
