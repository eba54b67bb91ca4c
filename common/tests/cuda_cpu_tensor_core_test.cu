// The tensor-core atoms (rooflab/tensor_core.hpp) in the CPU runtime: what
// it checks and counts of them. ldmatrix's bank conflicts beside hand counts
// for an unswizzled and an XOR-swizzled tile; cp.async's data in flight
// until the wait (reading it early, or writing its source, is a race naming
// both lines); atoms are warp-collective; tensor-core operations and
// cp.async's traffic are counted. (tensor_core_test.cpp checks the answers,
// here and on a GPU.)
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cuda_cpu_testing.hpp"
#include "rooflab/tensor_core.hpp"

namespace {

namespace tc = rooflab::tensor_core;
using rooflab::cuda_cpu::LaunchRecord;
using rooflab::cuda_cpu::testing::device_copy;
using rooflab::cuda_cpu::testing::kernel_error;
using ::testing::HasSubstr;

// A 16 × 64 tile of halves (128-byte rows, 8 chunks of 16 bytes each) in
// shared memory, filled from global memory 16 bytes a lane (4 conflict-free
// stores of 512 contiguous bytes), then read as A of an m16n8k16 by one
// ldmatrix_x4: lane l gives row l % 16, chunk l / 16. Swizzled, chunk c of
// row r is stored at chunk c ^ (r % 8).
template <bool Swizzled>
__global__ void ldmatrix_from_tile(const uint4* in, std::uint32_t* out) {
  __shared__ uint4 tile[16 * 8];
  const auto place = [](int row, int chunk) { return row * 8 + (Swizzled ? chunk ^ (row % 8) : chunk); };
  for (int i = threadIdx.x; i < 16 * 8; i += 32) tile[place(i / 8, i % 8)] = in[i];
  __syncthreads();
  std::uint32_t a[4];
  tc::ldmatrix_x4(a, &tile[place(threadIdx.x % 16, threadIdx.x / 16)]);
  for (int j = 0; j < 4; ++j) out[threadIdx.x * 4 + j] = a[j];
}

TEST(CudaCpuTensorCore, LdmatrixCountsBankConflictsPerMatrixAsTheHardwareServesThem) {
  uint4* in = device_copy(std::vector<uint4>(16 * 8, uint4{1, 2, 3, 4}));
  std::uint32_t* out = device_copy(std::vector<std::uint32_t>(128, 0));
  rooflab::cuda_cpu::take_launch_records();
  ldmatrix_from_tile<false><<<1, 32>>>(in, out);
  ldmatrix_from_tile<true><<<1, 32>>>(in, out);
  const std::vector<LaunchRecord> records = rooflab::cuda_cpu::take_launch_records();
  ASSERT_EQ(records.size(), 2u);
  // By hand. The fill: 4 store requests, each 128 words over 32 banks = 4
  // wavefronts, no conflict. The ldmatrix: 1 request of 4 matrices. Without
  // the swizzle, a matrix's 8 rows start 128 bytes apart: all in banks 0–3
  // (or 4–7), 8 wavefronts each, 32 in all, 28 more than 4. With it, row r's
  // chunk moves to chunk c ^ r: the 8 rows take 8 different 4-bank groups,
  // one wavefront a matrix.
  const auto& plain = records[0].memory;
  EXPECT_EQ(plain.shared_store_requests, 4u);
  EXPECT_EQ(plain.shared_load_requests, 1u);
  EXPECT_EQ(plain.shared_wavefronts, 4u * 4u + 32u);
  EXPECT_EQ(plain.shared_bank_conflicts, 28u);
  const auto& swizzled = records[1].memory;
  EXPECT_EQ(swizzled.shared_store_requests, 4u);
  EXPECT_EQ(swizzled.shared_load_requests, 1u);
  EXPECT_EQ(swizzled.shared_wavefronts, 4u * 4u + 4u);
  EXPECT_EQ(swizzled.shared_bank_conflicts, 0u);
  cudaFree(in);
  cudaFree(out);
}

__global__ void one_mma(float* out) {
  const std::uint32_t a[4] = {0, 0, 0, 0}, b[2] = {0, 0};
  const float c[4] = {1, 2, 3, 4};
  float d[4];
  tc::mma_m16n8k16_f16(d, a, b, c);
  tc::mma_m16n8k8_tf32(d, a, b, d);
  out[blockIdx.x * 32 + threadIdx.x] = d[0] + d[1] + d[2] + d[3];
}

TEST(CudaCpuTensorCore, MmaCountsTensorCoreOperationsAndFlops) {
  float* out = device_copy(std::vector<float>(64, 0.0f));
  rooflab::cuda_cpu::take_launch_records();
  one_mma<<<2, 32>>>(out);
  const std::vector<LaunchRecord> records = rooflab::cuda_cpu::take_launch_records();
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].tensor_core_operations, 4u);                                    // 2 a warp, 2 blocks
  EXPECT_EQ(records[0].tensor_core_flops, 2u * (2u * 16 * 8 * 16 + 2u * 16 * 8 * 8));  // 2·m·n·k each
  cudaFree(out);
}

// Only the warp's first half multiplies (on the line kHalfWarpMmaLine names).
constexpr int kHalfWarpMmaLine = __LINE__ + 5;
__global__ void mma_from_half_a_warp(float* out) {
  const std::uint32_t a[4] = {0, 0, 0, 0}, b[2] = {0, 0};
  const float c[4] = {0, 0, 0, 0};
  float d[4] = {0, 0, 0, 0};
  if (threadIdx.x < 16) tc::mma_m16n8k16_f16(d, a, b, c);
  out[threadIdx.x] = d[0];
}

__global__ void ldmatrix_misused(const uint4* global, int how) {
  __shared__ uint4 rows[33];
  rows[threadIdx.x] = global[threadIdx.x];
  __syncwarp();
  std::uint32_t d[1];
  if (how == 0) tc::ldmatrix_x1(d, &global[threadIdx.x]);                                   // global memory
  if (how == 1) tc::ldmatrix_x1(d, reinterpret_cast<const char*>(&rows[threadIdx.x]) + 4);  // misaligned
  if (how == 2) tc::ldmatrix_x1(d, &rows[threadIdx.x + 1]);  // row 32, which nobody wrote, is lane 31's: unread
}

TEST(CudaCpuTensorCore, AtomsAreWarpCollectiveAndCheckTheirAddresses) {
  float* out = device_copy(std::vector<float>(32, 0.0f));
  const std::string divergent = kernel_error([&] { mma_from_half_a_warp<<<1, 32>>>(out); });
  EXPECT_THAT(divergent, HasSubstr("kernel mma_from_half_a_warp: mma_m16n8k16_f16 at "));
  EXPECT_THAT(divergent, HasSubstr("cuda_cpu_tensor_core_test.cu:" + std::to_string(kHalfWarpMmaLine)));
  EXPECT_THAT(divergent, HasSubstr("names lane 16, which has exited"));

  uint4* global = device_copy(std::vector<uint4>(33, uint4{1, 2, 3, 4}));
  EXPECT_THAT(kernel_error([&] { ldmatrix_misused<<<1, 32>>>(global, 0); }),
              HasSubstr("is not in the block's shared memory: ldmatrix reads rows of shared memory only"));
  EXPECT_THAT(kernel_error([&] { ldmatrix_misused<<<1, 32>>>(global, 1); }),
              HasSubstr("is not 16-byte aligned, as ldmatrix requires of every row"));
  // x1 reads lanes 0…7's rows only: row 32 (lane 31's address) is never read.
  EXPECT_EQ(kernel_error([&] { ldmatrix_misused<<<1, 32>>>(global, 2); }), "");
  rooflab::cuda_cpu::take_launch_records();
  cudaFree(global);
  cudaFree(out);
}

// Each lane copies its 16 bytes; `mistake` chooses what goes wrong (0: nothing).
constexpr int kIssueLine = __LINE__ + 5;
__global__ void cp_async_mistakes(float4* in, float* out, int mistake) {
  __shared__ float4 tile[32];
  const int lane = threadIdx.x;
  if (mistake == 4) tile[(lane + 1) % 32] = in[lane];  // another lane's destination, unordered with its copy
  tc::cp_async_16_cg(&tile[lane], &in[lane]);
  tc::cp_async_commit_group();
  if (mistake == 1) out[lane] = tile[lane].x;  // its own destination, before the wait
  if (mistake == 2) in[lane].y = 0.0f;         // its source, before the wait
  if (mistake == 3) {
    __syncthreads();
    out[lane] = tile[(lane + 1) % 32].x;  // another lane's, after a barrier but before that lane's wait
  }
  tc::cp_async_wait_group<0>();
  __syncthreads();
  out[lane] = tile[(lane + 1) % 32].x;
}
constexpr int kOwnReadLine = kIssueLine + 2, kSourceWriteLine = kIssueLine + 3, kOtherReadLine = kIssueLine + 6;

TEST(CudaCpuTensorCore, CpAsyncDataIsInFlightUntilTheWait) {
  std::vector<float4> values(32);
  for (int i = 0; i < 32; ++i) values[i] = float4{1.0f * i, 0, 0, 0};
  float4* in = device_copy(values);
  float* out = device_copy(std::vector<float>(32, 0.0f));
  rooflab::cuda_cpu::take_launch_records();
  EXPECT_EQ(kernel_error([&] { cp_async_mistakes<<<1, 32>>>(in, out, 0); }), "");
  const std::vector<LaunchRecord> records = rooflab::cuda_cpu::take_launch_records();
  ASSERT_EQ(records.size(), 1u);
  // The copy: one global load request of 512 contiguous bytes (16 sectors),
  // then, landed, one shared store request; the read after the barrier is
  // a 4-byte load at a 16-byte stride (4 wavefronts).
  EXPECT_EQ(records[0].memory.global_load_requests, 1u);
  EXPECT_EQ(records[0].memory.global_load_sectors, 16u);
  EXPECT_EQ(records[0].memory.dram_read_bytes, 512u);
  EXPECT_EQ(records[0].memory.shared_store_requests, 1u);
  EXPECT_EQ(records[0].memory.shared_load_requests, 1u);

  const std::string file = "cuda_cpu_tensor_core_test.cu:";
  const std::string own = kernel_error([&] { cp_async_mistakes<<<1, 32>>>(in, out, 1); });
  EXPECT_THAT(own, HasSubstr("race with a cp.async in flight"));
  EXPECT_THAT(own, HasSubstr(" reads "));
  EXPECT_THAT(own, HasSubstr(file + std::to_string(kOwnReadLine)));
  EXPECT_THAT(own, HasSubstr("the destination of the cp.async that "));
  EXPECT_THAT(own, HasSubstr(file + std::to_string(kIssueLine)));
  const std::string source = kernel_error([&] { cp_async_mistakes<<<1, 32>>>(in, out, 2); });
  EXPECT_THAT(source, HasSubstr(" writes "));
  EXPECT_THAT(source, HasSubstr(file + std::to_string(kSourceWriteLine)));
  EXPECT_THAT(source, HasSubstr("the source of the cp.async"));
  EXPECT_THAT(source, HasSubstr(file + std::to_string(kIssueLine)));
  const std::string other = kernel_error([&] { cp_async_mistakes<<<1, 32>>>(in, out, 3); });
  EXPECT_THAT(other, HasSubstr("race with a cp.async in flight"));
  EXPECT_THAT(other, HasSubstr(file + std::to_string(kOtherReadLine)));
  EXPECT_THAT(other, HasSubstr(file + std::to_string(kIssueLine)));
  // A store another lane made, unordered with this lane's copy to the same
  // bytes: a race as the copy is issued (it may land at once).
  const std::string before = kernel_error([&] { cp_async_mistakes<<<1, 32>>>(in, out, 4); });
  EXPECT_THAT(before, HasSubstr("race"));
  EXPECT_THAT(before, HasSubstr(file + std::to_string(kIssueLine)));
  rooflab::cuda_cpu::take_launch_records();
  cudaFree(in);
  cudaFree(out);
}

// A block of 2 warps copies two stages of 32 float4 per warp, waits twice
// (once with a group still in flight) and reads both: 4 cp.async requests
// (global loads a warp does not wait for), 4 waits (one per warp and
// wait_group), and the 2 plain loads of the results' reads are not among them.
__global__ void two_stages_per_warp(const float4* in, float* out) {
  __shared__ float4 stages[2][64];
  const int t = threadIdx.x;
  tc::cp_async_16_cg(&stages[0][t], &in[t]);
  tc::cp_async_commit_group();
  tc::cp_async_16_cg(&stages[1][t], &in[64 + t]);
  tc::cp_async_commit_group();
  tc::cp_async_wait_group<1>();
  const float first = stages[0][t].x;
  tc::cp_async_wait_group<0>();
  out[t] = first + stages[1][t].x + in[t].y;
}

TEST(CudaCpuTensorCore, CpAsyncRequestsAndTheirWaitsAreCountedPerWarp) {
  float4* in = device_copy(std::vector<float4>(128, float4{1, 2, 3, 4}));
  float* out = device_copy(std::vector<float>(64, 0.0f));
  rooflab::cuda_cpu::take_launch_records();
  EXPECT_EQ(kernel_error([&] { two_stages_per_warp<<<1, 64>>>(in, out); }), "");
  const std::vector<LaunchRecord> records = rooflab::cuda_cpu::take_launch_records();
  ASSERT_EQ(records.size(), 1u);
  const rooflab::cuda_cpu::MemoryCounters& memory = records[0].memory;
  EXPECT_EQ(memory.async_copy_requests, 4u);
  EXPECT_EQ(memory.async_copy_waits, 4u);
  EXPECT_EQ(memory.global_load_requests, 4u + 2);  // the copies' and the plain loads of in[t].y
  EXPECT_EQ(memory.shared_store_requests, 4u);     // the copies landing
  EXPECT_EQ(out[0], 4.0f);
  cudaFree(in);
  cudaFree(out);
}

// wait_group<1> leaves the latest group in flight: reading it is a race.
constexpr int kLatestGroupRead = __LINE__ + 10;
__global__ void reads_the_group_still_in_flight(const float4* in, float* out) {
  __shared__ float4 stages[2][32];
  const int lane = threadIdx.x;
  tc::cp_async_16_cg(&stages[0][lane], &in[lane]);
  tc::cp_async_commit_group();
  tc::cp_async_16_cg(&stages[1][lane], &in[32 + lane]);
  tc::cp_async_commit_group();
  tc::cp_async_wait_group<1>();
  out[lane] = stages[0][lane].x;
  out[lane] += stages[1][lane].x;
  tc::cp_async_wait_all();
}

TEST(CudaCpuTensorCore, WaitGroupLeavesTheLatestGroupsInFlight) {
  float4* in = device_copy(std::vector<float4>(64, float4{1, 2, 3, 4}));
  float* out = device_copy(std::vector<float>(32, 0.0f));
  const std::string error = kernel_error([&] { reads_the_group_still_in_flight<<<1, 32>>>(in, out); });
  EXPECT_THAT(error, HasSubstr("race with a cp.async in flight"));
  EXPECT_THAT(error, HasSubstr("cuda_cpu_tensor_core_test.cu:" + std::to_string(kLatestGroupRead)));
  rooflab::cuda_cpu::take_launch_records();
  cudaFree(in);
  cudaFree(out);
}

__global__ void cp_async_misused(const float4* in, float* out, int how) {
  __shared__ float4 tile[32];
  if (how == 0) tc::cp_async_16_cg(&tile[threadIdx.x], reinterpret_cast<const char*>(&in[threadIdx.x]) + 4);
  if (how == 1) tc::cp_async_16_cg(&tile[threadIdx.x], &tile[(threadIdx.x + 1) % 32]);
  if (how == 2) tc::cp_async_16_cg(out + 4 * threadIdx.x, &in[threadIdx.x]);
  if (how == 3) tc::cp_async_16_cg(&tile[threadIdx.x], &in[threadIdx.x], 20);
  tc::cp_async_wait_all();
}

TEST(CudaCpuTensorCore, CpAsyncChecksItsAddressesAndSize) {
  float4* in = device_copy(std::vector<float4>(33, float4{1, 2, 3, 4}));
  float* out = device_copy(std::vector<float>(128, 0.0f));
  EXPECT_THAT(kernel_error([&] { cp_async_misused<<<1, 32>>>(in, out, 0); }),
              HasSubstr("is not 16-byte aligned, as cp.async requires of both"));
  EXPECT_THAT(kernel_error([&] { cp_async_misused<<<1, 32>>>(in, out, 1); }),
              HasSubstr("is in shared memory: cp.async reads global memory"));
  EXPECT_THAT(kernel_error([&] { cp_async_misused<<<1, 32>>>(in, out, 2); }),
              HasSubstr("is not in the block's shared memory (cp.async copies global to shared memory)"));
  EXPECT_THAT(kernel_error([&] { cp_async_misused<<<1, 32>>>(in, out, 3); }),
              HasSubstr("src_size 20 is more than the 16 bytes it copies"));
  rooflab::cuda_cpu::take_launch_records();
  cudaFree(in);
  cudaFree(out);
}

}  // namespace
