// Hidden tests: every CUDA attention on shapes drawn from the grader's seed
// (ragged lengths, head dims that fill no warp, more queries than keys,
// decoding's single query), against the fp64 reference. Without a GPU the
// kernels run in the CPU runtime, which also checks each launch for races and
// for barriers not every thread reaches.
#include <optional>
#include <random>
#include <sstream>

#include "../../tests/attention_work_testing.hpp"
#include "a05_cuda_attention/a05_cuda_attention.hpp"
#include "rooflab/attention_reference.hpp"
#include "rooflab/attention_testing.hpp"
#include "rooflab/cuda_limits.hpp"
#include "rooflab/testing.hpp"
#include "rooflab/worker_report.hpp"

namespace a05_cuda_attention {
namespace {

using rooflab::testing::kFp16;
using rooflab::testing::kFp32;
using rooflab::testing::pick;

class CudaHidden : public ::testing::TestWithParam<std::string> {
 protected:
  // The tensor-core kernels, which take d = d_v = 64 or 128 and multiply
  // inputs rounded to 16 bits (bf16 for mma_sync_bf16, else fp16).
  bool tensor_cores() const { return GetParam() != "standard" && GetParam() != "flash"; }
  bool bfloat16() const { return GetParam() == "mma_sync_bf16"; }
  Tensor4 rounded(const Tensor4& t) const {
    return bfloat16() ? rooflab::testing::rounded_to_bf16(t) : rooflab::testing::rounded_to_fp16(t);
  }
  rooflab::testing::Tolerance sixteen_bits() const { return bfloat16() ? rooflab::testing::kBf16 : kFp16; }
  AttentionResult launch(const Tensor4& q, const Tensor4& k, const Tensor4& v, bool causal) const {
    if (GetParam() == "standard") return standard_attention_cuda(q, k, v, causal);
    if (GetParam() == "flash") return flash_attention_cuda(q, k, v, causal);
    if (GetParam() == "mma_sync") return flash_attention_mma_sync(q, k, v, causal);
    if (GetParam() == "mma_sync_bf16") return flash_attention_mma_sync_bf16(q, k, v, causal);
    return flash_attention_tensor_core(q, k, v, causal);
  }
  // The result, or nothing when the call failed (one failure, naming the shape).
  std::optional<AttentionResult> run(const Tensor4& q, const Tensor4& k, const Tensor4& v, bool causal) const {
    rooflab::testing::take_worker_report();  // forget what ran before
    std::ostringstream call;
    call << GetParam() << " attention, B=" << q.batch() << " H=" << q.heads() << " N=" << q.rows() << " M=" << k.rows()
         << " d=" << q.cols() << " d_v=" << v.cols() << (causal ? " causal" : "");
    const std::optional<AttentionResult> result = ROOFLAB_CALL_OR_FAIL(call.str(), launch(q, k, v, causal));
    if (!result) return result;
    const rooflab::testing::WorkerReport report = rooflab::testing::take_worker_report();
    expect_the_kernels(report);
    expect_the_kernels_did_the_work(report, GetParam(), q, k, v, *result);
    return result;
  }
  // The work happens in the assignment's kernels, one launch each (where the
  // CPU runtime records launches; on a GPU nothing does), whatever their
  // template arguments (the runtime records a kernel by its name alone).
  void expect_the_kernels(const rooflab::testing::WorkerReport& report) const {
    if (!report.kernels_recorded) return;
    const std::vector<std::string> expected =
        GetParam() == "standard"      ? std::vector<std::string>{"attention_scores", "softmax_rows", "weighted_values"}
        : GetParam() == "flash"       ? std::vector<std::string>{"flash_forward"}
        : GetParam() == "tensor_core" ? std::vector<std::string>{"flash_forward_tensor_core"}
                                      : std::vector<std::string>{"flash_forward_mma_sync"};
    EXPECT_EQ(rooflab::testing::kernel_names(report), expected)
        << GetParam() << " attention computes in its kernels, launched once each in this order";
  }
  // A head dimension in [1, most] this kernel takes: 64 or 128 for tensor cores.
  std::int64_t head_dim(std::mt19937_64& engine, std::int64_t most) const {
    if (tensor_cores()) return pick(engine, 0, 1) == 0 ? 64 : 128;
    return pick(engine, 1, most);
  }
  // False when the call failed: a test of several shapes stops there, with
  // one failure, rather than repeat it for every shape.
  bool expect_matches_reference(const Tensor4& q, const Tensor4& k, const Tensor4& v, bool causal) const {
    const std::optional<AttentionResult> ran = run(q, k, v, causal);
    if (!ran) return false;
    const AttentionResult& result = *ran;
    const rooflab::reference::Mask mask =
        causal ? rooflab::reference::causal_bottom_right(q.rows(), k.rows()) : rooflab::reference::Mask{};
    EXPECT_TRUE(tensor_cores()
                    ? rooflab::testing::MatchesAttentionReference(result.output, &result.lse, rounded(q), rounded(k),
                                                                  rounded(v), mask, sixteen_bits())
                    : rooflab::testing::MatchesAttentionReference(result.output, &result.lse, q, k, v, mask, kFp32))
        << GetParam() << " B=" << q.batch() << " H=" << q.heads() << " N=" << q.rows() << " M=" << k.rows()
        << " d=" << q.cols() << " d_v=" << v.cols() << (causal ? " causal" : "")
        << (GetParam() == "tensor_core" ? kFragmentLayoutHint : "");
    return true;
  }
};

TEST_P(CudaHidden, RandomShapes) {
  std::mt19937_64 engine(rooflab::testing::seed() ^ 0xa05ull);
  for (int trial = 0; trial < 8; ++trial) {
    const bool causal = trial % 2 == 1;
    const std::int64_t b = pick(engine, 1, 2), h = pick(engine, 1, 3), n = pick(engine, 1, 90);
    const std::int64_t m = pick(engine, 1, 90), d = head_dim(engine, 40);
    const std::int64_t dv = tensor_cores() ? d : pick(engine, 1, 40);
    const std::uint64_t seed = engine();
    if (!expect_matches_reference(rooflab::random_normal(b, h, n, d, seed),
                                  rooflab::random_normal(b, h, m, d, seed + 1),
                                  rooflab::random_normal(b, h, m, dv, seed + 2), causal))
      return;
  }
}

TEST_P(CudaHidden, WideHeadsAndLongerKeys) {
  // The flash kernels' widest rows (d up to 128) and key counts past a few tiles.
  std::mt19937_64 engine(rooflab::testing::seed() ^ 0x51deull);
  for (int trial = 0; trial < 3; ++trial) {
    const std::int64_t n = pick(engine, 20, 70), m = pick(engine, 100, 260);
    const std::int64_t d = GetParam() == "standard" ? pick(engine, 60, 80) : head_dim(engine, kMaxHeadDim);
    const std::uint64_t seed = engine();
    if (!expect_matches_reference(rooflab::random_normal(1, 1, n, d, seed),
                                  rooflab::random_normal(1, 1, m, d, seed + 1),
                                  rooflab::random_normal(1, 1, m, d, seed + 2), trial == 1))
      return;
  }
}

TEST_P(CudaHidden, DecodingAndRowsThatSeeNoKey) {
  std::mt19937_64 engine(rooflab::testing::seed() ^ 0xdec0ull);
  const std::int64_t d = head_dim(engine, 32);
  // One query against a cache of keys (causal: it sees them all).
  const std::int64_t m = pick(engine, 100, 400);
  const std::uint64_t seed = engine();
  if (!expect_matches_reference(rooflab::random_normal(2, 2, 1, d, seed), rooflab::random_normal(2, 2, m, d, seed + 1),
                                rooflab::random_normal(2, 2, m, d, seed + 2), true))
    return;
  // More queries than keys, causal: the first N − M rows see nothing.
  const std::int64_t keys = pick(engine, 1, 20), queries = keys + pick(engine, 1, 40);
  const Tensor4 q = rooflab::random_normal(1, 2, queries, d, seed + 3);
  const std::optional<AttentionResult> result =
      run(q, rooflab::random_normal(1, 2, keys, d, seed + 4), rooflab::random_normal(1, 2, keys, d, seed + 5), true);
  if (!result) return;
  EXPECT_TRUE(rooflab::testing::RowsSeeNoKey(result->output, result->lse, queries - keys));
  expect_matches_reference(q, rooflab::random_normal(1, 2, keys, d, seed + 4),
                           rooflab::random_normal(1, 2, keys, d, seed + 5), true);
}

TEST_P(CudaHidden, LargeLogits) {
  // Whole numbers with d = 64: every score exact in fp32, in the thousands.
  const std::uint64_t seed = rooflab::testing::seed();
  const Tensor4 q = rooflab::random_whole_numbers(1, 2, 50, 64, seed, 20.0f),
                k = rooflab::random_whole_numbers(1, 2, 70, 64, seed + 1, 20.0f),
                v = rooflab::random_normal(1, 2, 70, 64, seed + 2);
  const std::optional<AttentionResult> result = run(q, k, v, false);
  if (!result) return;
  EXPECT_TRUE(rooflab::testing::MatchesAttentionReference(
      result->output, &result->lse, q, k, tensor_cores() ? rounded(v) : v, {},
      tensor_cores() ? sixteen_bits() : rooflab::testing::Tolerance{1e-4, 1e-4}));
}

// A flash kernel's memory traffic, as the CPU runtime counts it (Nsight
// Compute's definitions, docs/06_cuda_attention.md): it reads Q, K and V and
// writes O and the log-sum-exp, touching little else in device memory, and
// its shared-memory requests rarely conflict. The limits are the verdict's own
// numbers: the bytes of the five tensors (Q, K and V in fp16 for the
// tensor-core kernel), and a conflict rate the reference kernels stay far
// below.
void expect_memory_efficiency(const std::string& kernel, std::uint64_t seed_mix) {
  const bool tensor_cores = kernel != "flash_forward";
  std::mt19937_64 engine(rooflab::testing::seed() ^ seed_mix);
  const std::int64_t b = 1, h = 2, n = pick(engine, 96, 200), m = pick(engine, 96, 200);
  const std::int64_t d = tensor_cores ? 64 : pick(engine, 0, 1) == 0 ? 32 : 64, dv = d;
  const std::uint64_t seed = engine();
  rooflab::testing::take_worker_report();
  const bool causal = pick(engine, 0, 1) == 1;
  const Tensor4 q = rooflab::random_normal(b, h, n, d, seed), k = rooflab::random_normal(b, h, m, d, seed + 1),
                v = rooflab::random_normal(b, h, m, dv, seed + 2);
  const std::optional<AttentionResult> result = ROOFLAB_CALL_OR_FAIL(
      kernel, kernel == "flash_forward_mma_sync"      ? flash_attention_mma_sync(q, k, v, causal)
              : kernel == "flash_forward_tensor_core" ? flash_attention_tensor_core(q, k, v, causal)
                                                      : flash_attention_cuda(q, k, v, causal));
  if (!result) return;
  const rooflab::testing::WorkerReport report = rooflab::testing::take_worker_report();
  if (!report.kernels_recorded) GTEST_SKIP() << "the kernels ran on a GPU: the CPU runtime's counters are not there";
  ASSERT_EQ(result->lse.size(), static_cast<std::size_t>(b * h * n));
  // Each tensor's bytes in whole 32-byte sectors (cudaMalloc aligns every buffer).
  const auto sectors = [](std::int64_t values, std::uint64_t bytes) {
    return (static_cast<std::uint64_t>(values) * bytes + 31) / 32 * 32;
  };
  const std::uint64_t input_bytes = tensor_cores ? 2 : 4;
  const std::uint64_t tensors = sectors(b * h * n * d, input_bytes) + sectors(b * h * m * d, input_bytes) +
                                sectors(b * h * m * dv, input_bytes) + sectors(b * h * n * dv, 4) +
                                sectors(b * h * n, 4);
  std::uint64_t dram = 0, conflicts = 0, shared_requests = 0;
  for (const auto& launch : report.launches) {
    dram += launch.dram_read_bytes + launch.dram_write_bytes;
    conflicts += launch.shared_bank_conflicts;
    shared_requests += launch.shared_load_requests + launch.shared_store_requests;
  }
  EXPECT_LE(static_cast<double>(dram), kMaxDramOverTensors * static_cast<double>(tensors))
      << kernel << " touched " << dram << " bytes of device memory; Q, K, V, O and the log-sum-exp are " << tensors
      << " (N=" << n << " M=" << m << " d=" << d << "): scores or other N×M intermediates belong in "
      << "registers or shared memory, never in device memory";
  const double rate = shared_requests ? static_cast<double>(conflicts) / static_cast<double>(shared_requests) : 0.0;
  EXPECT_LE(rate, kMaxBankConflictsPerRequest)
      << kernel << "'s shared-memory requests average " << rate << " bank conflicts each (" << conflicts << " in "
      << shared_requests << "): a warp reading a column of a tile whose row stride is a multiple of 32 floats hits "
      << "one bank 32 times; pad the rows (docs/06_cuda_attention.md, coalescing and bank conflicts)"
      << (kernel == "flash_forward_tensor_core"
              ? "; a WMMA load or store reads 16-byte pieces of several rows at once, so rows 128 bytes apart share "
                "banks too: pad them by 16 bytes"
          : kernel == "flash_forward_mma_sync"
              ? "; an ldmatrix reads 16-byte rows of 8 rows at once, so rows 128 bytes apart share banks: swizzle "
                "them (chunk c of row r at chunk c ^ (r % 8))"
              : "");
}

TEST(CudaMemoryEfficiency, FlashTouchesLittleBeyondItsTensorsAndAvoidsBankConflicts) {
  expect_memory_efficiency("flash_forward", 0xb4c4ull);
}

// The flash kernel's grid at the graded shape, launched but not run (the CPU
// runtime would take minutes over it): at least one block per multiprocessor.
TEST(CudaMemoryEfficiency, FlashCoversEveryMultiprocessorAtTheGradedShape) {
  const Tensor4 q = rooflab::random_normal(1, kGradedHeads, kGradedLength, kGradedHeadDim, 1);
  rooflab::testing::WorkerReport report;
  {
    const rooflab::testing::LaunchShapesOnly shapes_only;
    rooflab::testing::take_worker_report();
    if (!ROOFLAB_CALL_OR_FAIL("flash_forward", flash_attention_cuda(q, q, q, false))) return;
    report = rooflab::testing::take_worker_report();
  }
  if (!report.kernels_recorded) GTEST_SKIP() << "the kernels ran on a GPU: the CPU runtime's records are not there";
  std::uint64_t blocks = 0;
  for (const auto& launch : report.launches)
    if (launch.kernel == "flash_forward") blocks += std::uint64_t{launch.grid[0]} * launch.grid[1] * launch.grid[2];
  EXPECT_GE(blocks, rooflab::cuda::kModelledGpuMultiprocessors)
      << "flash_forward launched " << blocks << " blocks at B=1 H=" << kGradedHeads << " N=M=" << kGradedLength
      << " d=" << kGradedHeadDim << ": an " << rooflab::cuda::kModelledGpu << " has "
      << rooflab::cuda::kModelledGpuMultiprocessors
      << " multiprocessors, and those without a block sit idle; give each block fewer query rows";
}

TEST(CudaMemoryEfficiency, TensorCoreTouchesLittleBeyondItsTensorsAndAvoidsBankConflicts) {
  expect_memory_efficiency("flash_forward_tensor_core", 0x7c0eull);
}

// The bonus kernel: the same limits, and with the causal mask the key tiles
// past the diagonal never multiplied (at N = M = 256 a kernel that skips
// them does 5/8 of the unmasked products with 64-row, 64-key tiles and 3/4
// with any mix of 64 and 128; one that only masks them does all).
TEST(CudaMemoryEfficiency, MmaSyncTouchesLittleBeyondItsTensorsAndAvoidsBankConflicts) {
  expect_memory_efficiency("flash_forward_mma_sync", 0x3a5cull);
}
TEST(CudaMemoryEfficiency, MmaSyncSkipsTheCausalTilesPastTheDiagonal) {
  const Tensor4 q = rooflab::random_normal(1, 1, 256, 64, rooflab::testing::seed());
  std::uint64_t flops[2] = {0, 0};
  for (const bool causal : {false, true}) {
    rooflab::testing::take_worker_report();
    if (!ROOFLAB_CALL_OR_FAIL("flash_forward_mma_sync", flash_attention_mma_sync(q, q, q, causal))) return;
    const rooflab::testing::WorkerReport report = rooflab::testing::take_worker_report();
    if (!report.kernels_recorded) GTEST_SKIP() << "the kernels ran on a GPU: the CPU runtime's counters are not there";
    for (const auto& launch : report.launches) flops[causal] += launch.tensor_core_flops;
  }
  EXPECT_GT(flops[0], 0u) << "flash_forward_mma_sync ran no mma";
  EXPECT_LE(static_cast<double>(flops[1]), 0.8 * static_cast<double>(flops[0]))
      << "flash_forward_mma_sync multiplied " << flops[1] << " tensor-core FLOPs with the causal mask and " << flops[0]
      << " without (N = M = 256): skip the key tiles wholly past the diagonal, which no row of the block sees";
}

INSTANTIATE_TEST_SUITE_P(Kernels, CudaHidden,
                         ::testing::Values("standard", "flash", "tensor_core", "mma_sync", "mma_sync_bf16"),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace
}  // namespace a05_cuda_attention
