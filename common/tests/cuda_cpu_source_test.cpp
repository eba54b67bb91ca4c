// A .cu file written as for nvcc, rewritten by the build (cmake/cuda_on_cpu.cmake)
// and run on the CPU: chevron launches, templates, extern __shared__.
#include <gtest/gtest.h>

#include <numeric>

#include "cuda_cpu_kernels.hpp"
#include "rooflab/cuda_cpu.hpp"
#include "rooflab/cuda_helpers.hpp"

TEST(CudaOnCpu, ChevronLaunchesRunTheKernel) {
  EXPECT_EQ(scale_on_device({1, 2, 3, -4}, 2.5f), (std::vector<float>{2.5f, 5, 7.5f, -10}));
  std::vector<float> many(1000, 1.0f);
  const std::vector<float> scaled = scale_on_device(many, 3);
  EXPECT_EQ(std::accumulate(scaled.begin(), scaled.end(), 0.0f), 3000.0f);  // all 8 blocks ran, none past n
}

TEST(CudaOnCpu, TemplatesDynamicSharedMemoryAndShuffles) {
  std::vector<float> values(300);
  std::iota(values.begin(), values.end(), 0.0f);
  // Blocks of 128: 0+…+127, 128+…+255, 256+…+299.
  EXPECT_EQ(block_sums_on_device(values, 128), (std::vector<float>{8128, 24512, 12210}));
}

TEST(CudaOnCpu, DeducedTemplateLaunchesCompileAndAreRecordedByTheKernelsName) {
  std::vector<float> values(300);
  std::iota(values.begin(), values.end(), 0.0f);
  rooflab::cuda_cpu::take_launch_records();
  EXPECT_EQ(deduced_block_sums_on_device(values, 128), (std::vector<float>{8128, 24512, 12210}));
  block_sums_on_device(values, 128);
  const std::vector<rooflab::cuda_cpu::LaunchRecord> records = rooflab::cuda_cpu::take_launch_records();
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].kernel, "kernel");             // block_sums::kernel<float>, deduced
  EXPECT_EQ(records[1].kernel, "block_sums_kernel");  // block_sums_kernel<float>
}

TEST(CudaHelpers, ACheckedCallThrowsNamingFileLineAndTheCall) {
  try {
    fail_a_cuda_call();
    FAIL() << "expected std::runtime_error";
  } catch (const std::runtime_error& error) {
    const std::string what = error.what();
    EXPECT_NE(what.find("cuda_cpu_kernels.cu:"), std::string::npos) << what;
    EXPECT_NE(what.find("cudaMemcpy(nullptr, nullptr, 4, cudaMemcpyHostToDevice) failed: invalid argument"),
              std::string::npos)
        << what;
  }
  cudaGetLastError();
}

TEST(CudaHelpers, TooMuchSharedMemoryNamesTheOption) {
  EXPECT_NO_THROW(rooflab::cuda::require_shared_memory(48 * 1024, "block_rows"));
  try {
    rooflab::cuda::require_shared_memory(64 * 1024, "block_rows");
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& error) {
    EXPECT_EQ(std::string(error.what()).rfind("block_rows: ", 0), 0u) << error.what();
  }
  EXPECT_EQ(rooflab::cuda::ceil_div(300, 128), 3);
  EXPECT_EQ(rooflab::cuda::ceil_div(256, 128), 2);
}

TEST(CudaHelpers, ADeviceBufferRoundTripsAndIsFreed) {
  const std::vector<int> values{4, 5, 6};
  int* freed = nullptr;
  {
    rooflab::cuda::DeviceBuffer<int> buffer(values);
    EXPECT_EQ(buffer.size(), 3u);
    EXPECT_EQ(buffer.to_host(), values);
    freed = buffer.get();
  }
  EXPECT_EQ(rooflab::cuda::device_buffer_bytes(), 0u);
  // The runtime refuses to free a pointer twice: the buffer already was.
  EXPECT_EQ(cudaFree(freed), cudaErrorInvalidValue);
  cudaGetLastError();
}

TEST(CudaHelpers, DeviceBuffersCountTheirBytesAndPeak) {
  rooflab::cuda::reset_device_buffer_peak();
  const std::size_t before = rooflab::cuda::device_buffer_bytes();
  {
    const rooflab::cuda::DeviceBuffer<float> a(100);
    {
      const rooflab::cuda::DeviceBuffer<double> b(10);
      EXPECT_EQ(rooflab::cuda::device_buffer_bytes(), before + 480);
    }
    EXPECT_EQ(rooflab::cuda::device_buffer_bytes(), before + 400);
  }
  EXPECT_EQ(rooflab::cuda::device_buffer_bytes(), before);
  EXPECT_EQ(rooflab::cuda::device_buffer_peak(), before + 480);
  rooflab::cuda::reset_device_buffer_peak();
  EXPECT_EQ(rooflab::cuda::device_buffer_peak(), before);
}
