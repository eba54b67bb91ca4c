// Public tests: causality. Under the causal mask nothing after position t can
// reach positions 0 … t: not their attention outputs or probabilities, not the
// gradients that flow back to them, and in the whole model not their logits.
// Masked keys contribute exactly 0, so "unchanged" means bit for bit.
#include <algorithm>
#include <random>
#include <tuple>

#include "recall_testing.hpp"

namespace a07_associative_recall {
namespace {

using checks::rows_through;
using checks::with_later_rows_redrawn;

TEST(Causality, LaterQueriesKeysAndValuesNeverReachEarlierRows) {
  const std::int64_t n = 12;
  const Tensor4 q = rooflab::random_normal(2, 2, n, 8, 1), k = rooflab::random_normal(2, 2, n, 8, 2),
                v = rooflab::random_normal(2, 2, n, 6, 3);
  const std::vector<float> mask = reference::causal(n);
  const AttentionForward before = attention_forward(q, k, v, mask);
  ASSERT_EQ(before.output.shape, (std::array<std::int64_t, 4>{2, 2, n, 6}));
  ASSERT_EQ(before.probs.shape, (std::array<std::int64_t, 4>{2, 2, n, n}));
  for (const std::int64_t t : {0, 5, 10}) {
    const auto seed = static_cast<std::uint64_t>(100 + t);
    const AttentionForward after =
        attention_forward(with_later_rows_redrawn(q, t, seed), with_later_rows_redrawn(k, t, seed + 1),
                          with_later_rows_redrawn(v, t, seed + 2), mask);
    ASSERT_EQ(after.output.shape, before.output.shape);
    ASSERT_EQ(after.probs.shape, before.probs.shape);
    EXPECT_EQ(rows_through(after.output, t), rows_through(before.output, t)) << "output rows 0 … " << t;
    EXPECT_EQ(rows_through(after.probs, t), rows_through(before.probs, t)) << "probs rows 0 … " << t;
  }
}

TEST(Causality, LaterRowsNeverReachEarlierGradients) {
  // With d_output zero after t (a loss on positions 0 … t only), redrawing
  // q, k and v after t changes no gradient of rows 0 … t.
  const std::int64_t n = 10;
  const Tensor4 q = rooflab::random_normal(1, 3, n, 5, 4), k = rooflab::random_normal(1, 3, n, 5, 5),
                v = rooflab::random_normal(1, 3, n, 4, 6);
  const std::vector<float> mask = reference::causal(n);
  for (const std::int64_t t : {0, 4, 8}) {
    Tensor4 zero_after_t = rooflab::random_normal(1, 3, n, 4, 7);
    for (std::int64_t bh = 0; bh < zero_after_t.matrices(); ++bh)
      std::fill(zero_after_t.row(bh, t + 1), zero_after_t.row(bh, n), 0.0f);
    const auto gradients = [&](const Tensor4& q_in, const Tensor4& k_in, const Tensor4& v_in) {
      const Tensor4 probs = reference::probs_as_float(reference::attention(q_in, k_in, v_in, mask), q_in);
      return attention_backward(q_in, k_in, v_in, probs, zero_after_t);
    };
    const auto seed = static_cast<std::uint64_t>(200 + t);
    const AttentionGradients before = gradients(q, k, v);
    const AttentionGradients after =
        gradients(with_later_rows_redrawn(q, t, seed), with_later_rows_redrawn(k, t, seed + 1),
                  with_later_rows_redrawn(v, t, seed + 2));
    for (const auto& [name, got, expected] :
         {std::tuple{"dq", &after.dq, &before.dq}, std::tuple{"dk", &after.dk, &before.dk},
          std::tuple{"dv", &after.dv, &before.dv}}) {
      ASSERT_EQ(got->shape, expected->shape) << name;
      ASSERT_EQ(got->shape[2], n) << name;
      EXPECT_EQ(rows_through(*got, t), rows_through(*expected, t)) << name << " rows 0 … " << t;
    }
  }
}

TEST(Causality, LaterTokensNeverChangeEarlierLogits) {
  // The whole model (provided), through your causal_mask and attention_forward.
  ModelConfig config;
  const Model model = init_model(config, 5);
  const std::int64_t n = config.task.length(), vocab = config.task.vocab(), sequences = 3;
  const RecallBatch batch = make_recall_batch(config.task, Split::train, 5, sequences);
  const std::vector<float> before = logits_at_every_position(model, batch.tokens);
  ASSERT_EQ(before.size(), static_cast<std::size_t>(sequences * n * vocab));
  std::mt19937_64 engine(6);
  for (const std::int64_t t : {0, 7, 15}) {
    std::vector<std::int64_t> changed = batch.tokens;
    for (std::int64_t s = 0; s < sequences; ++s)
      for (std::int64_t i = t + 1; i < n; ++i) {
        std::int64_t& token = changed[static_cast<std::size_t>(s * n + i)];
        token = (token + rooflab::testing::pick(engine, 1, vocab - 1)) % vocab;  // a different token
      }
    const std::vector<float> after = logits_at_every_position(model, changed);
    ASSERT_EQ(after.size(), before.size());
    for (std::int64_t s = 0; s < sequences; ++s) {
      const auto first = static_cast<std::ptrdiff_t>(s * n * vocab), last = first + (t + 1) * vocab;
      EXPECT_EQ(std::vector<float>(after.begin() + first, after.begin() + last),
                std::vector<float>(before.begin() + first, before.begin() + last))
          << "sequence " << s << ", logits at positions 0 … " << t;
    }
  }
}

}  // namespace
}  // namespace a07_associative_recall
