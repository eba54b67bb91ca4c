// The kernel roofline's GPUs (rooflab/kernel_roofline.hpp) read DRAM at the
// bandwidths of a01's catalog, so that chapters 2 and 6 agree; and the
// estimate is the roofline: max of the compute and the memory time.
#include <gtest/gtest.h>

#include "a01_roofline/gpu_catalog.hpp"
#include "rooflab/kernel_roofline.hpp"

namespace {

TEST(KernelRoofline, BandwidthsAreThoseOfA01sCatalog) {
  const std::pair<const char*, const char*> same_gpu[] = {
      {"h100", "h100-sxm-fp16"}, {"a100", "a100-sxm-80gb"}, {"t4", "t4"}};
  for (const auto& [ours, a01s] : same_gpu)
    EXPECT_DOUBLE_EQ(rooflab::roofline::find_cuda_core_gpu(ours).bytes_per_s,
                     a01_roofline::find_gpu(a01s).bandwidth_bytes_per_s)
        << ours;
  EXPECT_EQ(rooflab::roofline::cuda_core_gpus().front().id, "h100");  // the default
}

TEST(KernelRoofline, TheBoundIsTheLargerOfComputeAndMemoryTime) {
  const auto& h100 = rooflab::roofline::find_cuda_core_gpu("h100");
  const auto copy = rooflab::roofline::estimate(0, 3.35e9, h100);  // 3.35 GB, no FLOPs: 1 ms of DRAM
  EXPECT_NEAR(copy.bound_s, 1e-3, 1e-12);
  EXPECT_TRUE(copy.memory_bound);
  const auto dense = rooflab::roofline::estimate(66.9e12, 1.0, h100);  // a second of FLOPs, one byte
  EXPECT_NEAR(dense.bound_s, 1.0, 1e-9);
  EXPECT_FALSE(dense.memory_bound);
  EXPECT_DOUBLE_EQ(dense.attainable_flops_per_s, 66.9e12);
  EXPECT_THROW(rooflab::roofline::find_cuda_core_gpu("v100"), std::invalid_argument);
}

}  // namespace
