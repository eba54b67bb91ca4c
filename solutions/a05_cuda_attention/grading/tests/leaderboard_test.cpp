// The leaderboard's measurement for a05 (rubric.toml [leaderboard]; never
// scored): flash_attention_cuda at one fixed shape, timed by this process (the
// verdict, which holds no student code) around each contract call, best of a
// few calls, each on fresh inputs checked against the fp64 reference. The
// grader runs this test with the reference's worker too, alternating, and
// ranks the submission by reference time / its time. Where the kernels run in
// the CPU runtime, the shape is smaller: that runtime checks every access.
#include "rooflab/leaderboard.hpp"
#include "../../tests/attention_work_testing.hpp"
#include "a05_cuda_attention/a05_cuda_attention.hpp"
#include "rooflab/attention_rows_testing.hpp"
#include "rooflab/backend.hpp"
#include "rooflab/testing.hpp"
#include "rooflab/worker_report.hpp"

namespace a05_cuda_attention {
namespace {

TEST(CudaLeaderboard, FlashKernelBestTime) {
  const bool gpu = rooflab::gpu_count() > 0;
  const std::int64_t heads = gpu ? 16 : 2, length = gpu ? 4096 : 128, head_dim = 64;
  rooflab::testing::BestTime best;
  for (std::uint64_t call = 0; best.another_call(); ++call) {
    // Fresh inputs each call: an answer remembered from the last call is wrong.
    const std::uint64_t seed = rooflab::testing::seed() * 16 + call;
    const Tensor4 q = rooflab::random_normal(1, heads, length, head_dim, seed),
                  k = rooflab::random_normal(1, heads, length, head_dim, seed + 7),
                  v = rooflab::random_normal(1, heads, length, head_dim, seed + 13);
    rooflab::testing::take_worker_report();  // forget what ran before
    const AttentionResult result = best.time([&] { return flash_attention_cuda(q, k, v, false); });
    // The time is the kernel's: host code that skips it gets no place.
    const rooflab::testing::WorkerReport report = rooflab::testing::take_worker_report();
    if (report.kernels_recorded) {
      ASSERT_EQ(rooflab::testing::kernel_names(report), std::vector<std::string>{"flash_forward"})
          << "flash attention computes in its kernel, launched once";
      expect_the_kernels_did_the_work(report, "flash", q, k, v, result);
      ASSERT_FALSE(HasFailure()) << "a result the kernel did not compute gets no time on the leaderboard";
    }
    ASSERT_TRUE(rooflab::testing::MatchesAttentionReferenceOnRows(result.output, &result.lse, q, k, v, 8, seed ^ 0x1b))
        << "call " << call << ": a wrong answer gets no time on the leaderboard";
  }
  best.record();
}

}  // namespace
}  // namespace a05_cuda_attention
