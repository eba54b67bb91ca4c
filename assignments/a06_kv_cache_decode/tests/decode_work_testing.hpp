// That decode_attention_cuda's attention is its kernels' work, not the
// host's: shared by the public and the hidden tests. Where the kernels run in
// the CPU runtime, which records who wrote every byte of device memory
// (rooflab/kernel_work.hpp), the output and the log-sum-exp must have come back
// from the device as merge_splits (or split_kv) wrote them, split_kv must
// have read the queries and the cached keys and values, and merge_splits
// split_kv's partial results. On a GPU nothing records this, and the checks
// pass.
#pragma once

#include <vector>

#include "a06_kv_cache_decode/a06_kv_cache_decode.hpp"
#include "rooflab/kernel_work.hpp"
#include "rooflab/worker_report.hpp"

namespace a06_kv_cache_decode {

// `keys` and `values`: every cached token's, of every sequence (empty when
// every sequence is).
inline void expect_the_kernels_did_the_work(const rooflab::testing::WorkerReport& report, const Tensor4& q,
                                            const std::vector<float>& keys, const std::vector<float>& values,
                                            const DecodeResult& result) {
  using rooflab::testing::CameOffTheDevice;
  using rooflab::testing::KernelRead;
  const std::vector<std::string> kernels{"split_kv", "merge_splits"};
  EXPECT_TRUE(CameOffTheDevice(report, result.output.data, kernels, "the output"));
  EXPECT_TRUE(CameOffTheDevice(report, result.lse, kernels, "the log-sum-exp"));
  EXPECT_TRUE(KernelRead(report, "split_kv", q.data, "the queries"));
  EXPECT_TRUE(KernelRead(report, "split_kv", keys, "the cached keys"));
  EXPECT_TRUE(KernelRead(report, "split_kv", values, "the cached values"));
  EXPECT_TRUE(rooflab::testing::KernelReadTheOutputOf(report, "merge_splits", "split_kv"));
}

}  // namespace a06_kv_cache_decode
