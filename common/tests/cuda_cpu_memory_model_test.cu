// CUDA's memory model for volatile, atomics and fences, as the runtime
// applies it: a fence and then an atomic (or volatile) write release what a
// thread did before the fence, to its block (__threadfence_block) or to every
// block (__threadfence); an atomic or volatile read acquires it; without the
// fence nothing is released. Volatile accesses are relaxed: they do not race
// with each other within a block, but an update made of a volatile read and a
// volatile write loses updates, which the runtime exposes by switching
// threads at such accesses.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <vector>

#include "cuda_cpu_testing.hpp"

namespace {

using rooflab::cuda_cpu::launch;
using rooflab::cuda_cpu::testing::device_copy;
using rooflab::cuda_cpu::testing::host_copy;
using rooflab::cuda_cpu::testing::kernel_error;
using ::testing::HasSubstr;

// The CUDA Programming Guide's sum with a "last block" (its __threadfence()
// example): each block stores its partial sum with a plain store, fences,
// takes a ticket; the block that takes the last ticket sums the partials.
constexpr int kPartialStoreLine = __LINE__ + 14, kLastBlockReadLine = __LINE__ + 22;
__device__ unsigned blocks_done = 0;

template <bool kFence>
__global__ void sum_with_last_block(const float* in, float* partials, float* total) {
  __shared__ float warp_sums[8];
  __shared__ bool last;
  float value = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int offset = 16; offset > 0; offset /= 2) value += __shfl_down_sync(0xffffffffu, value, offset);
  if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = value;
  __syncthreads();
  if (threadIdx.x == 0) {
    float sum = 0.0f;
    for (unsigned w = 0; w < blockDim.x / 32; ++w) sum += warp_sums[w];
    partials[blockIdx.x] = sum;
    if (kFence) __threadfence();  // the partial reaches every block before the ticket does
    const unsigned ticket = atomicInc(&blocks_done, gridDim.x);
    last = ticket == gridDim.x - 1;
  }
  __syncthreads();
  if (last && threadIdx.x == 0) {
    float sum = 0.0f;
    for (unsigned b = 0; b < gridDim.x; ++b) sum += partials[b];
    *total = sum;
    blocks_done = 0;  // ready for the next launch
  }
}

TEST(CudaCpuMemoryModel, TheGuidesThreadfenceReductionPassesAndWithoutTheFenceItRaces) {
  std::vector<float> values(16 * 256);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i % 13);
  float* in = device_copy(values);
  float* partials = nullptr;
  ASSERT_EQ(cudaMalloc(&partials, 16 * sizeof(float)), cudaSuccess);
  float* total = device_copy(std::vector<float>(1, 0.0f));
  for (int launch_number = 0; launch_number < 3; ++launch_number) {
    EXPECT_EQ(kernel_error([&] {
                launch("sum_with_last_block", sum_with_last_block<true>, dim3(16), dim3(256), 0, in, partials, total);
              }),
              "");
    EXPECT_EQ(host_copy(total, 1)[0], std::accumulate(values.begin(), values.end(), 0.0f));
  }
  const std::string race = kernel_error(
      [&] { launch("sum_with_last_block", sum_with_last_block<false>, dim3(16), dim3(256), 0, in, partials, total); });
  EXPECT_THAT(race, HasSubstr("race on device buffer of 64 bytes (the kernel's argument 2)"));
  EXPECT_THAT(race, HasSubstr("tests/cuda_cpu_memory_model_test.cu:" + std::to_string(kPartialStoreLine)));
  EXPECT_THAT(race, HasSubstr("tests/cuda_cpu_memory_model_test.cu:" + std::to_string(kLastBlockReadLine)));
  EXPECT_THAT(race, HasSubstr("__threadfence()"));
  cudaFree(in);
  cudaFree(partials);
  cudaFree(total);
}

// A block-scope fence orders within the block only: another block that
// acquires the flag is not ordered after the data.
template <bool kEveryBlock>
__global__ void publish_across_blocks(float* data, unsigned* ready, float* out) {
  if (threadIdx.x != 0) return;
  data[blockIdx.x] = static_cast<float>(blockIdx.x + 1);
  if (kEveryBlock)
    __threadfence();
  else
    __threadfence_block();
  const unsigned ticket = atomicAdd(ready, 1u);
  if (ticket == gridDim.x - 1) {
    float sum = 0.0f;
    for (unsigned b = 0; b < gridDim.x; ++b) sum += data[b];
    *out = sum;
  }
}

TEST(CudaCpuMemoryModel, ABlockScopeFenceDoesNotOrderAnotherBlocksReads) {
  float* data = nullptr;
  ASSERT_EQ(cudaMalloc(&data, 8 * sizeof(float)), cudaSuccess);
  unsigned* ready = device_copy(std::vector<unsigned>(1, 0));
  float* out = device_copy(std::vector<float>(1, 0.0f));
  EXPECT_THAT(kernel_error([&] {
                launch("publish_across_blocks", publish_across_blocks<false>, dim3(8), dim3(32), 0, data, ready, out);
              }),
              HasSubstr("in another block of the same launch"));
  ASSERT_EQ(cudaMemset(ready, 0, sizeof(unsigned)), cudaSuccess);
  EXPECT_EQ(kernel_error([&] {
              launch("publish_across_blocks", publish_across_blocks<true>, dim3(8), dim3(32), 0, data, ready, out);
            }),
            "");
  EXPECT_EQ(host_copy(out, 1)[0], 36.0f);
  cudaFree(data);
  cudaFree(ready);
  cudaFree(out);
}

// Within a block: data handed over through an atomic flag needs the fence
// before the flag's write.
__global__ void publish_without_a_fence(int* flag, int* out) {
  __shared__ int data[32];
  if (threadIdx.x == 0) {
    for (int i = 0; i < 32; ++i) data[i] = i * 3;
    atomicExch(flag, 1);
  } else {
    while (atomicAdd(flag, 0) == 0) {
    }
    out[threadIdx.x] = data[threadIdx.x % 32];
  }
}

TEST(CudaCpuMemoryModel, AnAtomicFlagWithoutAFenceReleasesNothing) {
  int* flag = device_copy(std::vector<int>(1, 0));
  int* out = device_copy(std::vector<int>(64, 0));
  EXPECT_THAT(kernel_error(
                  [&] { launch("publish_without_a_fence", publish_without_a_fence, dim3(1), dim3(64), 0, flag, out); }),
              HasSubstr("race on __shared__ data"));
  cudaFree(flag);
  cudaFree(out);
}

// Lanes claim rows from a counter. Read and written through a volatile
// pointer, two lanes may read the same count (a lost update): rows are
// claimed twice and others never, which shows as a race on the output or a
// wrong result; an atomicAdd claims each row once.
template <bool kAtomic>
__global__ void claim_rows_from_a_counter(volatile int* next, int* claimed, int rows) {
  while (true) {
    int row;
    if (kAtomic) {
      row = atomicAdd(const_cast<int*>(next), 1);
    } else {
      row = *next;
      *next = row + 1;
    }
    if (row >= rows) return;
    claimed[row] = static_cast<int>(threadIdx.x);
  }
}

TEST(CudaCpuMemoryModel, AVolatileReadModifyWriteLosesUpdatesAsOnAGpu) {
  constexpr int kRows = 512;
  int* claimed = device_copy(std::vector<int>(kRows, -1));
  int* next = device_copy(std::vector<int>(1, 0));
  int wrong = 0;
  for (int attempt = 0; attempt < 4; ++attempt) {
    ASSERT_EQ(cudaMemset(next, 0, sizeof(int)), cudaSuccess);
    ASSERT_EQ(cudaMemset(claimed, 0xff, kRows * sizeof(int)), cudaSuccess);
    const std::string error = kernel_error([&] {
      launch("claim_rows_from_a_counter", claim_rows_from_a_counter<false>, dim3(1), dim3(64), 0, next, claimed, kRows);
    });
    const std::vector<int> rows = host_copy(claimed, kRows);
    wrong += !error.empty() || std::count(rows.begin(), rows.end(), -1) > 0;
    if (!error.empty()) {
      EXPECT_THAT(error, HasSubstr("race on device buffer")) << error;
    }
  }
  EXPECT_EQ(wrong, 4) << "a volatile read-modify-write shared by 64 threads lost no update in 4 launches";
  ASSERT_EQ(cudaMemset(next, 0, sizeof(int)), cudaSuccess);
  EXPECT_EQ(kernel_error([&] {
              launch("claim_rows_from_a_counter", claim_rows_from_a_counter<true>, dim3(1), dim3(64), 0, next, claimed,
                     kRows);
            }),
            "");
  const std::vector<int> rows = host_copy(claimed, kRows);
  EXPECT_EQ(std::count(rows.begin(), rows.end(), -1), 0);
  cudaFree(claimed);
  cudaFree(next);
}

// Volatile accesses of one block do not race with each other (relaxed,
// "morally strong"), but a plain access beside a volatile one does.
__global__ void volatile_flags(volatile int* flags, int* out) {
  flags[threadIdx.x % 4] = static_cast<int>(threadIdx.x);
  out[threadIdx.x] = flags[(threadIdx.x + 1) % 4] >= 0;
}

TEST(CudaCpuMemoryModel, VolatileAccessesOfOneBlockDoNotRaceWithEachOther) {
  int* flags = device_copy(std::vector<int>(4, 0));
  int* out = device_copy(std::vector<int>(64, 0));
  EXPECT_EQ(kernel_error([&] { launch("volatile_flags", volatile_flags, dim3(1), dim3(64), 0, flags, out); }), "");
  EXPECT_EQ(host_copy(out, 64), std::vector<int>(64, 1));
  cudaFree(flags);
  cudaFree(out);
}

}  // namespace
