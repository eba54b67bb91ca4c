// The launch and API calls of modern CUDA in the CPU runtime: more than
// 48 KiB of dynamic shared memory after cudaFuncSetAttribute (and an error
// saying which attribute to set without it), __launch_bounds__ as the check
// a GPU makes, and streams and events, synchronous here, with
// cudaEventElapsedTime saying that nothing is timed; and launches recorded
// but not run (set_launch_shapes_only), still checked.
#include <gtest/gtest.h>

#include <vector>

#include "cuda_cpu_testing.hpp"

namespace {

using rooflab::cuda_cpu::testing::device_copy;
using rooflab::cuda_cpu::testing::host_copy;
using rooflab::cuda_cpu::testing::kernel_error;
using ::testing::HasSubstr;

// Sums `count` floats through dynamic shared memory: thread t copies its
// share in, thread 0 adds them up.
__global__ void sum_through_shared(const float* in, int count, float* out) {
  extern __shared__ float staged[];
  for (int i = threadIdx.x; i < count; i += blockDim.x) staged[i] = in[i];
  __syncthreads();
  if (threadIdx.x == 0) {
    float sum = 0.0f;
    for (int i = 0; i < count; ++i) sum += staged[i];
    *out = sum;
  }
}

TEST(CudaCpuLaunchApi, MoreThan48KibOfSharedMemoryNeedsTheAttribute) {
  constexpr int kCount = 30 * 1024;  // 120 KiB of floats
  float* in = device_copy(std::vector<float>(kCount, 1.0f));
  float* out = device_copy(std::vector<float>(1, 0.0f));
  const std::size_t bytes = kCount * sizeof(float);
  const std::string refused = kernel_error([&] { sum_through_shared<<<1, 256, bytes>>>(in, kCount, out); });
  EXPECT_THAT(refused, HasSubstr("122880 bytes of dynamic shared memory per block"));
  EXPECT_THAT(refused,
              HasSubstr("cudaFuncSetAttribute(sum_through_shared, cudaFuncAttributeMaxDynamicSharedMemorySize"));
  EXPECT_THAT(refused, HasSubstr("H100 allows up to 232448"));

  ASSERT_EQ(cudaFuncSetAttribute(sum_through_shared, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes), cudaSuccess);
  sum_through_shared<<<1, 256, bytes>>>(in, kCount, out);
  ASSERT_EQ(cudaGetLastError(), cudaSuccess);
  EXPECT_EQ(host_copy(out, 1)[0], static_cast<float>(kCount));
  // Past what the attribute allows, and past what an H100 has.
  EXPECT_THAT(kernel_error([&] { sum_through_shared<<<1, 256, bytes + 4>>>(in, kCount, out); }),
              HasSubstr("more than the 122880 its cudaFuncAttributeMaxDynamicSharedMemorySize allows"));
  EXPECT_EQ(cudaFuncSetAttribute(sum_through_shared, cudaFuncAttributeMaxDynamicSharedMemorySize, 228 * 1024),
            cudaErrorInvalidValue);
  cudaGetLastError();
  rooflab::cuda_cpu::take_launch_records();
  cudaFree(in);
  cudaFree(out);
}

__global__ void __launch_bounds__(64) bounded(int* out) { out[threadIdx.x] = static_cast<int>(threadIdx.x); }

TEST(CudaCpuLaunchApi, ShapesOnlyRecordsALaunchWithoutRunningItAndStillChecksIt) {
  int* out = device_copy(std::vector<int>(64, -1));
  rooflab::cuda_cpu::take_launch_records();
  rooflab::cuda_cpu::set_launch_shapes_only(true);
  bounded<<<dim3(3, 2), 64>>>(out);
  const cudaError_t launched = cudaGetLastError();
  // A launch a GPU would refuse is refused all the same (a check made
  // inside the kernel, as __launch_bounds__' is, is not: nothing runs).
  const std::string refused = kernel_error([&] { bounded<<<1, 2048>>>(out); });
  rooflab::cuda_cpu::set_launch_shapes_only(false);
  EXPECT_EQ(launched, cudaSuccess);
  EXPECT_THAT(refused, HasSubstr("2048 threads per block"));
  const std::vector<rooflab::cuda_cpu::LaunchRecord> records = rooflab::cuda_cpu::take_launch_records();
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].kernel, "bounded");
  EXPECT_EQ(records[0].grid.x, 3u);
  EXPECT_EQ(records[0].grid.y, 2u);
  EXPECT_EQ(records[0].block.x, 64u);
  EXPECT_EQ(records[0].memory.global_store_requests, 0u);
  EXPECT_EQ(host_copy(out, 64), std::vector<int>(64, -1));  // nothing ran
  // Off again: the next launch runs.
  bounded<<<1, 64>>>(out);
  ASSERT_EQ(cudaGetLastError(), cudaSuccess);
  EXPECT_EQ(host_copy(out, 64)[63], 63);
  rooflab::cuda_cpu::take_launch_records();
  cudaFree(out);
}

TEST(CudaCpuLaunchApi, LaunchBoundsRefuseMoreThreadsThanDeclared) {
  int* out = device_copy(std::vector<int>(128, 0));
  EXPECT_EQ(kernel_error([&] { bounded<<<1, 64>>>(out); }), "");
  EXPECT_THAT(kernel_error([&] { bounded<<<1, 128>>>(out); }),
              HasSubstr("kernel bounded: launched with 128 threads per block (128, 1, 1), more than its "
                        "__launch_bounds__(64) declares"));
  rooflab::cuda_cpu::take_launch_records();
  cudaFree(out);
}

__global__ void add_one(int* values) { values[threadIdx.x] += 1; }

TEST(CudaCpuLaunchApi, StreamsAndEventsRunInOrderAndTimeNothing) {
  cudaStream_t stream = nullptr;
  ASSERT_EQ(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), cudaSuccess);
  cudaEvent_t start = nullptr, stop = nullptr;
  ASSERT_EQ(cudaEventCreate(&start), cudaSuccess);
  ASSERT_EQ(cudaEventCreate(&stop), cudaSuccess);
  int* values = nullptr;
  ASSERT_EQ(cudaMalloc(&values, 32 * sizeof(int)), cudaSuccess);
  ASSERT_EQ(cudaMemsetAsync(values, 0, 32 * sizeof(int), stream), cudaSuccess);
  ASSERT_EQ(cudaEventRecord(start, stream), cudaSuccess);
  add_one<<<1, 32, 0, stream>>>(values);
  add_one<<<1, 32, 0, stream>>>(values);
  ASSERT_EQ(cudaEventRecord(stop, stream), cudaSuccess);
  ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
  std::vector<int> host(32, -1);
  ASSERT_EQ(cudaMemcpyAsync(host.data(), values, 32 * sizeof(int), cudaMemcpyDeviceToHost, stream), cudaSuccess);
  for (const int value : host) EXPECT_EQ(value, 2);
  float milliseconds = -1.0f;
  EXPECT_EQ(cudaEventElapsedTime(&milliseconds, start, stop), cudaErrorNotSupported);
  EXPECT_EQ(milliseconds, -1.0f);
  EXPECT_THAT(rooflab::cuda_cpu::last_error_message(), HasSubstr("the CPU runtime times nothing"));
  cudaGetLastError();
  EXPECT_EQ(cudaEventDestroy(start), cudaSuccess);
  EXPECT_EQ(cudaEventDestroy(stop), cudaSuccess);
  EXPECT_EQ(cudaStreamDestroy(stream), cudaSuccess);
  rooflab::cuda_cpu::take_launch_records();
  cudaFree(values);
}

}  // namespace
