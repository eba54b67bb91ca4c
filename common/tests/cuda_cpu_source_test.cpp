// A .cu file written as for nvcc, rewritten by the build (cmake/cuda_on_cpu.cmake)
// and run on the CPU: chevron launches, templates, extern __shared__.
#include <gtest/gtest.h>

#include <numeric>

#include "cuda_cpu_kernels.hpp"

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
