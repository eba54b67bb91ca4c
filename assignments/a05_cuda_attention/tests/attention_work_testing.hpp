// That a05's attention is its kernels' work, not the host's: shared by the
// public and the hidden tests. Where the kernels run in the CPU runtime, which
// records who wrote every byte of device memory (rooflab/kernel_work.hpp), the
// output and the log-sum-exp must have come back from the device as the
// kernels wrote them, and each kernel must have read its inputs: Q and K for
// the scores, the scores for the softmax, the probabilities and V for the
// weighted sum; Q, K and V for the flash kernels, the tensor-core kernels in
// fp16 (or bf16) and on their tensor cores. On a GPU nothing records this, and
// the checks pass.
#pragma once

#include <string>
#include <vector>

#include "a05_cuda_attention/a05_cuda_attention.hpp"
#include "rooflab/kernel_work.hpp"
#include "rooflab/worker_report.hpp"

namespace a05_cuda_attention {

inline void expect_the_kernels_did_the_work(const rooflab::testing::WorkerReport& report, const std::string& kernel,
                                            const Tensor4& q, const Tensor4& k, const Tensor4& v,
                                            const AttentionResult& result) {
  using rooflab::testing::CameOffTheDevice;
  using rooflab::testing::KernelRead;
  using rooflab::testing::KernelReadTheOutputOf;
  if (kernel == "standard") {
    const std::vector<std::string> kernels{"attention_scores", "softmax_rows", "weighted_values"};
    EXPECT_TRUE(CameOffTheDevice(report, result.output.data, kernels, "the output"));
    EXPECT_TRUE(CameOffTheDevice(report, result.lse, kernels, "the log-sum-exp"));
    EXPECT_TRUE(KernelRead(report, "attention_scores", q.data, "Q"));
    EXPECT_TRUE(KernelRead(report, "attention_scores", k.data, "K"));
    EXPECT_TRUE(KernelReadTheOutputOf(report, "softmax_rows", "attention_scores"));
    EXPECT_TRUE(KernelReadTheOutputOf(report, "weighted_values", "softmax_rows"));
    EXPECT_TRUE(KernelRead(report, "weighted_values", v.data, "V"));
  } else if (kernel == "flash") {
    EXPECT_TRUE(CameOffTheDevice(report, result.output.data, {"flash_forward"}, "the output"));
    EXPECT_TRUE(CameOffTheDevice(report, result.lse, {"flash_forward"}, "the log-sum-exp"));
    for (const auto& [input, name] : {std::pair{&q, "Q"}, std::pair{&k, "K"}, std::pair{&v, "V"}})
      EXPECT_TRUE(KernelRead(report, "flash_forward", input->data, name));
  } else if (kernel == "tensor_core") {
    const std::string flash = "flash_forward_tensor_core";
    EXPECT_TRUE(CameOffTheDevice(report, result.output.data, {flash}, "the output"));
    EXPECT_TRUE(CameOffTheDevice(report, result.lse, {flash}, "the log-sum-exp"));
    for (const auto& [input, name] : {std::pair{&q, "Q"}, std::pair{&k, "K"}, std::pair{&v, "V"}})
      EXPECT_TRUE(rooflab::testing::KernelReadFp16(report, flash, input->data, name));
    EXPECT_TRUE(rooflab::testing::RanOnTensorCores(report, flash));
  } else if (kernel == "mma_sync" || kernel == "mma_sync_bf16") {
    const std::string flash = "flash_forward_mma_sync";
    EXPECT_TRUE(CameOffTheDevice(report, result.output.data, {flash}, "the output"));
    EXPECT_TRUE(CameOffTheDevice(report, result.lse, {flash}, "the log-sum-exp"));
    for (const auto& [input, name] : {std::pair{&q, "Q"}, std::pair{&k, "K"}, std::pair{&v, "V"}})
      EXPECT_TRUE(rooflab::testing::KernelRead16Bits(report, flash, input->data, name, kernel == "mma_sync_bf16"));
    EXPECT_TRUE(rooflab::testing::RanOnTensorCores(report, flash));
  }
}

// What a tensor-core result that is wrong may mean.
inline constexpr const char* kFragmentLayoutHint =
    " (if your kernel reads or writes frag.x[i] as if it knew which matrix element it holds: a WMMA fragment's "
    "element layout is unspecified, and the CPU runtime draws one per launch)";

}  // namespace a05_cuda_attention
