// Hidden tests for parameters.hpp and timing.hpp.
#include <cmath>
#include <limits>
#include <random>

#include "a02_transformer_costs/a02_transformer_costs.hpp"
#include "hidden_models.hpp"
#include "rooflab/testing.hpp"

namespace a02_transformer_costs {
namespace {

TEST(ParametersHidden, TheGpt2FamilyAndLlama3) {
  EXPECT_DOUBLE_EQ(parameter_count(gpt2_sized(24, 1024, 16)), 354823168.0);  // medium
  EXPECT_DOUBLE_EQ(parameter_count(gpt2_sized(36, 1280, 20)), 774030080.0);  // large
  const TransformerConfig llama = llama3_8b();
  EXPECT_DOUBLE_EQ(parameter_count(llama), 8030261248.0);
  // Read per pass: the layers' linear weights and the LM head (embedding rows are looked up).
  EXPECT_DOUBLE_EQ(weight_bytes(llama),
                   2 * (32 * (4096.0 * 6144 + 4096.0 * 4096 + 3 * 4096.0 * 14336) + 128256.0 * 4096));
}

TEST(ParametersHidden, KvCacheWithGqaAndOtherPrecisions) {
  TransformerConfig m = gpt2_sized(32, 4096, 32);
  m.num_kv_heads = 8;
  m.bytes_per_element = 1;
  EXPECT_DOUBLE_EQ(kv_cache_bytes(m, 3, 8192), 2.0 * 32 * 3 * 8192 * 8 * 128 * 1);
  EXPECT_INVALID_ARGUMENT(kv_cache_bytes(m, std::numeric_limits<double>::infinity(), 8), "batch");
  m.num_layers = 0;
  EXPECT_INVALID_ARGUMENT(kv_cache_bytes(m, 1, 8), "num_layers");
}

TEST(TimingHidden, RandomCostsOnRandomHardware) {
  std::mt19937_64 random(rooflab::testing::seed());
  std::uniform_real_distribution<double> exponent(0, 6);
  for (int trial = 0; trial < 20; ++trial) {
    const Cost cost{std::pow(10.0, 6 + exponent(random)), std::pow(10.0, 4 + exponent(random))};
    const Hardware hw{"random", std::pow(10.0, 10 + exponent(random)), std::pow(10.0, 8 + exponent(random))};
    const Timing t = roofline_time(cost, hw);
    EXPECT_REL_NEAR(t.compute_s, cost.flops / hw.peak_flops_per_s, 1e-12) << "seed " << rooflab::testing::seed();
    EXPECT_REL_NEAR(t.memory_s, cost.bytes / hw.bandwidth_bytes_per_s, 1e-12) << "seed " << rooflab::testing::seed();
    EXPECT_EQ(t.time_s, std::max(t.compute_s, t.memory_s));
    EXPECT_EQ(t.memory_bound, t.memory_s > t.compute_s);
  }
}

TEST(TimingHidden, CacheSpeedupGrowsWithTheSequence) {
  double previous = 0;
  for (double n : {32.0, 128.0, 512.0, 1024.0}) {
    const double speedup = cached_decode_speedup(gpt2_xl(), 1, n, lab_t4());
    EXPECT_GT(speedup, previous) << "N = " << n;
    previous = speedup;
  }
  EXPECT_GT(cached_decode_speedup(gpt2_xl(), 64, 1024, lab_t4()), 1);
  EXPECT_INVALID_ARGUMENT(cached_decode_speedup(gpt2_xl(), 1, 1024, Hardware{"x", 1e12, -1}), "bandwidth_bytes_per_s");
}

TEST(TimingHidden, DecodeBreakdownAddsUpOnOtherHardware) {
  const Hardware fast{"fast memory", 1e12, 1e13};  // compute-bound on purpose
  const DecodeTime time = decode_time_breakdown(gpt2_xl(), 100, fast);
  const Cost step = model_cost(gpt2_xl(), decode(1, 100));
  EXPECT_REL_NEAR(time.compute_s, step.flops / 1e12, 1e-12);
  EXPECT_REL_NEAR(time.step_s, time.compute_s, 1e-12);
  EXPECT_REL_NEAR(time.weights_s + time.other_memory_s, step.bytes / 1e13, 1e-12);
  EXPECT_GT(time.other_memory_s, 0);
}

TEST(SpeculativeHidden, LimitsAndMonotonicity) {
  for (double gamma : {1.0, 3.0, 7.0}) {
    EXPECT_DOUBLE_EQ(expected_tokens_per_pass(0.0, gamma), 1.0);
    EXPECT_REL_NEAR(expected_tokens_per_pass(1.0, gamma), gamma + 1, 1e-12);
    EXPECT_REL_NEAR(expected_tokens_per_pass(0.999999, gamma), gamma + 1, 1e-4);
    EXPECT_REL_NEAR(speculative_speedup(0.5, gamma, 1.0), (1 - std::pow(0.5, gamma + 1)) / 0.5 / (gamma + 1), 1e-12);
  }
  double previous = 0;
  for (double alpha = 0.0; alpha <= 1.0; alpha += 0.125) {
    const double tokens = expected_tokens_per_pass(alpha, 4);
    EXPECT_GT(tokens, previous);
    previous = tokens;
  }
  // A draft as expensive as the target never pays at α < 1.
  EXPECT_LT(speculative_speedup(0.9, 4, 1.0), 1.0);
  EXPECT_INVALID_ARGUMENT(expected_tokens_per_pass(-0.1, 4), "acceptance_rate");
  EXPECT_INVALID_ARGUMENT(expected_tokens_per_pass(std::nan(""), 4), "acceptance_rate");
  EXPECT_INVALID_ARGUMENT(expected_tokens_per_pass(0.5, 0), "draft_tokens");
  EXPECT_INVALID_ARGUMENT(speculative_speedup(0.5, 2, std::numeric_limits<double>::infinity()), "draft_cost_ratio");
}

}  // namespace
}  // namespace a02_transformer_costs
