// Nsight Compute's memory counters, counted by the CPU runtime, on kernels
// whose counts are known by hand (docs/06_cuda_attention.md, "Coalescing and
// bank conflicts"): an fp32 copy reads 4 sectors per request when a warp's
// lanes read neighbouring floats and 32 when they read floats 128 bytes
// apart; a 32×32 tile read down a column conflicts 31 times per request in
// shared memory unless its rows are padded to 33 floats.
#include <gtest/gtest.h>

#include <vector>

#include "cuda_cpu_testing.hpp"

namespace {

using rooflab::cuda_cpu::launch;
using rooflab::cuda_cpu::LaunchRecord;
using rooflab::cuda_cpu::testing::device_copy;

__global__ void copy_with_stride(const float* in, float* out, int stride) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i * stride];
}

LaunchRecord only_launch() {
  const auto records = rooflab::cuda_cpu::take_launch_records();
  EXPECT_EQ(records.size(), 1u);
  return records.empty() ? LaunchRecord{} : records.back();
}

constexpr int kThreads = 8 * 1024;  // 32 blocks of 256: 256 warps

TEST(CudaCpuCounters, ACoalescedCopyReadsFourSectorsPerRequest) {
  float* in = device_copy(std::vector<float>(kThreads, 1.0f));
  float* out = device_copy(std::vector<float>(kThreads, 0.0f));
  rooflab::cuda_cpu::take_launch_records();
  launch("copy_with_stride", copy_with_stride, dim3(kThreads / 256), dim3(256), 0, in, out, 1);
  const LaunchRecord record = only_launch();
  EXPECT_EQ(record.memory.global_load_requests, kThreads / 32u);
  EXPECT_EQ(record.memory.global_load_sectors, 4u * kThreads / 32u);
  EXPECT_EQ(record.memory.global_store_requests, kThreads / 32u);
  EXPECT_EQ(record.memory.global_store_sectors, 4u * kThreads / 32u);
  EXPECT_EQ(record.memory.dram_read_bytes, 4u * kThreads);
  EXPECT_EQ(record.memory.dram_write_bytes, 4u * kThreads);
  EXPECT_EQ(record.memory.shared_load_requests, 0u);
  cudaFree(in);
  cudaFree(out);
}

TEST(CudaCpuCounters, AStridedCopyReadsThirtyTwoSectorsPerRequest) {
  float* in = device_copy(std::vector<float>(kThreads * 32, 1.0f));
  float* out = device_copy(std::vector<float>(kThreads, 0.0f));
  rooflab::cuda_cpu::take_launch_records();
  launch("copy_with_stride", copy_with_stride, dim3(kThreads / 256), dim3(256), 0, in, out, 32);
  const LaunchRecord record = only_launch();
  EXPECT_EQ(record.memory.global_load_requests, kThreads / 32u);
  EXPECT_EQ(record.memory.global_load_sectors, 32u * kThreads / 32u);
  EXPECT_EQ(record.memory.global_store_sectors, 4u * kThreads / 32u);
  EXPECT_EQ(record.memory.dram_read_bytes, 32u * kThreads);  // a whole sector for each float used
  cudaFree(in);
  cudaFree(out);
}

// One 32×32 tile per block of 32×32 threads: warp y stores row y, then reads
// column y (the transpose). Row stride 32 floats: the column is one bank.
template <int kRowFloats>
__global__ void transpose_tile(const float* in, float* out) {
  __shared__ float tile[32][kRowFloats];
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * 32 + threadIdx.x];
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}

TEST(CudaCpuCounters, AColumnOfAnUnpaddedTileConflictsThirtyOneTimesPerRequest) {
  float* in = device_copy(std::vector<float>(32 * 32, 1.0f));
  float* out = device_copy(std::vector<float>(32 * 32, 0.0f));
  rooflab::cuda_cpu::take_launch_records();
  launch("transpose_tile", transpose_tile<32>, dim3(1), dim3(32, 32), 0, in, out);
  const LaunchRecord unpadded = only_launch();
  EXPECT_EQ(unpadded.memory.shared_store_requests, 32u);
  EXPECT_EQ(unpadded.memory.shared_load_requests, 32u);
  EXPECT_EQ(unpadded.memory.shared_bank_conflicts, 32u * 31u);
  EXPECT_EQ(unpadded.memory.shared_wavefronts, 32u + 32u * 32u);
  EXPECT_EQ(unpadded.static_shared_bytes, 32u * 32u * 4u);

  launch("transpose_tile", transpose_tile<33>, dim3(1), dim3(32, 32), 0, in, out);
  const LaunchRecord padded = only_launch();
  EXPECT_EQ(padded.memory.shared_load_requests, 32u);
  EXPECT_EQ(padded.memory.shared_bank_conflicts, 0u);
  EXPECT_EQ(padded.memory.shared_wavefronts, 64u);
  cudaFree(in);
  cudaFree(out);
}

// Every lane reads the same word: a broadcast, one wavefront, no conflict.
__global__ void broadcast(const float* in, float* out) {
  __shared__ float value;
  if (threadIdx.x == 0) value = in[0];
  __syncthreads();
  out[threadIdx.x] = value;
}

TEST(CudaCpuCounters, ABroadcastIsOneWavefront) {
  float* in = device_copy(std::vector<float>(1, 2.0f));
  float* out = device_copy(std::vector<float>(64, 0.0f));
  rooflab::cuda_cpu::take_launch_records();
  launch("broadcast", broadcast, dim3(1), dim3(64), 0, in, out);
  const LaunchRecord record = only_launch();
  EXPECT_EQ(record.memory.shared_load_requests, 2u);
  EXPECT_EQ(record.memory.shared_bank_conflicts, 0u);
  EXPECT_EQ(record.memory.shared_store_requests, 1u);  // lane 0 of warp 0 alone
  EXPECT_EQ(record.memory.global_load_requests, 1u);
  EXPECT_EQ(record.memory.global_load_sectors, 1u);
  cudaFree(in);
  cudaFree(out);
}

// Warp w of block b loads (b + 1) × (w + 1) floats, each its own request:
// the heaviest warp is block 2's warp 1, 6 loads and a store.
__global__ void uneven_loads(const float* in, float* out) {
  const int warp = static_cast<int>(threadIdx.x) / 32;
  float sum = 0;
  for (int i = 0; i < (static_cast<int>(blockIdx.x) + 1) * (warp + 1); ++i) sum += in[i * 64 + threadIdx.x];
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

TEST(CudaCpuCounters, TheHeaviestWarpsRequestsAreCountedAcrossBlocks) {
  float* in = device_copy(std::vector<float>(64 * 6, 1.0f));
  float* out = device_copy(std::vector<float>(3 * 64, 0.0f));
  rooflab::cuda_cpu::take_launch_records();
  launch("uneven_loads", uneven_loads, dim3(3), dim3(64), 0, in, out);
  const LaunchRecord record = only_launch();
  EXPECT_EQ(record.memory.global_load_requests, 1u + 2 + 2 + 4 + 3 + 6);
  EXPECT_EQ(record.memory.heaviest_warp_requests, 7u);
  cudaFree(in);
  cudaFree(out);
}

}  // namespace
