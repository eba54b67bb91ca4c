// Legal CUDA runs: the intrinsics and atomics kernels use, CUDA's pragmas,
// large per-thread arrays (a GPU gives a thread up to 512 KiB of local
// memory), and spin-waits on a flag another thread of the block sets. What
// no GPU would run fails fast with a message, never a hang.
#include <gtest/gtest.h>

#include <vector>

#include "cuda_cpu_testing.hpp"

namespace {

using rooflab::cuda_cpu::launch;
using rooflab::cuda_cpu::testing::device_copy;
using rooflab::cuda_cpu::testing::host_copy;
using rooflab::cuda_cpu::testing::kernel_error;
using ::testing::HasSubstr;

__global__ void __launch_bounds__(64) intrinsics(int* out, float* floats, unsigned* bits) {
  const int t = static_cast<int>(threadIdx.x);
  const int odd_threads = __syncthreads_count(t % 2);
  const int any_big = __syncthreads_or(t > 60);
  const int all_small = __syncthreads_and(t < 64);
  const int warp_any = __any_sync(0xffffffffu, t == 3);
  const int warp_all = __all_sync(0xffffffffu, t >= 0);
  const unsigned active = __activemask();
  __threadfence_block();
  __threadfence();
  if (t == 0) {
    out[0] = odd_threads;
    out[1] = any_big;
    out[2] = all_small;
    out[3] = warp_any;
    out[4] = warp_all;
    out[5] = __popc(0xf0f0u);
    out[6] = __clz(1);
    out[7] = __ffs(8);
    out[8] = __float_as_int(1.0f);
    out[9] = __float2int_rn(2.5f);
    out[10] = __float2int_rn(-1.7f);
    floats[0] = __int_as_float(0x40490fdb);
    floats[1] = __fmaf_rn(2.0f, 3.0f, 1.0f);
    floats[2] = __saturatef(1.5f);
    floats[3] = __frcp_rn(4.0f);
    floats[4] = __ldg(&floats[1]);
    bits[0] = active;
  }
  __syncthreads();
  float sum = 0.0f;
#pragma unroll
  for (int i = 0; i < 4; ++i) sum += static_cast<float>(i);
#pragma unroll 2
  for (int i = 0; i < 4; ++i) sum += static_cast<float>(i);
  atomicAdd_block(&floats[5], sum / 64.0f);
  atomicSub(&out[11], 1);
  atomicAnd(&bits[1], ~(1u << (t % 32)));
  atomicOr(&bits[2], 1u << (t % 32));
  atomicXor(&bits[3], 1u);
  atomicInc(&bits[4], 9u);
}

TEST(CudaCpuLegal, IntrinsicsAtomicsAndPragmas) {
  int* out = device_copy(std::vector<int>(12, 0));
  float* floats = device_copy(std::vector<float>(6, 0.0f));
  unsigned* bits = device_copy(std::vector<unsigned>{0, 0xffffffffu, 0, 0, 0});
  launch("intrinsics", intrinsics, dim3(1), dim3(64), 0, out, floats, bits);
  EXPECT_EQ(host_copy(out, 12), (std::vector<int>{32, 1, 1, 1, 1, 8, 31, 4, 0x3f800000, 2, -2, -64}));
  const std::vector<float> got = host_copy(floats, 6);
  EXPECT_FLOAT_EQ(got[0], 3.14159274f);
  EXPECT_FLOAT_EQ(got[1], 7.0f);
  EXPECT_FLOAT_EQ(got[2], 1.0f);
  EXPECT_FLOAT_EQ(got[3], 0.25f);
  EXPECT_FLOAT_EQ(got[4], 7.0f);
  EXPECT_FLOAT_EQ(got[5], 12.0f);
  // 64 increments wrapping at 9: 64 mod 10.
  EXPECT_EQ(host_copy(bits, 5), (std::vector<unsigned>{0xffffffffu, 0, 0xffffffffu, 0, 4}));
  cudaFree(out);
  cudaFree(floats);
  cudaFree(bits);
}

// 80 KiB of locals per thread: more than a CPU thread's usual stack share,
// well within a GPU thread's 512 KiB of local memory.
constexpr int kLocalFloats = 20 * 1024;

template <int kFloats>
__global__ void big_local_array(float* out) {
  float scratch[kFloats];
  for (int i = 0; i < kFloats; ++i) scratch[i] = static_cast<float>(i % 7);
  float sum = 0.0f;
  for (int i = 0; i < kFloats; i += 97) sum += scratch[(i * 31) % kFloats];
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

TEST(CudaCpuLegal, LargeLocalArraysFitAndAStackOverflowIsAnError) {
  float* out = device_copy(std::vector<float>(128, 0.0f));
  EXPECT_EQ(kernel_error([&] { launch("big_local_array", big_local_array<kLocalFloats>, dim3(2), dim3(64), 0, out); }),
            "");
  EXPECT_GT(host_copy(out, 64)[5], 0.0f);
  // 640 KiB a thread: no GPU thread has that much local memory either.
  EXPECT_THAT(kernel_error([&] { launch("too_big", big_local_array<160 * 1024>, dim3(1), dim3(32), 0, out); }),
              HasSubstr("kernel too_big: thread"));
  EXPECT_THAT(rooflab::cuda_cpu::last_error_message(), HasSubstr("KiB of local memory a GPU thread may have"));
  // The runtime goes on: the next launch runs.
  EXPECT_EQ(kernel_error([&] { launch("big_local_array", big_local_array<64>, dim3(1), dim3(32), 0, out); }), "");
  cudaFree(out);
}

// Thread 0 publishes a flag after its work; the others spin on it. Correct
// under independent thread scheduling (Volta and later).
__global__ void wait_for_thread_zero(int* flag, int* seen) {
  if (threadIdx.x == 0) {
    atomicExch(flag, 1);
  } else {
    while (atomicAdd(flag, 0) == 0) {
    }
    seen[threadIdx.x] = 1;
  }
}

__global__ void wait_on_volatile(volatile int* flag, int* seen) {
  if (threadIdx.x == 63) {
    *flag = 7;
  } else {
    while (*flag != 7) __nanosleep(10);
    seen[threadIdx.x] = 1;
  }
}

__global__ void wait_forever(int* flag) {
  while (atomicCAS(flag, 1, 2) != 1) {
  }
}

TEST(CudaCpuLegal, SpinWaitsMakeProgressAndOnesNothingReleasesFailFast) {
  int* flag = device_copy(std::vector<int>(1, 0));
  int* seen = device_copy(std::vector<int>(64, 0));
  EXPECT_EQ(
      kernel_error([&] { launch("wait_for_thread_zero", wait_for_thread_zero, dim3(1), dim3(64), 0, flag, seen); }),
      "");
  EXPECT_EQ(host_copy(seen, 64)[63], 1);
  cudaMemset(flag, 0, sizeof(int));
  EXPECT_EQ(kernel_error([&] { launch("wait_on_volatile", wait_on_volatile, dim3(1), dim3(64), 0, flag, seen); }), "");
  cudaMemset(flag, 0, sizeof(int));
  EXPECT_THAT(kernel_error([&] { launch("wait_forever", wait_forever, dim3(1), dim3(32), 0, flag); }),
              HasSubstr("spins on an atomic or volatile flag"));
  cudaFree(flag);
  cudaFree(seen);
}

// Data published through a flag: thread 0 writes the data, fences, then sets
// the flag (the fence and the atomic: a release); the others spin on the flag
// (an acquire), then read the data. Without the fence, or the flag's atomics,
// it is a race (cuda_cpu_memory_model_test.cu).
__global__ void publish_through_a_flag(int* flag, int* out) {
  __shared__ int data[32];
  if (threadIdx.x == 0) {
    for (int i = 0; i < 32; ++i) data[i] = i * 3;
    __threadfence_block();
    atomicExch(flag, 1);
  } else {
    while (atomicAdd(flag, 0) == 0) {
    }
    out[threadIdx.x] = data[threadIdx.x % 32];
  }
}

// A barrier made of a fence and an atomic counter, legal under independent
// thread scheduling: every thread's tile write is ordered before every read
// after it.
__global__ void hand_made_barrier(const float* in, float* out, unsigned* arrived) {
  __shared__ float tile[64];
  tile[threadIdx.x] = in[threadIdx.x];
  __threadfence_block();
  atomicAdd(arrived, 1u);
  while (atomicAdd(arrived, 0u) < blockDim.x) {
  }
  out[threadIdx.x] = tile[63 - threadIdx.x];
}

TEST(CudaCpuLegal, AtomicsOrderWhatTheyPublish) {
  int* flag = device_copy(std::vector<int>(1, 0));
  int* out = device_copy(std::vector<int>(64, 0));
  EXPECT_EQ(
      kernel_error([&] { launch("publish_through_a_flag", publish_through_a_flag, dim3(1), dim3(64), 0, flag, out); }),
      "");
  EXPECT_EQ(host_copy(out, 64)[33], 3);
  std::vector<float> values(64);
  for (int i = 0; i < 64; ++i) values[static_cast<std::size_t>(i)] = static_cast<float>(i);
  float* in = device_copy(values);
  float* reversed = device_copy(std::vector<float>(64, 0.0f));
  unsigned* arrived = device_copy(std::vector<unsigned>(1, 0));
  EXPECT_EQ(kernel_error(
                [&] { launch("hand_made_barrier", hand_made_barrier, dim3(1), dim3(64), 0, in, reversed, arrived); }),
            "");
  EXPECT_EQ(host_copy(reversed, 64)[0], 63.0f);
  cudaFree(flag);
  cudaFree(out);
  cudaFree(in);
  cudaFree(reversed);
  cudaFree(arrived);
}

__global__ void record_me(int* out) { out[blockIdx.x * blockDim.x + threadIdx.x] = 1; }

TEST(CudaCpuLegal, EveryLaunchIsRecorded) {
  int* out = device_copy(std::vector<int>(6 * 32, 0));
  rooflab::cuda_cpu::take_launch_records();
  launch("record_me", record_me, dim3(6), dim3(32), 0, out);
  launch("record_me", record_me, dim3(3), dim3(64), 0, out);
  const auto records = rooflab::cuda_cpu::take_launch_records();
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].kernel, "record_me");
  EXPECT_EQ(records[0].grid.x, 6u);
  EXPECT_EQ(records[1].block.x, 64u);
  EXPECT_TRUE(rooflab::cuda_cpu::take_launch_records().empty());
  cudaFree(out);
}

}  // namespace
