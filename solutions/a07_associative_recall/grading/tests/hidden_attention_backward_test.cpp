// Hidden tests: attention backward against central finite differences on
// shapes, masks and upstream gradients drawn from the grader's seed (N from 1
// to 14 and head dimensions from 1 to 20, small enough to differentiate every
// input in fp64 for each of the sweep's seeds).
#include <random>

#include "../../tests/recall_testing.hpp"

namespace a07_associative_recall {
namespace {

using rooflab::testing::pick;

TEST(HiddenAttentionBackward, SeededShapesMatchFiniteDifferences) {
  std::mt19937_64 engine(rooflab::testing::seed() ^ 0xbac4ull);
  for (int draw = 0; draw < 5; ++draw) {
    const std::int64_t b = pick(engine, 1, 2), h = pick(engine, 1, 2), n = draw == 0 ? 1 : pick(engine, 2, 14),
                       d = pick(engine, 1, 20), dv = pick(engine, 1, 20);
    const bool causal = draw % 2 == 1;
    const std::vector<float> mask = causal ? reference::causal(n) : reference::random_additive(n, engine());
    const Tensor4 q = rooflab::random_normal(b, h, n, d, engine()), k = rooflab::random_normal(b, h, n, d, engine()),
                  v = rooflab::random_normal(b, h, n, dv, engine()),
                  d_output = rooflab::random_normal(b, h, n, dv, engine());
    checks::expect_backward_matches_finite_differences(q, k, v, mask, d_output,
                                                       checks::shape_text(q, v, causal ? "causal" : "random additive"));
  }
}

}  // namespace
}  // namespace a07_associative_recall
