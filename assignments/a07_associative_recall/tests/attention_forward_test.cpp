// Public tests, part 2: attention forward against the fp64 reference of
// recall_reference.hpp, with the causal mask, with random finite masks that
// hide some keys, and at scores too large for exp() without the row's maximum
// taken out; and the model's logits, which run through your forward.
#include <limits>

#include "recall_testing.hpp"

namespace a07_associative_recall {
namespace {

using checks::expect_forward_matches_reference;
using checks::shape_text;

void expect_causal_matches(std::int64_t b, std::int64_t h, std::int64_t n, std::int64_t d, std::int64_t dv,
                           std::uint64_t seed) {
  const Tensor4 q = rooflab::random_normal(b, h, n, d, seed), k = rooflab::random_normal(b, h, n, d, seed + 1),
                v = rooflab::random_normal(b, h, n, dv, seed + 2);
  expect_forward_matches_reference(q, k, v, reference::causal(n), shape_text(q, v, "causal"));
}

TEST(AttentionForward, CausalMaskMatchesTheReference) {
  expect_causal_matches(2, 3, 16, 8, 8, 1);
  expect_causal_matches(1, 2, 33, 12, 5, 2);  // d not a multiple of 8, dv ≠ d
  expect_causal_matches(3, 1, 1, 7, 3, 3);    // one token: its own key gets probability 1
}

TEST(AttentionForward, NoMaskMatchesTheReference) {
  const Tensor4 q = rooflab::random_normal(2, 2, 10, 16, 4), k = rooflab::random_normal(2, 2, 10, 16, 5),
                v = rooflab::random_normal(2, 2, 10, 16, 6);
  expect_forward_matches_reference(q, k, v, std::vector<float>(100, 0.0f), shape_text(q, v, "all-zero"));
}

TEST(AttentionForward, RandomAdditiveMasksMatchTheReference) {
  for (std::uint64_t seed = 7; seed < 10; ++seed) {
    const Tensor4 q = rooflab::random_normal(2, 2, 20, 16, seed), k = rooflab::random_normal(2, 2, 20, 16, seed * 3),
                  v = rooflab::random_normal(2, 2, 20, 9, seed * 5);
    expect_forward_matches_reference(q, k, v, reference::random_additive(20, seed),
                                     shape_text(q, v, "random additive") + ", seed " + std::to_string(seed));
  }
}

TEST(AttentionForward, LargeScoresStayFinite) {
  // Whole-number q and k with d = 16: every score is a whole number over 4,
  // exact in fp32, and some reach hundreds, where exp() alone overflows.
  const Tensor4 q = rooflab::random_whole_numbers(1, 2, 12, 16, 11, 20.0f),
                k = rooflab::random_whole_numbers(1, 2, 12, 16, 12, 20.0f), v = rooflab::random_normal(1, 2, 12, 4, 13);
  expect_forward_matches_reference(q, k, v, reference::causal(12), shape_text(q, v, "causal") + ", scores ~ 400");
}

TEST(AttentionForward, TheModelsLogitsMatchTheReference) {
  // logits_at_every_position (provided) runs your causal_mask and
  // attention_forward in every layer of a freshly initialised model.
  ModelConfig config;
  const Model model = init_model(config, 3);
  const RecallBatch batch = make_recall_batch(config.task, Split::train, 3, 4);
  const std::vector<float> logits = logits_at_every_position(model, batch.tokens);
  EXPECT_TRUE(rooflab::testing::AllCloseIn(
      "logits", "reference", logits, reference::model_logits(model, batch.tokens), 1e-4, 1e-3,
      {{batch.sequences, batch.length, config.task.vocab()}, {"sequence", "position", "token"}}));
}

TEST(AttentionForward, RejectsBadInputs) {
  const rooflab::testing::ArgumentNames names{"n", "q", "k", "v", "mask", "probs", "d_output"};
  const Tensor4 q = rooflab::random_normal(2, 2, 5, 4, 1), k = rooflab::random_normal(2, 2, 5, 4, 2),
                v = rooflab::random_normal(2, 2, 5, 3, 3);
  const std::vector<float> mask = reference::causal(5);
  Tensor4 short_q = q;
  short_q.data.pop_back();
  EXPECT_INVALID_ARGUMENT(attention_forward(short_q, k, v, mask), "q");
  EXPECT_INVALID_ARGUMENT(attention_forward(rooflab::zeros(2, 0, 5, 4), k, v, mask), "q");
  EXPECT_INVALID_ARGUMENT(attention_forward(q, rooflab::random_normal(2, 2, 5, 6, 2), v, mask), "k");  // d
  EXPECT_INVALID_ARGUMENT(attention_forward(q, rooflab::random_normal(1, 2, 5, 4, 2), v, mask), "k");  // batch
  EXPECT_INVALID_ARGUMENT(
      attention_forward(q, rooflab::random_normal(2, 2, 6, 4, 2), rooflab::random_normal(2, 2, 6, 3, 3), mask),
      "k");  // more keys than queries
  EXPECT_INVALID_ARGUMENT(attention_forward(q, k, rooflab::random_normal(2, 2, 4, 3, 3), mask), "v");
  EXPECT_INVALID_ARGUMENT(attention_forward(q, k, v, reference::causal(4)), "mask");
  std::vector<float> bad = mask;
  bad[7] = std::numeric_limits<float>::quiet_NaN();
  EXPECT_INVALID_ARGUMENT(attention_forward(q, k, v, bad), "mask");
  bad = mask;
  bad[3] = INFINITY;
  EXPECT_INVALID_ARGUMENT(attention_forward(q, k, v, bad), "mask");
  bad = mask;
  for (std::size_t j = 10; j < 15; ++j) bad[j] = -INFINITY;  // row 2 hides every key
  EXPECT_INVALID_ARGUMENT(attention_forward(q, k, v, bad), "mask");
}

}  // namespace
}  // namespace a07_associative_recall
