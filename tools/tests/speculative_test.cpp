// Speculative decoding and the two cache operations it stands on:
// a06's extend() (several positions of a sequence in one pass) gives the
// logits one step() at a time gives; rollback() forgets tokens so that what
// follows is as if they had never been; speculative decoding's greedy output
// is the target's greedy output (transformers', on the small checkpoints),
// and its samples follow the target's distribution, which the draft's own
// samples do not (a chi-square test on fixed seeds, with its power shown).
#include "speculative.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "gpt2_checkpoint.hpp"
#include "omp_threads_testing.hpp"
#include "text_generation.hpp"

namespace rooflab::decode {
namespace {
namespace fs = std::filesystem;
using a06_kv_cache_decode::DecodeState;
using a06_kv_cache_decode::Model;
using a06_kv_cache_decode::ModelConfig;

const fs::path kCheckpoints = ROOFLAB_CHECKPOINTS_DIR;

ModelConfig small_config(std::int64_t vocab) {
  ModelConfig config;
  config.layers = 2;
  config.d_model = 16;
  config.heads = 4;
  config.kv_heads = 2;
  config.d_ff = 32;
  config.vocab = vocab;
  config.context = 32;
  return config;
}

// A random model whose next-token distributions are far from uniform and its
// own: the layers' matrices scaled up, so that what they compute from the
// context outweighs the token's embedding (which, tied to the LM head, would
// make every such model predict its input again), and the final layer norm's
// scale, which multiplies the logits.
Model peaked_model(std::int64_t vocab, std::uint64_t seed) {
  Model model = a06_kv_cache_decode::random_model(small_config(vocab), seed);
  for (auto& layer : model.layers)
    for (auto* weights : {&layer.qkv, &layer.out, &layer.up, &layer.down})
      for (float& weight : *weights) weight *= 25.0f;
  for (float& scale : model.final_scale) scale *= 30.0f;
  return model;
}

void expect_rows_near(const std::vector<float>& actual, const std::vector<float>& expected, const std::string& what) {
  ASSERT_EQ(actual.size(), expected.size()) << what;
  for (std::size_t i = 0; i < actual.size(); ++i)
    ASSERT_NEAR(actual[i], expected[i], 1e-4 + 1e-4 * std::abs(expected[i])) << what << ", element " << i;
}

TEST(Extend, GivesTheLogitsOfOneStepAtATime) {
  for (const bool paged : {false, true}) {
    const Model model = peaked_model(40, 3);
    const std::vector<std::int64_t> tokens{5, 17, 2, 39, 11, 8, 23};
    DecodeState stepped = a06_kv_cache_decode::make_decode_state(model.config, 2, 16, paged, 3);
    DecodeState extended = a06_kv_cache_decode::make_decode_state(model.config, 2, 16, paged, 3);
    std::vector<float> expected;
    for (const std::int64_t token : tokens) {
      const std::vector<float> logits = a06_kv_cache_decode::step(model, stepped, {-1, token});  // sequence 1
      expected.insert(expected.end(), logits.begin() + 40, logits.end());
    }
    // In two passes: three positions, then four more after them.
    std::vector<float> got = a06_kv_cache_decode::extend(model, extended, 1, {5, 17, 2});
    const std::vector<float> more = a06_kv_cache_decode::extend(model, extended, 1, {39, 11, 8, 23});
    got.insert(got.end(), more.begin(), more.end());
    expect_rows_near(got, expected, paged ? "paged" : "contiguous");
    EXPECT_EQ(extended.paged ? extended.pages[0].lengths[1] : extended.contiguous[0].lengths[1], 7);
  }
}

TEST(Rollback, LeavesTheCacheAsIfTheTokensHadNeverBeen) {
  for (const bool paged : {false, true}) {
    const Model model = peaked_model(40, 4);
    DecodeState state = a06_kv_cache_decode::make_decode_state(model.config, 1, 12, paged, 2);
    a06_kv_cache_decode::extend(model, state, 0, {1, 2, 3, 4, 5, 6, 7});
    const std::size_t free_before = paged ? state.pages[0].free_pages.size() : 0;
    a06_kv_cache_decode::rollback(state, 0, 3);
    if (paged) {
      EXPECT_EQ(state.pages[0].free_pages.size(), free_before + 2) << "pages 3 and 4 go back to the pool";
    }
    const std::vector<float> after = a06_kv_cache_decode::extend(model, state, 0, {30, 31});
    DecodeState fresh = a06_kv_cache_decode::make_decode_state(model.config, 1, 12, paged, 2);
    const std::vector<float> expected = a06_kv_cache_decode::extend(model, fresh, 0, {1, 2, 3, 30, 31});
    expect_rows_near(after, std::vector<float>(expected.begin() + 3 * 40, expected.end()),
                     paged ? "paged" : "contiguous");
  }
  const Model model = peaked_model(40, 4);
  DecodeState state = a06_kv_cache_decode::make_decode_state(model.config, 1, 12, false);
  a06_kv_cache_decode::extend(model, state, 0, {1, 2});
  EXPECT_THROW(
      {
        try {
          a06_kv_cache_decode::rollback(state, 0, 3);
        } catch (const std::invalid_argument& error) {
          EXPECT_EQ(std::string(error.what()).rfind("length:", 0), 0u) << error.what();
          throw;
        }
      },
      std::invalid_argument);
  EXPECT_THROW(a06_kv_cache_decode::rollback(state, 1, 0), std::invalid_argument);
}

TEST(SpeculativeDecoding, GreedyIsTheTargetsGreedyOutputForEveryK) {
  const Model target = load_gpt2_checkpoint(kCheckpoints / "tiny-gpt2").model;
  const Model draft = load_gpt2_checkpoint(kCheckpoints / "tiny-gpt2-draft").model;
  const nlohmann::json reference = nlohmann::json::parse(std::ifstream(kCheckpoints / "tiny-gpt2" / "reference.json"));
  double accepted = 0, proposed = 0;
  for (const auto& prompt : reference["prompts"]) {
    const auto ids = prompt["ids"].get<std::vector<std::int64_t>>();
    const auto greedy = prompt["greedy"].get<std::vector<std::int64_t>>();
    for (const std::int64_t k : {1, 2, 4, 7}) {
      const SpeculativeRun run =
          speculative_continue(target, draft, ids, static_cast<std::int64_t>(greedy.size()), k, {});
      EXPECT_EQ(run.tokens, greedy) << "\"" << prompt["text"].get<std::string>() << "\", k = " << k;
      EXPECT_GE(run.tokens_per_pass(), 1.0);
      EXPECT_LE(run.tokens_per_pass(), static_cast<double>(k + 1));
      accepted += static_cast<double>(run.accepted);
      proposed += static_cast<double>(run.proposed);
    }
  }
  // The draft was trained on the same page: it agrees often, not always.
  EXPECT_GT(accepted / proposed, 0.2);
  EXPECT_LT(accepted / proposed, 1.0);
}

// The exact distribution of the first two tokens after `prompt` when the
// target samples alone: p(a) · p(b | a), through full_logits.
std::vector<double> two_token_distribution(const Model& model, const std::vector<std::int64_t>& prompt,
                                           const SamplingOptions& options) {
  const std::int64_t vocab = model.config.vocab;
  const Sampler shaping(options);
  const std::vector<float> first = a06_kv_cache_decode::full_logits(model, prompt);
  const std::vector<double> pa = shaping.distribution(first.data(), vocab);
  std::vector<double> joint(static_cast<std::size_t>(vocab * vocab), 0.0);
  for (std::int64_t a = 0; a < vocab; ++a) {
    std::vector<std::int64_t> longer = prompt;
    longer.push_back(a);
    const std::vector<float> second = a06_kv_cache_decode::full_logits(model, longer);
    const std::vector<double> pb = shaping.distribution(second.data(), vocab);
    for (std::int64_t b = 0; b < vocab; ++b)
      joint[static_cast<std::size_t>(a * vocab + b)] =
          pa[static_cast<std::size_t>(a)] * pb[static_cast<std::size_t>(b)];
  }
  return joint;
}

// Pearson's chi-square of `counts` against `expected` probabilities, cells
// with an expected count under 5 pooled into one (the test's usual rule).
double chi_square(const std::vector<int>& counts, const std::vector<double>& expected, int draws, int& cells) {
  double chi2 = 0, pooled_expected = 0, pooled_count = 0;
  cells = 0;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    const double e = expected[i] * draws;
    if (e < 5) {
      pooled_expected += e;
      pooled_count += counts[i];
      continue;
    }
    chi2 += (counts[i] - e) * (counts[i] - e) / e;
    ++cells;
  }
  if (pooled_expected > 0) {
    chi2 += (pooled_count - pooled_expected) * (pooled_count - pooled_expected) / std::max(pooled_expected, 1e-9);
    ++cells;
  }
  return chi2;
}

TEST(SpeculativeDecoding, SamplesFollowTheTargetsDistributionAndTheDraftsAloneDoNot) {
  // One thread: the 40000 decodes of a 16-wide model are far less work than
  // waking a second thread for each of their parallel regions. With the
  // suite's OMP_WAIT_POLICY=passive the wake-ups took this test 161 s alone
  // on an idle 2-core machine, against 2 s on one thread.
  const rooflab::testing::ScopedOmpThreads thread_count(1);
  constexpr std::int64_t kVocab = 6;
  const Model target = peaked_model(kVocab, 11), draft = peaked_model(kVocab, 12);
  const std::vector<std::int64_t> prompt{1, 4, 2};
  const SamplingOptions shape{1.0, 0, 1.0, 0};
  const std::vector<double> expected = two_token_distribution(target, prompt, shape);
  constexpr int kDraws = 20000;
  std::vector<int> speculative(kVocab * kVocab, 0), drafted(kVocab * kVocab, 0);
  double accepted = 0, proposed = 0;
  for (int i = 0; i < kDraws; ++i) {
    SamplingOptions options = shape;
    options.seed = 1000 + static_cast<std::uint64_t>(i);
    const SpeculativeRun run = speculative_continue(target, draft, prompt, 2, 2, options);
    ++speculative[static_cast<std::size_t>(run.tokens[0] * kVocab + run.tokens[1])];
    accepted += static_cast<double>(run.accepted);
    proposed += static_cast<double>(run.proposed);
    Sampler alone(options);
    const Continuation own = continue_prompt(draft, prompt, 2, alone);
    ++drafted[static_cast<std::size_t>(own.tokens[0] * kVocab + own.tokens[1])];
  }
  ASSERT_LT(accepted / proposed, 0.9) << "a draft that is almost always right would make the test weak";
  int cells = 0;
  const double chi2 = chi_square(speculative, expected, kDraws, cells);
  // The 0.999 quantile of chi-square with cells − 1 degrees of freedom, by
  // the Wilson–Hilferty approximation (z = 3.09).
  const double dof = cells - 1, z = 3.09;
  const double limit = dof * std::pow(1 - 2 / (9 * dof) + z * std::sqrt(2 / (9 * dof)), 3);
  EXPECT_LT(chi2, limit) << cells << " cells; acceptance rate " << accepted / proposed;
  int draft_cells = 0;
  EXPECT_GT(chi_square(drafted, expected, kDraws, draft_cells), 10 * limit)
      << "the draft's own samples should fail the test: else it has no power";
}

TEST(SpeculativeDecoding, BadArgumentsAreNamed) {
  const Model target = peaked_model(6, 1), draft = peaked_model(7, 2);
  const auto message = [&](const Model& d, std::vector<std::int64_t> prompt, std::int64_t n, std::int64_t k) {
    try {
      speculative_continue(target, d, prompt, n, k, {});
    } catch (const std::invalid_argument& error) {
      return std::string(error.what());
    }
    return std::string();
  };
  EXPECT_EQ(message(target, {1}, 4, 0).rfind("k:", 0), 0u);
  EXPECT_EQ(message(target, {}, 4, 2).rfind("prompt:", 0), 0u);
  EXPECT_EQ(message(target, {1}, -1, 2).rfind("new_tokens:", 0), 0u);
  EXPECT_EQ(message(draft, {1}, 4, 2).rfind("vocab:", 0), 0u);
  EXPECT_EQ(message(target, {1, 2}, 28, 4).rfind("context:", 0), 0u);
}

}  // namespace
}  // namespace rooflab::decode
