// The ladder's mma.sync rung (literate/ladder/flash_mma_sync.cu) in the CPU
// runtime: attention within 16-bit rounding of the fp64 reference for fp16
// and bf16 inputs, both head dimensions, with and without the causal mask, at
// lengths that are not tile multiples (N > M leaves rows that see no key);
// and the structure its comments claim, counted: no bank conflicts (the
// swizzle), every product on tensor cores, device memory within the graded
// 1.5× of the tensors, and the causal tiles past the diagonal skipped.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <ostream>
#include <string>
#include <tuple>

#include "ladder/ladder.hpp"
#include "rooflab/attention_reference.hpp"
#include "rooflab/cuda_cpu_half.hpp"
#include "rooflab/worker_report.hpp"

namespace a05_cuda_attention::ladder {
namespace {

enum class Precision { fp16, bf16 };
void PrintTo(Precision precision, std::ostream* out) { *out << (precision == Precision::fp16 ? "fp16" : "bf16"); }

AttentionResult run(Precision precision, const Tensor4& q, const Tensor4& k, const Tensor4& v, bool causal) {
  return precision == Precision::fp16 ? flash_attention_mma_sync(q, k, v, causal)
                                      : flash_attention_mma_sync_bf16(q, k, v, causal);
}

// The inputs as the kernel sees them: each value rounded to the 16-bit type.
Tensor4 rounded(Tensor4 t, Precision precision) {
  for (float& x : t.data)
    x = precision == Precision::fp16 ? __half2float(__float2half(x)) : __bfloat162float(__float2bfloat16(x));
  return t;
}

using Shape = std::tuple<Precision, int, bool, int, int>;  // precision, d, causal, N, M

class MmaSyncRung : public ::testing::TestWithParam<Shape> {};

TEST_P(MmaSyncRung, MatchesTheReferenceWithinSixteenBitRounding) {
  const auto [precision, d, causal, n, m] = GetParam();
  const Tensor4 q = rooflab::random_normal(1, 2, n, d, 11), k = rooflab::random_normal(1, 2, m, d, 12),
                v = rooflab::random_normal(1, 2, m, d, 13);
  const AttentionResult result = run(precision, q, k, v, causal);
  const rooflab::reference::Attention expected = rooflab::reference::attention(
      rounded(q, precision), rounded(k, precision), rounded(v, precision),
      causal ? rooflab::reference::causal_bottom_right(n, m) : rooflab::reference::Mask{});
  // Products are exact and sums fp32; what is rounded is P, to 11 (fp16) or
  // 8 (bf16) bits, before P·V.
  const double tolerance = precision == Precision::fp16 ? 4e-3 : 3e-2;
  ASSERT_EQ(result.output.data.size(), expected.output.size());
  for (std::size_t i = 0; i < expected.output.size(); ++i)
    ASSERT_NEAR(result.output.data[i], expected.output[i], tolerance) << "output " << i;
  ASSERT_EQ(result.lse.size(), expected.lse.size());
  for (std::size_t i = 0; i < expected.lse.size(); ++i) {
    if (std::isinf(expected.lse[i])) {
      EXPECT_TRUE(std::isinf(result.lse[i]) && result.lse[i] < 0) << "row " << i << " sees no key: lse −∞";
      continue;
    }
    ASSERT_NEAR(result.lse[i], expected.lse[i], 1e-4) << "lse " << i;
  }
}

std::string shape_name(const ::testing::TestParamInfo<Shape>& info) {
  const auto [precision, d, causal, n, m] = info.param;
  return std::string(precision == Precision::fp16 ? "fp16" : "bf16") + "_d" + std::to_string(d) +
         (causal ? "_causal" : "") + "_N" + std::to_string(n) + "_M" + std::to_string(m);
}
INSTANTIATE_TEST_SUITE_P(
    Shapes, MmaSyncRung,
    ::testing::Values(Shape{Precision::fp16, 64, false, 100, 100}, Shape{Precision::fp16, 64, true, 130, 70},
                      Shape{Precision::fp16, 128, true, 64, 200}, Shape{Precision::fp16, 128, false, 70, 130},
                      Shape{Precision::bf16, 64, true, 100, 100}, Shape{Precision::bf16, 128, false, 130, 70}),
    shape_name);

struct Counted {
  std::uint64_t bank_conflicts = 0, shared_requests = 0, tensor_core_flops = 0, dram_bytes = 0;
};
Counted count(int n, int d, bool causal) {
  const Tensor4 q = rooflab::random_normal(1, 2, n, d, 21), k = rooflab::random_normal(1, 2, n, d, 22),
                v = rooflab::random_normal(1, 2, n, d, 23);
  rooflab::testing::take_worker_report();
  flash_attention_mma_sync(q, k, v, causal);
  const rooflab::testing::WorkerReport report = rooflab::testing::take_worker_report();
  EXPECT_TRUE(report.kernels_recorded);
  Counted counted;
  for (const auto& launch : report.launches) {
    EXPECT_EQ(launch.kernel, "flash_forward_mma_sync");
    counted.bank_conflicts += launch.shared_bank_conflicts;
    counted.shared_requests += launch.shared_load_requests + launch.shared_store_requests;
    counted.tensor_core_flops += launch.tensor_core_flops;
    counted.dram_bytes += launch.dram_read_bytes + launch.dram_write_bytes;
  }
  return counted;
}

TEST(MmaSyncRungCounters, SwizzledTilesHaveNoBankConflictsAndTheProductsRunOnTensorCores) {
  for (const int d : {64, 128}) {
    const int n = 128, heads = 2;
    const Counted counted = count(n, d, false);
    EXPECT_GT(counted.shared_requests, 0u);
    EXPECT_EQ(counted.bank_conflicts, 0u) << "d = " << d << ": " << counted.shared_requests << " requests";
    // Q Kᵀ and P V: 2 · 2·N·N·d per head, all of it mma.sync.
    EXPECT_EQ(counted.tensor_core_flops, 4ull * heads * n * n * d) << "d = " << d;
    // Q, K, V in 16 bits, O and the log-sum-exp in fp32.
    const double tensors = heads * (3.0 * n * d * 2 + n * d * 4.0 + n * 4.0);
    EXPECT_LE(static_cast<double>(counted.dram_bytes), kMaxDramOverTensors * tensors) << "d = " << d;
  }
}

TEST(MmaSyncRungCounters, CausalTilesPastTheDiagonalAreNeverMultiplied) {
  // N = 256: 4 row tiles of 64, which see 1, 2, 3 and 4 key tiles of 64:
  // 10 of 16 tile pairs, at 2 · 2·64·64·d FLOPs each, per head.
  const int n = 256, d = 64, heads = 2;
  const Counted counted = count(n, d, true);
  EXPECT_EQ(counted.tensor_core_flops, 10ull * heads * 4 * 64 * 64 * d);
}

}  // namespace
}  // namespace a05_cuda_attention::ladder
