// The leaderboard's measurement for a04 (rubric.toml [leaderboard]; never
// scored): flash attention at one fixed shape, timed by this process (the
// verdict, which holds no student code) around each contract call, best of a
// few calls, each on fresh inputs checked against the fp64 reference. The
// grader runs this test with the reference's worker too, alternating, and
// ranks the submission by reference time / its time.
#include "rooflab/leaderboard.hpp"
#include "a04_flash_attention/a04_flash_attention.hpp"
#include "rooflab/attention_rows_testing.hpp"
#include "rooflab/testing.hpp"

namespace a04_flash_attention {
namespace {

// One call takes tens of milliseconds for the reference on one core: long
// enough that the RPC's copies of Q, K, V and the result (3 MiB) are a small
// part of it, short enough for several calls within the rubric's limit.
constexpr std::int64_t kBatch = 1, kHeads = 4, kLength = 1024, kHeadDim = 64;

TEST(FlashLeaderboard, BestTimeAtOneShape) {
  rooflab::testing::BestTime best;
  for (std::uint64_t call = 0; best.another_call(); ++call) {
    // Fresh inputs each call: an answer remembered from the last call is wrong.
    const std::uint64_t seed = rooflab::testing::seed() * 16 + call;
    const Tensor4 q = rooflab::random_normal(kBatch, kHeads, kLength, kHeadDim, seed),
                  k = rooflab::random_normal(kBatch, kHeads, kLength, kHeadDim, seed + 7),
                  v = rooflab::random_normal(kBatch, kHeads, kLength, kHeadDim, seed + 13);
    const FlashResult result = best.time([&] { return flash_attention(q, k, v, {64, 128, false, {}}); });
    ASSERT_TRUE(rooflab::testing::MatchesAttentionReferenceOnRows(result.output, &result.lse, q, k, v, 8, seed ^ 0x1b))
        << "call " << call << ": a wrong answer gets no time on the leaderboard";
  }
  best.record();
}

}  // namespace
}  // namespace a04_flash_attention
