// a06's provided transformer decodes a batch with other kernels than a single
// sequence: register tiles of up to 8 rows, several of them from 9 rows on,
// in the linear layers and in the LM head alike (whose matrix is the token
// embedding, transposed). Whatever the batch, each sequence's logits must be
// what recomputing it alone from scratch gives (full_logits), also when some
// sequences sit a step out. The shapes below leave remainders everywhere,
// whatever the thread count: output widths of whole vectors that are not
// whole tiles and of a part vector (d_model 40, d_ff 88 and 80 for q, k and
// v: 2.5, 5.5 and 5 vectors of 16), a vocabulary that is not whole tiles
// (50 = 48 + 2), and batches of a row tile and a row (9), two tiles and a
// row (17), four tiles (32) and five (40).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <tuple>
#include <vector>

#include "a06_kv_cache_decode/transformer.hpp"
#include "omp_threads_testing.hpp"
#include "rooflab/testing.hpp"

namespace a06_kv_cache_decode {
namespace {

// Logits from the cache and from scratch differ only in rounding (as in a06's generate_test.cpp).
constexpr rooflab::testing::Tolerance kLogits{1e-4, 1e-3};

ModelConfig small_model() {
  ModelConfig config;
  config.layers = 2;
  config.d_model = 40;
  config.heads = 4;
  config.kv_heads = 2;
  config.d_ff = 88;
  config.vocab = 50;
  config.context = 16;
  return config;
}

class BatchedStep : public ::testing::TestWithParam<std::int64_t> {};

TEST_P(BatchedStep, EverySequenceMatchesRecomputingItAlone) {
  const std::int64_t batch = GetParam();
  const Model model = random_model(small_model(), 11);
  DecodeState state = make_decode_state(model.config, batch, 8, false);
  std::vector<std::vector<std::int64_t>> sequences(static_cast<std::size_t>(batch));
  for (std::int64_t position = 0; position < 3; ++position) {
    std::vector<std::int64_t> tokens(static_cast<std::size_t>(batch));
    for (std::int64_t s = 0; s < batch; ++s)  // at the second step every third sequence sits out
      tokens[static_cast<std::size_t>(s)] =
          position == 1 && s % 3 == 0 ? -1 : (7 * s + 13 * position) % model.config.vocab;
    const std::vector<float> logits = step(model, state, tokens);
    ASSERT_EQ(logits.size(), static_cast<std::size_t>(batch * model.config.vocab));
    for (std::int64_t s = 0; s < batch; ++s) {
      const std::int64_t token = tokens[static_cast<std::size_t>(s)];
      const std::vector<float> row(logits.begin() + s * model.config.vocab,
                                   logits.begin() + (s + 1) * model.config.vocab);
      if (token == -1) {
        EXPECT_EQ(row, std::vector<float>(row.size(), 0.0f)) << "sequence " << s << " sat out, step " << position;
        continue;
      }
      sequences[static_cast<std::size_t>(s)].push_back(token);
      EXPECT_ALL_CLOSE_WITHIN(row, full_logits(model, sequences[static_cast<std::size_t>(s)]), kLogits)
          << "batch " << batch << ", sequence " << s << ", step " << position;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Transformer, BatchedStep, ::testing::Values(1, 9, 17, 32, 40));

// At batch 1 each thread of a linear layer streams its share of W's blocks
// (weight_layout.hpp), a few side by side at a time, and takes the others'
// last ones from the far end once its own are done, each into the partial
// sum of the blocks' chunk; the threads split the partials' sum by columns,
// and the last one adds the columns that fill no whole vector. Odd thread
// counts share the small model's few blocks unevenly, and (7 threads) leave
// some threads no block of their own, or no column of the sum, at all.
// (transformer_tiled_test.cpp holds wider shapes to a row-major forward
// pass.)
class ThreadCount : public ::testing::TestWithParam<int> {};

TEST_P(ThreadCount, ABatchOfOneMatchesRecomputingItAlone) {
  const rooflab::testing::ScopedOmpThreads thread_count(GetParam());
  const Model model = random_model(small_model(), 12);
  DecodeState state = make_decode_state(model.config, 1, 8, false);
  std::vector<std::int64_t> sequence;
  for (const std::int64_t token : {3, 41, 7, 19}) {
    sequence.push_back(token);
    EXPECT_ALL_CLOSE_WITHIN(step(model, state, {token}), full_logits(model, sequence), kLogits)
        << GetParam() << " threads, " << sequence.size() << " tokens";
  }
}

// Which thread took which blocks changes from run to run; the sums do not:
// a chunk's partial is its own, and the chunks' partials are added in one
// order. A batch of one's logits are the same bits on one thread and on 2,
// 3 or 7, run after run. (d_ff 300: the MLP's second layer has three
// chunks of rows, 128 + 128 + 44, whose partials a thread could add in
// another order.)
TEST_P(ThreadCount, ABatchOfOnesLogitsAreTheSameBitsAsOnOneThread) {
  ModelConfig config = small_model();
  config.d_ff = 300;
  const Model model = random_model(config, 14);
  const auto logits = [&](int threads) {
    const rooflab::testing::ScopedOmpThreads thread_count(threads);
    DecodeState state = make_decode_state(model.config, 1, 8, false);
    std::vector<float> all;
    for (const std::int64_t token : {5, 30, 2, 44, 17}) {
      const std::vector<float> step_logits = step(model, state, {token});
      all.insert(all.end(), step_logits.begin(), step_logits.end());
    }
    return all;
  };
  const std::vector<float> one_thread = logits(1);
  for (int run = 0; run < 3; ++run) EXPECT_EQ(logits(GetParam()), one_thread) << GetParam() << " threads, run " << run;
}

INSTANTIATE_TEST_SUITE_P(Transformer, ThreadCount, ::testing::Values(1, 2, 3, 7));

// A model held in fp16 or bf16 (WeightFormat) is the fp32 model on rounded
// weights, read by the same kernels in the same order: every batch's logits
// (the stream at 1, one register tile of rows at 9, several from 17 on)
// are bitwise the fp32 model's on the weights widened back, and its weights
// take half the bytes of the matrices and the token embedding.
class HeldFormat : public ::testing::TestWithParam<std::tuple<WeightFormat, std::int64_t>> {};

TEST_P(HeldFormat, LogitsAreTheFp32ModelsOnTheRoundedWeights) {
  const auto [format, batch] = GetParam();
  const Model held = with_weight_format(random_model(small_model(), 13), format);
  ASSERT_EQ(held.format, format);
  EXPECT_TRUE(held.token_embedding.empty() && held.layers.front().qkv.empty()) << "the fp32 copies are dropped";
  const Model widened = with_weight_format(held, WeightFormat::f32);
  EXPECT_LT(weight_bytes(held), weight_bytes(widened) * 6 / 10);
  // Each value held in 16 bits is exactly two bytes fewer than fp32's.
  EXPECT_EQ(values_held_in_16_bits(widened), 0u);
  EXPECT_EQ(weight_bytes(widened) - weight_bytes(held), 2 * values_held_in_16_bits(held));
  DecodeState held_state = make_decode_state(held.config, batch, 8, batch > 16);
  DecodeState widened_state = make_decode_state(held.config, batch, 8, batch > 16);
  for (std::int64_t position = 0; position < 3; ++position) {
    std::vector<std::int64_t> tokens(static_cast<std::size_t>(batch));
    for (std::int64_t s = 0; s < batch; ++s) tokens[static_cast<std::size_t>(s)] = (5 * s + 11 * position + 1) % 50;
    EXPECT_EQ(step(held, held_state, tokens), step(widened, widened_state, tokens))
        << "batch " << batch << ", step " << position;
  }
  EXPECT_EQ(full_logits(held, {4, 9, 2}), full_logits(widened, {4, 9, 2}));
}

INSTANTIATE_TEST_SUITE_P(Transformer, HeldFormat,
                         ::testing::Combine(::testing::Values(WeightFormat::f16, WeightFormat::bf16),
                                            ::testing::Values(1, 9, 17, 32, 40)));

TEST(HeldFormat, RoundsToNearestAndWidensBackExactly) {
  Model model = random_model(small_model(), 14);
  const std::vector<float> original = model.layers.front().up;
  const Model half = with_weight_format(model, WeightFormat::f16);
  const Model back = with_weight_format(half, WeightFormat::f32);
  ASSERT_EQ(back.layers.front().up.size(), original.size());
  for (std::size_t i = 0; i < original.size(); ++i) {
    const float rounded = back.layers.front().up[i];
    // fp16 keeps 11 significant bits: within half an ulp, 2^−11 relative.
    ASSERT_LE(std::abs(rounded - original[i]), std::abs(original[i]) * 0x1p-11f + 0x1p-25f) << i;
  }
  // Through fp16 again: nothing moves.
  EXPECT_EQ(with_weight_format(back, WeightFormat::f16).layers.front().up_16, half.layers.front().up_16);
  EXPECT_THROW(with_weight_format(model, static_cast<WeightFormat>(7)), std::invalid_argument);
}

}  // namespace
}  // namespace a06_kv_cache_decode
