// Hidden tests: the causal mask, attention forward and causality on lengths,
// shapes, masks and perturbations drawn from the grader's seed: B, H up to
// 3, N from 1 to 48, head dimensions from 1 to 40 (most not a multiple of 8).
#include <algorithm>
#include <random>
#include <tuple>

#include "../../tests/recall_testing.hpp"

namespace a07_associative_recall {
namespace {

using checks::expect_forward_matches_reference;
using checks::rows_through;
using checks::shape_text;
using checks::with_later_rows_redrawn;
using rooflab::testing::pick;

TEST(HiddenCausalMask, SeededLengths) {
  std::mt19937_64 engine(rooflab::testing::seed() ^ 0x3a5cull);
  for (const std::int64_t n : {std::int64_t{1}, pick(engine, 2, 9), pick(engine, 10, 99), pick(engine, 100, 300)}) {
    const std::vector<float> mask = causal_mask(n);
    EXPECT_EQ(mask, reference::causal(n)) << "n = " << n;
  }
}

// A (B, H, N, d) shape with dv beside it, N = 1 when asked.
struct Shape {
  std::int64_t b, h, n, d, dv;
};

Shape draw_shape(std::mt19937_64& engine, std::int64_t max_n, std::int64_t max_d, bool one_token) {
  return {pick(engine, 1, 3), pick(engine, 1, 3), one_token ? 1 : pick(engine, 2, max_n), pick(engine, 1, max_d),
          pick(engine, 1, max_d)};
}

std::vector<float> draw_mask(std::int64_t n, bool causal, std::mt19937_64& engine) {
  return causal ? reference::causal(n) : reference::random_additive(n, engine());
}

TEST(HiddenAttentionForward, SeededShapesMatchTheReference) {
  std::mt19937_64 engine(rooflab::testing::seed() ^ 0xf0a7ull);
  for (int draw = 0; draw < 8; ++draw) {
    const Shape s = draw_shape(engine, 48, 40, draw == 0);
    const bool causal = draw % 2 == 0;
    const Tensor4 q = rooflab::random_normal(s.b, s.h, s.n, s.d, engine()),
                  k = rooflab::random_normal(s.b, s.h, s.n, s.d, engine()),
                  v = rooflab::random_normal(s.b, s.h, s.n, s.dv, engine());
    expect_forward_matches_reference(q, k, v, draw_mask(s.n, causal, engine),
                                     shape_text(q, v, causal ? "causal" : "random additive"));
  }
}

TEST(HiddenAttentionForward, SeededLargeScoresStayFinite) {
  // Whole-number q, k and finite mask entries with d = 4 or 16: every score is
  // exact in fp32 (docs: rooflab::random_whole_numbers), up to several hundred.
  std::mt19937_64 engine(rooflab::testing::seed() ^ 0x1a76ull);
  for (const std::int64_t d : {4, 16}) {
    const std::int64_t n = pick(engine, 2, 32), heads = pick(engine, 1, 3), dv = pick(engine, 1, 24);
    const auto scale = static_cast<float>(pick(engine, 10, 30));
    const Tensor4 q = rooflab::random_whole_numbers(1, heads, n, d, engine(), scale),
                  k = rooflab::random_whole_numbers(1, heads, n, d, engine(), scale),
                  v = rooflab::random_normal(1, heads, n, dv, engine());
    std::vector<float> mask = reference::random_additive(n, engine(), 50.0f);
    for (float& m : mask) m = std::nearbyint(m);  // −∞ stays −∞
    expect_forward_matches_reference(
        q, k, v, mask,
        shape_text(q, v, "whole-number") + ", scores ~ " + std::to_string(static_cast<int>(scale * scale)));
    expect_forward_matches_reference(q, k, v, reference::causal(n), shape_text(q, v, "causal"));
  }
}

TEST(HiddenCausality, SeededPerturbationsOfAttention) {
  std::mt19937_64 engine(rooflab::testing::seed() ^ 0xca05ull);
  for (int draw = 0; draw < 3; ++draw) {
    const Shape s = draw_shape(engine, 40, 24, false);
    const std::int64_t t = pick(engine, 0, s.n - 2);
    SCOPED_TRACE("B=" + std::to_string(s.b) + ", H=" + std::to_string(s.h) + ", N=" + std::to_string(s.n) +
                 ", d=" + std::to_string(s.d) + ", dv=" + std::to_string(s.dv) + ", rows after " + std::to_string(t) +
                 " redrawn");
    const Tensor4 q = rooflab::random_normal(s.b, s.h, s.n, s.d, engine()),
                  k = rooflab::random_normal(s.b, s.h, s.n, s.d, engine()),
                  v = rooflab::random_normal(s.b, s.h, s.n, s.dv, engine());
    const Tensor4 q2 = with_later_rows_redrawn(q, t, engine()), k2 = with_later_rows_redrawn(k, t, engine()),
                  v2 = with_later_rows_redrawn(v, t, engine());
    const std::vector<float> mask = reference::causal(s.n);
    const AttentionForward before = attention_forward(q, k, v, mask), after = attention_forward(q2, k2, v2, mask);
    const std::array<std::int64_t, 4> output_shape{s.b, s.h, s.n, s.dv}, probs_shape{s.b, s.h, s.n, s.n};
    for (const AttentionForward* result : {&before, &after}) {
      ASSERT_EQ(result->output.shape, output_shape);
      ASSERT_EQ(result->probs.shape, probs_shape);
    }
    EXPECT_EQ(rows_through(after.output, t), rows_through(before.output, t)) << "output";
    EXPECT_EQ(rows_through(after.probs, t), rows_through(before.probs, t)) << "probs";

    Tensor4 d_output = rooflab::random_normal(s.b, s.h, s.n, s.dv, engine());
    for (std::int64_t bh = 0; bh < d_output.matrices(); ++bh)
      std::fill(d_output.row(bh, t + 1), d_output.row(bh, s.n), 0.0f);
    const auto gradients = [&](const Tensor4& q_in, const Tensor4& k_in, const Tensor4& v_in) {
      const Tensor4 probs = reference::probs_as_float(reference::attention(q_in, k_in, v_in, mask), q_in);
      return attention_backward(q_in, k_in, v_in, probs, d_output);
    };
    const AttentionGradients g1 = gradients(q, k, v), g2 = gradients(q2, k2, v2);
    for (const auto& [name, got, expected, shape] :
         {std::tuple{"dq", &g2.dq, &g1.dq, q.shape}, std::tuple{"dk", &g2.dk, &g1.dk, k.shape},
          std::tuple{"dv", &g2.dv, &g1.dv, v.shape}}) {
      ASSERT_EQ(got->shape, shape) << name;
      ASSERT_EQ(expected->shape, shape) << name;
      EXPECT_EQ(rows_through(*got, t), rows_through(*expected, t)) << name;
    }
  }
}

TEST(HiddenCausality, SeededTokensOfTheModel) {
  std::mt19937_64 engine(rooflab::testing::seed() ^ 0x70c5ull);
  ModelConfig config;
  config.layers = pick(engine, 1, 3);
  config.heads = std::int64_t{1} << pick(engine, 0, 2);
  config.d_model = config.heads * pick(engine, 3, 12);
  const Model model = init_model(config, engine());
  const std::int64_t n = config.task.length(), vocab = config.task.vocab(), sequences = pick(engine, 1, 4);
  const RecallBatch batch = make_recall_batch(config.task, Split::test, engine(), sequences);
  const std::vector<float> before = logits_at_every_position(model, batch.tokens);
  ASSERT_EQ(before.size(), static_cast<std::size_t>(sequences * n * vocab));
  const std::int64_t t = pick(engine, 0, n - 2);
  std::vector<std::int64_t> changed = batch.tokens;
  for (std::int64_t s = 0; s < sequences; ++s)
    for (std::int64_t i = t + 1; i < n; ++i) changed[static_cast<std::size_t>(s * n + i)] = pick(engine, 0, vocab - 1);
  const std::vector<float> after = logits_at_every_position(model, changed);
  ASSERT_EQ(after.size(), before.size());
  for (std::int64_t s = 0; s < sequences; ++s) {
    const auto first = static_cast<std::ptrdiff_t>(s * n * vocab), last = first + (t + 1) * vocab;
    EXPECT_EQ(std::vector<float>(after.begin() + first, after.begin() + last),
              std::vector<float>(before.begin() + first, before.begin() + last))
        << config.layers << " layers, " << config.heads << " heads, d_model " << config.d_model << ": sequence " << s
        << ", logits at positions 0 … " << t;
  }
}

}  // namespace
}  // namespace a07_associative_recall
