// Public tests, part 4: decoding a small GPT-2-shaped model through your
// cache and decode attention gives what recomputing every sequence from
// scratch gives (full_logits, no cache), step by step.
#include "a06_kv_cache_decode/generate.hpp"

#include <algorithm>

#include "rooflab/testing.hpp"

namespace a06_kv_cache_decode {
namespace {

// Logits from the cache and from scratch differ only in rounding.
constexpr rooflab::testing::Tolerance kLogits{1e-4, 1e-3};

ModelConfig tiny(std::int64_t kv_heads = 4) {
  ModelConfig config;
  config.layers = 2;
  config.d_model = 32;
  config.heads = 4;
  config.kv_heads = kv_heads;
  config.d_ff = 64;
  config.vocab = 50;
  config.context = 64;
  return config;
}

// Each generated token must be a most likely next token of the sequence so
// far, recomputed from scratch (within rounding of the best, so that a near
// tie cannot fail a right answer).
void expect_greedy(const Model& model, std::vector<std::int64_t> sequence, const std::vector<std::int64_t>& generated) {
  for (const std::int64_t token : generated) {
    const std::vector<float> logits = full_logits(model, sequence);
    ASSERT_GE(token, 0);
    ASSERT_LT(token, model.config.vocab);
    const float best = *std::max_element(logits.begin(), logits.end());
    EXPECT_GE(logits[static_cast<std::size_t>(token)], best - 1e-4f)
        << "token " << token << " after " << sequence.size() << " tokens is not the most likely one";
    sequence.push_back(token);
  }
}

TEST(Decode, EveryStepMatchesRecomputingFromScratch) {
  const Model model = random_model(tiny(), 1);
  for (const bool paged : {false, true}) {
    DecodeState state = make_decode_state(model.config, 1, 20, paged, 4);
    std::vector<std::int64_t> sequence;
    for (const std::int64_t token : {7, 3, 49, 0, 12, 12, 30, 5, 18, 21}) {
      sequence.push_back(token);
      const std::vector<float> logits = step(model, state, {token});
      EXPECT_ALL_CLOSE_WITHIN(logits, full_logits(model, sequence), kLogits)
          << (paged ? "paged" : "contiguous") << ", after " << sequence.size() << " tokens";
    }
  }
}

TEST(Generate, GreedyTokensMatchRecomputation) {
  const Model model = random_model(tiny(), 2);
  const std::vector<std::vector<std::int64_t>> prompts{{1, 2, 3}, {40, 41, 42, 43, 44, 45}};
  const auto generated = generate(model, prompts, 8, {});
  ASSERT_EQ(generated.size(), 2u);
  for (std::size_t s = 0; s < prompts.size(); ++s) {
    ASSERT_EQ(generated[s].size(), 8u);
    expect_greedy(model, prompts[s], generated[s]);
  }
}

TEST(Generate, PagedAndContiguousCachesAgree) {
  const Model model = random_model(tiny(), 3);
  const std::vector<std::vector<std::int64_t>> prompts{{5}, {6, 7, 8, 9, 10}, {11, 12}};
  EXPECT_EQ(generate(model, prompts, 10, {true, 4}), generate(model, prompts, 10, {false, 16}));
}

TEST(Generate, GroupedQueryAttention) {
  const Model model = random_model(tiny(2), 4);  // 4 query heads share 2 kv heads
  const std::vector<std::vector<std::int64_t>> prompts{{9, 8, 7}};
  expect_greedy(model, prompts[0], generate(model, prompts, 6, {true, 2})[0]);
}

TEST(Generate, RejectsBadInputs) {
  const rooflab::testing::ArgumentNames names{"prompts", "steps", "context", "page_size"};
  const Model model = random_model(tiny(), 5);
  EXPECT_INVALID_ARGUMENT(generate(model, {}, 3, {}), "prompts");
  EXPECT_INVALID_ARGUMENT(generate(model, {{1}, {}}, 3, {}), "prompts");
  EXPECT_INVALID_ARGUMENT(generate(model, {{1}}, -1, {}), "steps");
  EXPECT_INVALID_ARGUMENT(generate(model, {{1, 2}}, 63, {}), "context");
  EXPECT_INVALID_ARGUMENT(generate(model, {{1}}, 3, {true, 0}), "page_size");
}

}  // namespace
}  // namespace a06_kv_cache_decode
