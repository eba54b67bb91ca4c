// The kernel roofline's GPUs (rooflab/kernel_roofline.hpp) have the dense
// fp16 tensor-core peaks and the DRAM bandwidths of a01's catalog, so that
// chapters 2 and 6 agree; and the estimate is the roofline: max of the
// CUDA-core, the tensor-core and the memory time.
#include <gtest/gtest.h>

#include "a01_roofline/gpu_catalog.hpp"
#include "rooflab/kernel_roofline.hpp"

namespace {

TEST(KernelRoofline, PeaksAndBandwidthsAreThoseOfA01sCatalog) {
  // Every GPU of the estimate that a01 lists (a01 has no RTX 4090).
  const std::pair<const char*, const char*> same_gpu[] = {
      {"h100", "h100-sxm-fp16"}, {"a100", "a100-sxm-80gb"}, {"t4", "t4"}};
  for (const auto& [ours, a01s] : same_gpu) {
    const auto& gpu = rooflab::roofline::find_cuda_core_gpu(ours);
    const a01_roofline::GpuSpec& spec = a01_roofline::find_gpu(a01s);
    EXPECT_DOUBLE_EQ(gpu.bytes_per_s, spec.bandwidth_bytes_per_s) << ours;
    EXPECT_EQ(spec.precision, "fp16") << a01s;
    EXPECT_DOUBLE_EQ(gpu.tensor_flops_per_s, spec.peak_flops_per_s) << ours;
  }
  EXPECT_EQ(rooflab::roofline::cuda_core_gpus().front().id, "h100");  // the default
  // The datasheets' figures, in case both catalogs drift together.
  EXPECT_DOUBLE_EQ(rooflab::roofline::find_cuda_core_gpu("h100").tensor_flops_per_s, 989.4e12);
  EXPECT_DOUBLE_EQ(rooflab::roofline::find_cuda_core_gpu("a100").tensor_flops_per_s, 312e12);
  EXPECT_DOUBLE_EQ(rooflab::roofline::find_cuda_core_gpu("t4").tensor_flops_per_s, 65e12);
  EXPECT_DOUBLE_EQ(rooflab::roofline::find_cuda_core_gpu("rtx4090").tensor_flops_per_s, 165.2e12);
  for (const auto& gpu : rooflab::roofline::cuda_core_gpus())
    EXPECT_GT(gpu.tensor_flops_per_s, gpu.fp32_flops_per_s) << gpu.id;
}

TEST(KernelRoofline, TheBoundIsTheLargerOfComputeAndMemoryTime) {
  const auto& h100 = rooflab::roofline::find_cuda_core_gpu("h100");
  const auto copy = rooflab::roofline::estimate(0, 3.35e9, h100);  // 3.35 GB, no FLOPs: 1 ms of DRAM
  EXPECT_NEAR(copy.bound_s, 1e-3, 1e-12);
  EXPECT_TRUE(copy.memory_bound);
  const auto dense = rooflab::roofline::estimate(66.9e12, 1.0, h100);  // a second of FLOPs, one byte
  EXPECT_NEAR(dense.bound_s, 1.0, 1e-9);
  EXPECT_FALSE(dense.memory_bound);
  EXPECT_FALSE(dense.tensor_core_bound);
  EXPECT_DOUBLE_EQ(dense.attainable_flops_per_s, 66.9e12);
  EXPECT_THROW(rooflab::roofline::find_cuda_core_gpu("v100"), std::invalid_argument);
}

TEST(KernelRoofline, TensorCoreFlopsAreBoundedByTheTensorPeakConcurrentlyWithTheCudaCores) {
  const auto& h100 = rooflab::roofline::find_cuda_core_gpu("h100");
  // 989.4e12 tensor-core FLOPs take a second on an H100's tensor cores, 14.8 s
  // had they run on its CUDA cores.
  const auto tensor = rooflab::roofline::estimate(0, 1.0, h100, 989.4e12);
  EXPECT_NEAR(tensor.tensor_core_s, 1.0, 1e-12);
  EXPECT_DOUBLE_EQ(tensor.cuda_core_s, 0.0);
  EXPECT_NEAR(tensor.bound_s, 1.0, 1e-12);
  EXPECT_TRUE(tensor.tensor_core_bound);
  EXPECT_FALSE(tensor.memory_bound);
  EXPECT_NEAR(tensor.attainable_flops_per_s, 989.4e12, 1e3);
  EXPECT_NEAR(tensor.intensity, 989.4e12, 1e3);  // per byte: the one byte
  EXPECT_NEAR(rooflab::roofline::estimate(989.4e12, 1.0, h100).bound_s, 989.4 / 66.9, 1e-9);

  // Half a second on each unit: they run concurrently, so the bound is the
  // larger (0.5 s), not the sum; every FLOP counts in the intensity and in
  // the attainable rate (66.9e12 / 2 + 989.4e12 / 2 FLOPs in 0.5 s).
  const auto both = rooflab::roofline::estimate(66.9e12 / 2, 1e6, h100, 989.4e12 / 2);
  EXPECT_NEAR(both.cuda_core_s, 0.5, 1e-12);
  EXPECT_NEAR(both.tensor_core_s, 0.5, 1e-12);
  EXPECT_NEAR(both.compute_s, 0.5, 1e-12);
  EXPECT_NEAR(both.bound_s, 0.5, 1e-12);
  EXPECT_NEAR(both.intensity, (66.9e12 + 989.4e12) / 2 / 1e6, 1e-3);
  EXPECT_NEAR(both.attainable_flops_per_s, 66.9e12 + 989.4e12, 1e3);

  // A tensor-core kernel that moves 3.35 TB: memory's second, whatever its
  // FLOPs (1e14 of them: 0.1 s of tensor cores).
  const auto memory = rooflab::roofline::estimate(0, 3.35e12, h100, 1e14);
  EXPECT_NEAR(memory.bound_s, 1.0, 1e-12);
  EXPECT_TRUE(memory.memory_bound);
  EXPECT_FALSE(memory.tensor_core_bound);
  EXPECT_NEAR(memory.attainable_flops_per_s, 1e14, 1e3);  // intensity × bandwidth

  // On a T4 the tensor peak is 65 TFLOP/s: 6.5e12 tensor FLOPs take 0.1 s.
  EXPECT_NEAR(rooflab::roofline::estimate(0, 1.0, rooflab::roofline::find_cuda_core_gpu("t4"), 6.5e12).bound_s, 0.1,
              1e-12);
}

}  // namespace
