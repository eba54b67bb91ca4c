// Hidden tests: every CUDA attention on shapes drawn from the grader's seed
// (ragged lengths, head dims that fill no warp, more queries than keys,
// decoding's single query), against the fp64 reference. Without a GPU the
// kernels run in the CPU runtime, which also checks each launch for races and
// for barriers not every thread reaches.
#include <random>

#include "a05_cuda_attention/a05_cuda_attention.hpp"
#include "rooflab/attention_reference.hpp"
#include "rooflab/attention_testing.hpp"
#include "rooflab/backend.hpp"
#include "rooflab/testing.hpp"

namespace a05_cuda_attention {
namespace {

using rooflab::testing::kFp16;
using rooflab::testing::kFp32;
using rooflab::testing::pick;

class CudaHidden : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (GetParam() == "tensor_core" && rooflab::gpu_count() == 0)
      GTEST_SKIP() << "tensor_core skipped: it needs a GPU (the CPU runtime does not model tensor cores)";
  }
  AttentionResult run(const Tensor4& q, const Tensor4& k, const Tensor4& v, bool causal) const {
    if (GetParam() == "standard") return standard_attention_cuda(q, k, v, causal);
    if (GetParam() == "flash") return flash_attention_cuda(q, k, v, causal);
    return flash_attention_tensor_core(q, k, v, causal);
  }
  // A head dimension in [1, most] this kernel takes: 64 or 128 for tensor cores.
  std::int64_t head_dim(std::mt19937_64& engine, std::int64_t most) const {
    if (GetParam() == "tensor_core") return pick(engine, 0, 1) == 0 ? 64 : 128;
    return pick(engine, 1, most);
  }
  void expect_matches_reference(const Tensor4& q, const Tensor4& k, const Tensor4& v, bool causal) const {
    const AttentionResult result = run(q, k, v, causal);
    const rooflab::reference::Mask mask =
        causal ? rooflab::reference::causal_bottom_right(q.rows(), k.rows()) : rooflab::reference::Mask{};
    const bool fp16 = GetParam() == "tensor_core";
    using rooflab::testing::rounded_to_fp16;
    EXPECT_TRUE(fp16 ? rooflab::testing::MatchesAttentionReference(result.output, &result.lse, rounded_to_fp16(q),
                                                                   rounded_to_fp16(k), rounded_to_fp16(v), mask, kFp16)
                     : rooflab::testing::MatchesAttentionReference(result.output, &result.lse, q, k, v, mask, kFp32))
        << GetParam() << " B=" << q.batch() << " H=" << q.heads() << " N=" << q.rows() << " M=" << k.rows()
        << " d=" << q.cols() << " d_v=" << v.cols() << (causal ? " causal" : "");
  }
};

TEST_P(CudaHidden, RandomShapes) {
  std::mt19937_64 engine(rooflab::testing::seed() ^ 0xa05ull);
  for (int trial = 0; trial < 8; ++trial) {
    const bool causal = trial % 2 == 1;
    const std::int64_t b = pick(engine, 1, 2), h = pick(engine, 1, 3), n = pick(engine, 1, 90);
    const std::int64_t m = pick(engine, 1, 90), d = head_dim(engine, 40);
    const std::int64_t dv = GetParam() == "tensor_core" ? d : pick(engine, 1, 40);
    const std::uint64_t seed = engine();
    expect_matches_reference(rooflab::random_normal(b, h, n, d, seed), rooflab::random_normal(b, h, m, d, seed + 1),
                             rooflab::random_normal(b, h, m, dv, seed + 2), causal);
  }
}

TEST_P(CudaHidden, WideHeadsAndLongerKeys) {
  // The flash kernels' widest rows (d up to 128) and key counts past a few tiles.
  std::mt19937_64 engine(rooflab::testing::seed() ^ 0x51deull);
  for (int trial = 0; trial < 3; ++trial) {
    const std::int64_t n = pick(engine, 20, 70), m = pick(engine, 100, 260);
    const std::int64_t d = GetParam() == "standard" ? pick(engine, 60, 80) : head_dim(engine, kMaxHeadDim);
    const std::uint64_t seed = engine();
    expect_matches_reference(rooflab::random_normal(1, 1, n, d, seed), rooflab::random_normal(1, 1, m, d, seed + 1),
                             rooflab::random_normal(1, 1, m, d, seed + 2), trial == 1);
  }
}

TEST_P(CudaHidden, DecodingAndRowsThatSeeNoKey) {
  std::mt19937_64 engine(rooflab::testing::seed() ^ 0xdec0ull);
  const std::int64_t d = head_dim(engine, 32);
  // One query against a cache of keys (causal: it sees them all).
  const std::int64_t m = pick(engine, 100, 400);
  const std::uint64_t seed = engine();
  expect_matches_reference(rooflab::random_normal(2, 2, 1, d, seed), rooflab::random_normal(2, 2, m, d, seed + 1),
                           rooflab::random_normal(2, 2, m, d, seed + 2), true);
  // More queries than keys, causal: the first N − M rows see nothing.
  const std::int64_t keys = pick(engine, 1, 20), queries = keys + pick(engine, 1, 40);
  const Tensor4 q = rooflab::random_normal(1, 2, queries, d, seed + 3);
  const AttentionResult result =
      run(q, rooflab::random_normal(1, 2, keys, d, seed + 4), rooflab::random_normal(1, 2, keys, d, seed + 5), true);
  for (std::int64_t bh = 0; bh < 2; ++bh)
    for (std::int64_t i = 0; i < queries - keys; ++i)
      EXPECT_EQ(result.lse[static_cast<std::size_t>(bh * queries + i)], -INFINITY) << "row " << i;
  expect_matches_reference(q, rooflab::random_normal(1, 2, keys, d, seed + 4),
                           rooflab::random_normal(1, 2, keys, d, seed + 5), true);
}

TEST_P(CudaHidden, LargeLogits) {
  // Whole numbers with d = 64: every score exact in fp32, in the thousands.
  const std::uint64_t seed = rooflab::testing::seed();
  const Tensor4 q = rooflab::random_whole_numbers(1, 2, 50, 64, seed, 20.0f),
                k = rooflab::random_whole_numbers(1, 2, 70, 64, seed + 1, 20.0f),
                v = rooflab::random_normal(1, 2, 70, 64, seed + 2);
  const AttentionResult result = run(q, k, v, false);
  const bool fp16 = GetParam() == "tensor_core";
  EXPECT_TRUE(rooflab::testing::MatchesAttentionReference(result.output, &result.lse, q, k,
                                                          fp16 ? rooflab::testing::rounded_to_fp16(v) : v, {},
                                                          fp16 ? kFp16 : rooflab::testing::Tolerance{1e-4, 1e-4}));
}

INSTANTIATE_TEST_SUITE_P(Kernels, CudaHidden, ::testing::Values("standard", "flash", "tensor_core"),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace
}  // namespace a05_cuda_attention
