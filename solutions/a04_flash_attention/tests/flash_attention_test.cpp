// Public tests, parts 1 and 3: flash attention on every compiled backend
// against the fp64 reference (rooflab/attention_reference.hpp).
#include "a04_flash_attention/flash_attention.hpp"

#include <cmath>

#include "rooflab/attention_reference.hpp"
#include "rooflab/attention_testing.hpp"
#include "rooflab/testing.hpp"

namespace a04_flash_attention {
namespace {

using rooflab::Backend;

using rooflab::testing::kFp32;
using rooflab::testing::Tolerance;

struct Inputs {
  Tensor4 q, k, v;
};
Inputs inputs(std::int64_t n, std::int64_t d, std::uint64_t seed) {
  return {rooflab::random_normal(2, 2, n, d, seed), rooflab::random_normal(2, 2, n, d, seed + 1),
          rooflab::random_normal(2, 2, n, d, seed + 2)};
}

class FlashAttention : public ::testing::TestWithParam<Backend> {
 protected:
  void SetUp() override { ROOFLAB_SKIP_UNLESS_AVAILABLE(GetParam()); }
  FlashResult run(const Inputs& x, const FlashOptions& options) {
    return flash_attention_on(GetParam(), x.q, x.k, x.v, options);
  }
  // Output and lse against the fp64 reference (fp32: within kFp32).
  void expect_matches_reference(const Inputs& x, const FlashOptions& options, Tolerance tolerance = kFp32) {
    const FlashResult result = run(x, options);
    EXPECT_TRUE(rooflab::testing::MatchesAttentionReference(result.output, &result.lse, x.q, x.k, x.v,
                                                            {options.causal, options.keep}, tolerance));
  }
};

TEST_P(FlashAttention, MatchesTheReference) {
  const Inputs x = inputs(64, 16, 1);
  expect_matches_reference(x, {16, 16, false, {}});
  expect_matches_reference(x, {16, 16, true, {}});
}

TEST_P(FlashAttention, AnyLengthAndBlockSizes) {
  // 37 rows are 3 tiles of 16 (the last holds 5) and 5 tiles of 8 keys.
  const Inputs x = inputs(37, 8, 4);
  for (const bool causal : {false, true}) {
    expect_matches_reference(x, {16, 8, causal, {}});
    expect_matches_reference(x, {1, 37, causal, {}});
    expect_matches_reference(x, {128, 5, causal, {}});  // tiles larger than the input
  }
}

TEST_P(FlashAttention, SingleToken) {
  const Inputs x = inputs(1, 8, 7);
  const FlashResult result = run(x, {64, 64, true, {}});
  EXPECT_ALL_CLOSE(result.output.data, x.v.data, 1e-6, 1e-6);  // one key: its value, weight 1
  EXPECT_ALL_CLOSE_WITHIN(result.lse, rooflab::reference::attention(x.q, x.k, x.v).lse, kFp32);
}

TEST_P(FlashAttention, LargeLogitsDoNotOverflow) {
  // Scores in the thousands: exp() of them is inf in fp32; the running max keeps
  // every exponent <= 0. Whole-number q and k with d = 4 make every score exact.
  const Inputs x{rooflab::random_whole_numbers(2, 2, 40, 4, 10, 40.0f),
                 rooflab::random_whole_numbers(2, 2, 40, 4, 11, 40.0f), rooflab::random_normal(2, 2, 40, 4, 12)};
  expect_matches_reference(x, {16, 16, false, {}}, {1e-4, 1e-4});
}

TEST_P(FlashAttention, FullyMaskedRowsGiveZeroAndMinusInfinity) {
  Inputs x = inputs(12, 4, 13);
  std::vector<std::uint8_t> keep(12 * 12, 1);
  for (std::int64_t j = 0; j < 12; ++j) keep[static_cast<std::size_t>(5 * 12 + j)] = 0;  // row 5 sees nothing
  for (std::int64_t j = 0; j < 8; ++j) keep[static_cast<std::size_t>(9 * 12 + j)] = 0;   // row 9: only keys 8..11
  const FlashResult result = run(x, {4, 4, false, keep});
  ASSERT_EQ(result.output.shape, x.q.shape);
  ASSERT_EQ(result.lse.size(), 4u * 12);
  for (std::int64_t bh = 0; bh < 4; ++bh) {
    EXPECT_EQ(result.lse[static_cast<std::size_t>(bh * 12 + 5)], -INFINITY);
    for (std::int64_t c = 0; c < 4; ++c) EXPECT_EQ(result.output.row(bh, 5)[c], 0.0f);
  }
  expect_matches_reference(x, {4, 4, false, keep});
  expect_matches_reference(x, {4, 4, true, keep});
}

TEST_P(FlashAttention, RejectsBadInputsAndOptions) {
  const Inputs x = inputs(8, 4, 1);
  const rooflab::testing::ArgumentNames names{"q", "k", "v", "block_rows", "block_cols", "causal", "keep"};
  EXPECT_INVALID_ARGUMENT(run(x, {0, 4, false, {}}), "block_rows");
  EXPECT_INVALID_ARGUMENT(run(x, {4, -1, false, {}}), "block_cols");
  EXPECT_INVALID_ARGUMENT(run(x, {4, 4, false, std::vector<std::uint8_t>(7, 1)}), "keep");
  EXPECT_INVALID_ARGUMENT(run({x.q, rooflab::random_normal(2, 2, 8, 3, 1), x.v}, {}), "k");
  const Inputs longer_keys{x.q, rooflab::random_normal(2, 2, 9, 4, 1), rooflab::random_normal(2, 2, 9, 4, 1)};
  EXPECT_INVALID_ARGUMENT(run(longer_keys, {4, 4, true, {}}), "causal");
}

INSTANTIATE_TEST_SUITE_P(Backends, FlashAttention, ::testing::ValuesIn(rooflab::compiled_backends()),
                         rooflab::testing::BackendName{});

}  // namespace
}  // namespace a04_flash_attention
