// Public tests: each CUDA attention against the fp64 reference
// (rooflab/attention_reference.hpp), one suite run for every kernel.
//
// Without a GPU the kernels run in the CPU runtime, which checks every launch:
// a race (results that change with the order threads run in), a
// __syncthreads some threads never reach, or a shuffle naming an exited lane
// fails the test with a message naming the kernel. The tensor-core kernels
// run there too: the runtime models WMMA, drawing a fragment layout per
// launch, so that code assuming one fails, and the mma.sync, ldmatrix and
// cp.async atoms of the bonus (mma_sync, in fp16 and bf16).
#include <cmath>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>

#include "a05_cuda_attention/a05_cuda_attention.hpp"
#include "attention_work_testing.hpp"
#include "rooflab/attention_reference.hpp"
#include "rooflab/attention_testing.hpp"
#include "rooflab/testing.hpp"

namespace a05_cuda_attention {
namespace {

using rooflab::testing::kFp16;
using rooflab::testing::kFp32;
using rooflab::testing::Tolerance;

enum class Kernel { standard, flash, tensor_core, mma_sync, mma_sync_bf16 };

std::string name_of(Kernel kernel) {
  switch (kernel) {
    case Kernel::standard:
      return "standard";
    case Kernel::flash:
      return "flash";
    case Kernel::tensor_core:
      return "tensor_core";
    case Kernel::mma_sync:
      return "mma_sync";
    case Kernel::mma_sync_bf16:
      return "mma_sync_bf16";
  }
  return "unknown";
}

// Lets GoogleTest print a kernel parameter by name.
void PrintTo(Kernel kernel, std::ostream* out) { *out << name_of(kernel); }

struct Inputs {
  Tensor4 q, k, v;
};

class CudaAttention : public ::testing::TestWithParam<Kernel> {
 protected:
  bool tensor_cores() const { return GetParam() != Kernel::standard && GetParam() != Kernel::flash; }
  bool bfloat16() const { return GetParam() == Kernel::mma_sync_bf16; }
  // What the tensor-core kernels multiply: each input rounded to 16 bits.
  Tensor4 rounded(const Tensor4& t) const {
    return bfloat16() ? rooflab::testing::rounded_to_bf16(t) : rooflab::testing::rounded_to_fp16(t);
  }
  Tolerance sixteen_bits() const { return bfloat16() ? rooflab::testing::kBf16 : kFp16; }
  // The head dimension a test asks for, or 64 where the kernel takes only 64 and 128.
  std::int64_t head_dim(std::int64_t wanted) const { return tensor_cores() ? 64 : wanted; }

  Inputs inputs(std::int64_t n, std::int64_t m, std::int64_t d, std::uint64_t seed) const {
    const std::int64_t dim = head_dim(d);
    return {rooflab::random_normal(2, 2, n, dim, seed), rooflab::random_normal(2, 2, m, dim, seed + 1),
            rooflab::random_normal(2, 2, m, dim, seed + 2)};
  }
  // The kernel's result, which must be its kernels' work (attention_work_testing.hpp),
  // or nothing when the call failed: then the failure, once, names the call's
  // shape and quotes the error (the CPU runtime's names the kernel, thread and line).
  std::optional<AttentionResult> run(const Inputs& x, bool causal) const {
    rooflab::testing::take_worker_report();  // forget what ran before
    std::ostringstream call;
    call << name_of(GetParam()) << " attention, N=" << x.q.rows() << " M=" << x.k.rows() << " d=" << x.q.cols()
         << (causal ? " causal" : "");
    const std::optional<AttentionResult> result = ROOFLAB_CALL_OR_FAIL(call.str(), launch(x, causal));
    if (result)
      expect_the_kernels_did_the_work(rooflab::testing::take_worker_report(), name_of(GetParam()), x.q, x.k, x.v,
                                      *result);
    return result;
  }
  AttentionResult launch(const Inputs& x, bool causal) const {
    switch (GetParam()) {
      case Kernel::standard:
        return standard_attention_cuda(x.q, x.k, x.v, causal);
      case Kernel::flash:
        return flash_attention_cuda(x.q, x.k, x.v, causal);
      case Kernel::mma_sync:
        return flash_attention_mma_sync(x.q, x.k, x.v, causal);
      case Kernel::mma_sync_bf16:
        return flash_attention_mma_sync_bf16(x.q, x.k, x.v, causal);
      case Kernel::tensor_core:
        break;
    }
    return flash_attention_tensor_core(x.q, x.k, x.v, causal);
  }
  // Output and lse against the fp64 reference: fp32 within kFp32; the tensor
  // cores' fp16 within kFp16 (bf16 within kBf16) of the reference on the same
  // rounded inputs.
  void expect_matches_reference(const Inputs& x, bool causal) const {
    const std::optional<AttentionResult> ran = run(x, causal);
    if (!ran) return;
    const AttentionResult& result = *ran;
    const rooflab::reference::Mask mask = rooflab::reference::causal_bottom_right(x.q.rows(), x.k.rows());
    const rooflab::reference::Mask& used = causal ? mask : rooflab::reference::Mask{};
    if (tensor_cores()) {
      EXPECT_TRUE(rooflab::testing::MatchesAttentionReference(result.output, &result.lse, rounded(x.q), rounded(x.k),
                                                              rounded(x.v), used, sixteen_bits()))
          << "N=" << x.q.rows() << " M=" << x.k.rows() << (causal ? " causal" : "")
          << (GetParam() == Kernel::tensor_core ? kFragmentLayoutHint : "");
    } else {
      EXPECT_TRUE(rooflab::testing::MatchesAttentionReference(result.output, &result.lse, x.q, x.k, x.v, used, kFp32))
          << "N=" << x.q.rows() << " M=" << x.k.rows() << (causal ? " causal" : "");
    }
  }
};

TEST_P(CudaAttention, MatchesTheReference) {
  const Inputs x = inputs(64, 64, 16, 1);
  expect_matches_reference(x, false);
  expect_matches_reference(x, true);
}

TEST_P(CudaAttention, LengthsThatAreNotTileMultiples) {
  // 37 and 53 fill no tile size evenly: the last tiles are partial, and their
  // missing rows and keys must neither be read nor written.
  for (const bool causal : {false, true}) {
    expect_matches_reference(inputs(37, 37, 8, 4), causal);
    expect_matches_reference(inputs(37, 53, 24, 5), causal);
  }
}

TEST_P(CudaAttention, SingleToken) {
  const Inputs x = inputs(1, 1, 8, 7);
  const std::optional<AttentionResult> result = run(x, true);
  if (!result) return;
  // One key: its value with weight 1, and lse = its score.
  EXPECT_ALL_CLOSE(result->output.data, tensor_cores() ? rounded(x.v).data : x.v.data, 1e-6, 1e-6);
  expect_matches_reference(x, true);
}

TEST_P(CudaAttention, OneQueryAgainstManyKeys) {
  // Decoding's shape: the newest token sees every key, causal or not.
  const Inputs x = inputs(1, 300, 16, 8);
  expect_matches_reference(x, false);
  expect_matches_reference(x, true);
}

TEST_P(CudaAttention, LargeLogitsDoNotOverflow) {
  // Scores in the thousands: exp() of them is inf in fp32, so the max must be
  // subtracted first. Whole numbers with d = 64 (1/√d = 1/8) make every score
  // exact in fp32 and every input exact in fp16 (and bf16).
  const std::int64_t d = 64;
  const Inputs x{rooflab::random_whole_numbers(2, 2, 40, d, 10, 20.0f),
                 rooflab::random_whole_numbers(2, 2, 40, d, 11, 20.0f), rooflab::random_normal(2, 2, 40, d, 12)};
  const std::optional<AttentionResult> result = run(x, false);
  if (!result) return;
  const Tolerance tolerance = tensor_cores() ? sixteen_bits() : Tolerance{1e-4, 1e-4};
  const Tensor4 v = tensor_cores() ? rounded(x.v) : x.v;
  EXPECT_TRUE(rooflab::testing::MatchesAttentionReference(result->output, &result->lse, x.q, x.k, v, {}, tolerance));
}

TEST_P(CudaAttention, RowsThatSeeNoKeyGiveZeroAndMinusInfinity) {
  // Causal with more queries than keys, aligned at the bottom right: the first
  // N − M = 5 rows see no key at all.
  const Inputs x = inputs(12, 7, 8, 13);
  const std::optional<AttentionResult> result = run(x, true);
  if (!result) return;
  ASSERT_EQ(result->output.shape, (std::array<std::int64_t, 4>{2, 2, 12, head_dim(8)}));
  ASSERT_EQ(result->lse.size(), 4u * 12);
  EXPECT_TRUE(rooflab::testing::RowsSeeNoKey(result->output, result->lse, 5));
  expect_matches_reference(x, true);
}

TEST_P(CudaAttention, RejectsBadInputs) {
  const rooflab::testing::ArgumentNames names{"q", "k", "v"};
  const Inputs x = inputs(8, 8, 4, 1);
  const Tensor4 wrong_d = rooflab::random_normal(2, 2, 8, head_dim(4) + 1, 1);
  EXPECT_INVALID_ARGUMENT(run({x.q, wrong_d, x.v}, false), "k");
  EXPECT_INVALID_ARGUMENT(run({x.q, x.k, rooflab::random_normal(2, 2, 9, head_dim(4), 1)}, false), "v");
  EXPECT_INVALID_ARGUMENT(run({rooflab::Tensor4{{2, 2, 0, head_dim(4)}, {}}, x.k, x.v}, false), "q");
  if (GetParam() != Kernel::standard) {
    // The flash kernels keep a row of d_v accumulators in registers.
    const std::int64_t d = GetParam() == Kernel::flash ? kMaxHeadDim + 1 : 32;
    const Inputs wide{rooflab::random_normal(1, 1, 4, d, 1), rooflab::random_normal(1, 1, 4, d, 2),
                      rooflab::random_normal(1, 1, 4, d, 3)};
    EXPECT_INVALID_ARGUMENT(run(wide, false), "q");
  }
}

INSTANTIATE_TEST_SUITE_P(Kernels, CudaAttention,
                         ::testing::Values(Kernel::standard, Kernel::flash, Kernel::tensor_core, Kernel::mma_sync,
                                           Kernel::mma_sync_bf16),
                         [](const ::testing::TestParamInfo<Kernel>& info) { return name_of(info.param); });

}  // namespace
}  // namespace a05_cuda_attention
