// The leaderboard's measurement for a06 (rubric.toml [leaderboard]; never
// scored): greedy generation through the paged KV cache, the whole decode loop
// in one contract call (a single decode step would time the RPC's copy of the
// cache more than the decoding), timed by this process (the verdict, which
// holds no student code), best of a few calls, each on a fresh model and
// prompts and every generated token checked against a recomputation from
// scratch. The grader runs this test with the reference's worker too,
// alternating, and ranks the submission by reference time / its time.
#include <algorithm>
#include <random>

#include "a06_kv_cache_decode/a06_kv_cache_decode.hpp"
#include "rooflab/leaderboard.hpp"
#include "rooflab/testing.hpp"

namespace a06_kv_cache_decode {
namespace {

constexpr std::int64_t kPrompts = 4, kPromptLength = 16, kSteps = 96;
constexpr int kChecks = 8;

TEST(DecodeLeaderboard, GenerateBestTime) {
  ModelConfig config;
  config.layers = 2;
  config.heads = 8;
  config.kv_heads = 2;
  config.d_model = 256;
  config.d_ff = 512;
  config.vocab = 128;
  config.context = kPromptLength + kSteps;
  rooflab::testing::BestTime best;
  for (std::uint64_t call = 0; best.another_call(); ++call) {
    // A fresh model and prompts each call: an answer remembered is wrong.
    std::mt19937_64 engine(rooflab::testing::seed() * 16 + call);
    const Model model = random_model(config, engine());
    std::vector<std::vector<std::int64_t>> prompts(kPrompts, std::vector<std::int64_t>(kPromptLength));
    for (auto& prompt : prompts)
      for (auto& token : prompt) token = rooflab::testing::pick(engine, 0, config.vocab - 1);
    const auto generated = best.time([&] { return generate(model, prompts, kSteps, {true, 16}); });
    ASSERT_EQ(generated.size(), prompts.size());
    // Tokens drawn after the call, each recomputed from scratch after the
    // prompt and the tokens generated before it (all of them would take ten
    // times the call: the recomputation has no cache).
    for (int check = 0; check < kChecks; ++check) {
      const auto s = static_cast<std::size_t>(rooflab::testing::pick(engine, 0, kPrompts - 1));
      ASSERT_EQ(static_cast<std::int64_t>(generated[s].size()), kSteps);
      const auto position = static_cast<std::ptrdiff_t>(rooflab::testing::pick(engine, 0, kSteps - 1));
      std::vector<std::int64_t> sequence = prompts[s];
      sequence.insert(sequence.end(), generated[s].begin(), generated[s].begin() + position);
      const std::int64_t token = generated[s][static_cast<std::size_t>(position)];
      ASSERT_GE(token, 0);
      ASSERT_LT(token, config.vocab);
      const std::vector<float> logits = full_logits(model, sequence);
      ASSERT_GE(logits[static_cast<std::size_t>(token)], *std::max_element(logits.begin(), logits.end()) - 1e-4f)
          << "call " << call << ": token " << token << " after " << sequence.size()
          << " tokens is not a most likely one: a wrong answer gets no time on the leaderboard";
    }
  }
  best.record();
}

}  // namespace
}  // namespace a06_kv_cache_decode
