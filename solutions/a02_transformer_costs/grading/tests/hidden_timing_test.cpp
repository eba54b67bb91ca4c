// Hidden tests for parameters.hpp and timing.hpp, on models, hardware and
// inputs drawn at grading time. Every expected value comes from
// hidden_formulas.hpp or a literal, never from another of the student's functions.
#include <cmath>
#include <limits>
#include <random>

#include "a02_transformer_costs/a02_transformer_costs.hpp"
#include "hidden_formulas.hpp"
#include "hidden_models.hpp"
#include "rooflab/testing.hpp"

namespace a02_transformer_costs {
namespace {

double draw(std::mt19937_64& random, double lo_exponent, double hi_exponent) {
  return std::pow(10.0, std::uniform_real_distribution<double>(lo_exponent, hi_exponent)(random));
}

Hardware random_hardware(std::mt19937_64& random) { return {"drawn", draw(random, 10, 16), draw(random, 8, 14)}; }

TEST(ParametersHidden, TheGpt2FamilyAndLlama3) {
  EXPECT_DOUBLE_EQ(parameter_count(gpt2_sized(24, 1024, 16)), 354823168.0);  // medium
  EXPECT_DOUBLE_EQ(parameter_count(gpt2_sized(36, 1280, 20)), 774030080.0);  // large
  const TransformerConfig llama = llama3_8b();
  EXPECT_DOUBLE_EQ(parameter_count(llama), 8030261248.0);
  // Read per pass: the layers' linear weights and the LM head (embedding rows are looked up).
  EXPECT_DOUBLE_EQ(weight_bytes(llama),
                   2 * (32 * (4096.0 * 6144 + 4096.0 * 4096 + 3 * 4096.0 * 14336) + 128256.0 * 4096));
}

TEST(ParametersHidden, ParameterCountOfModelsDrawnAtGradingTime) {
  std::mt19937_64 random(rooflab::testing::seed() ^ 0x31ull);
  for (int trial = 0; trial < 20; ++trial) {
    const TransformerConfig m = expected::random_model(random);
    EXPECT_REL_NEAR(parameter_count(m), expected::parameter_count(m), 1e-12) << "trial " << trial;
  }
}

TEST(ParametersHidden, WeightBytesOfModelsDrawnAtGradingTime) {
  std::mt19937_64 random(rooflab::testing::seed() ^ 0x32ull);
  for (int trial = 0; trial < 20; ++trial) {
    const TransformerConfig m = expected::random_model(random);
    EXPECT_REL_NEAR(weight_bytes(m), expected::weight_bytes(m), 1e-12) << "trial " << trial;
  }
}

TEST(ParametersHidden, KvCacheOfModelsDrawnAtGradingTime) {
  std::mt19937_64 random(rooflab::testing::seed() ^ 0x33ull);
  std::uniform_int_distribution<int> batch(1, 256), length(1, 131072);
  for (int trial = 0; trial < 20; ++trial) {
    const TransformerConfig m = expected::random_model(random);
    const double b = batch(random), n = length(random);
    EXPECT_REL_NEAR(kv_cache_bytes(m, b, n), expected::kv_cache_bytes(m, b, n), 1e-12) << "trial " << trial;
  }
}

TEST(ParametersHidden, KvCacheWithGqaAndOtherPrecisions) {
  TransformerConfig m = gpt2_sized(32, 4096, 32);
  m.num_kv_heads = 8;
  m.bytes_per_element = 1;
  EXPECT_DOUBLE_EQ(kv_cache_bytes(m, 3, 8192), 2.0 * 32 * 3 * 8192 * 8 * 128 * 1);
}

TEST(ParametersHidden, KvCacheNamesTheBadInput) {
  const rooflab::testing::ArgumentNames names{"num_layers", "d_model",    "num_heads",   "num_kv_heads",
                                              "d_ff",       "vocab_size", "context_len", "bytes_per_element",
                                              "batch",      "seq_len"};
  TransformerConfig m = gpt2_sized(32, 4096, 32);
  EXPECT_INVALID_ARGUMENT(kv_cache_bytes(m, std::numeric_limits<double>::infinity(), 8), "batch");
  m.num_layers = 0;
  EXPECT_INVALID_ARGUMENT(kv_cache_bytes(m, 1, 8), "num_layers");
}

TEST(TimingHidden, RandomCostsOnRandomHardware) {
  std::mt19937_64 random(rooflab::testing::seed());
  for (int trial = 0; trial < 20; ++trial) {
    const Cost cost{draw(random, 6, 12), draw(random, 4, 10)};
    const Hardware hw = random_hardware(random);
    const double compute = cost.flops / hw.peak_flops_per_s, memory = cost.bytes / hw.bandwidth_bytes_per_s;
    if (std::fabs(compute - memory) <= 1e-9 * memory) continue;  // a tie: which bound is a matter of rounding
    const Timing t = roofline_time(cost, hw);
    EXPECT_REL_NEAR(t.compute_s, compute, 1e-12) << "trial " << trial;
    EXPECT_REL_NEAR(t.memory_s, memory, 1e-12) << "trial " << trial;
    EXPECT_REL_NEAR(t.time_s, std::max(compute, memory), 1e-12) << "trial " << trial;
    EXPECT_EQ(t.memory_bound, memory > compute) << "trial " << trial;
  }
}

TEST(TimingHidden, CacheSpeedupOnModelsDrawnAtGradingTime) {
  std::mt19937_64 random(rooflab::testing::seed() ^ 0x41ull);
  std::uniform_int_distribution<int> batch(1, 64), length(2, 8192);
  for (int trial = 0; trial < 20; ++trial) {
    const TransformerConfig m = expected::random_model(random);
    const Hardware hw = random_hardware(random);
    const double b = batch(random), n = length(random);
    EXPECT_REL_NEAR(cached_decode_speedup(m, b, n, hw), expected::cached_decode_speedup(m, b, n, hw), 1e-9)
        << "trial " << trial;
  }
}

TEST(TimingHidden, CacheSpeedupGrowsWithTheSequence) {
  // The expected values grow with N; the student's must equal them.
  double previous = 0;
  for (double n : {32.0, 128.0, 512.0, 1024.0}) {
    const double want = expected::cached_decode_speedup(gpt2_xl(), 1, n, lab_t4());
    EXPECT_GT(want, previous);
    EXPECT_REL_NEAR(cached_decode_speedup(gpt2_xl(), 1, n, lab_t4()), want, 1e-9) << "N = " << n;
    previous = want;
  }
}

TEST(TimingHidden, CacheSpeedupNamesTheBadInput) {
  // Everything cached_decode_speedup checks: the model's fields, batch and
  // seq_len (or the passes' fields they fill), the costs and the hardware.
  const rooflab::testing::ArgumentNames names{"num_layers", "d_model",    "num_heads",        "num_kv_heads",
                                              "d_ff",       "vocab_size", "context_len",      "bytes_per_element",
                                              "batch",      "seq_len",    "new_tokens",       "context",
                                              "flops",      "bytes",      "peak_flops_per_s", "bandwidth_bytes_per_s"};
  EXPECT_INVALID_ARGUMENT(cached_decode_speedup(gpt2_xl(), 1, 1024, Hardware{"x", 1e12, -1}), "bandwidth_bytes_per_s");
}

TEST(TimingHidden, DecodeBreakdownOnModelsDrawnAtGradingTime) {
  std::mt19937_64 random(rooflab::testing::seed() ^ 0x42ull);
  std::uniform_int_distribution<int> length(1, 32768);
  for (int trial = 0; trial < 20; ++trial) {
    const TransformerConfig m = expected::random_model(random);
    const Hardware hw = random_hardware(random);
    const double n = length(random);
    const expected::Flops step = expected::model(m, decode(1, n));
    const double weights = expected::weight_bytes(m) / hw.bandwidth_bytes_per_s;
    const double memory = step.bytes / hw.bandwidth_bytes_per_s, compute = step.flops / hw.peak_flops_per_s;
    const DecodeTime time = decode_time_breakdown(m, n, hw);
    EXPECT_REL_NEAR(time.weights_s, weights, 1e-12) << "trial " << trial;
    EXPECT_NEAR(time.other_memory_s, memory - weights, 1e-9 * memory) << "trial " << trial;
    EXPECT_REL_NEAR(time.compute_s, compute, 1e-12) << "trial " << trial;
    EXPECT_REL_NEAR(time.step_s, std::max(memory, compute), 1e-12) << "trial " << trial;
  }
}

TEST(TimingHidden, DecodeBreakdownAddsUpOnOtherHardware) {
  const Hardware fast{"fast memory", 1e12, 1e13};  // compute-bound on purpose
  const expected::Flops step = expected::model(gpt2_xl(), decode(1, 100));
  const double weights = expected::weight_bytes(gpt2_xl()) / 1e13;
  const DecodeTime time = decode_time_breakdown(gpt2_xl(), 100, fast);
  EXPECT_REL_NEAR(time.compute_s, step.flops / 1e12, 1e-12);
  EXPECT_REL_NEAR(time.step_s, step.flops / 1e12, 1e-12);
  EXPECT_REL_NEAR(time.weights_s, weights, 1e-12);
  EXPECT_REL_NEAR(time.other_memory_s, step.bytes / 1e13 - weights, 1e-9);
}

// α in [0, 1), γ from 1 to 16, a draft costing up to twice the target. The
// two functions are tested apart so that a wrong speculative_speedup costs
// expected_tokens_per_pass's public points nothing.
TEST(SpeculativeHidden, TokensPerPassOnInputsDrawnAtGradingTime) {
  std::mt19937_64 random(rooflab::testing::seed() ^ 0x51ull);
  std::uniform_real_distribution<double> alpha(0, 1);
  std::uniform_int_distribution<int> gamma(1, 16);
  for (int trial = 0; trial < 25; ++trial) {
    const double a = alpha(random), g = gamma(random);
    EXPECT_REL_NEAR(expected_tokens_per_pass(a, g), expected::tokens_per_pass(a, g), 1e-9)
        << "trial " << trial << ": alpha " << a << ", gamma " << g;
  }
}

TEST(SpeculativeHidden, SpeedupOnInputsDrawnAtGradingTime) {
  std::mt19937_64 random(rooflab::testing::seed() ^ 0x52ull);
  std::uniform_real_distribution<double> alpha(0, 1), cost(0, 2);
  std::uniform_int_distribution<int> gamma(1, 16);
  for (int trial = 0; trial < 25; ++trial) {
    const double a = alpha(random), g = gamma(random), c = cost(random);
    EXPECT_REL_NEAR(speculative_speedup(a, g, c), expected::tokens_per_pass(a, g) / (g * c + 1), 1e-9)
        << "trial " << trial << ": alpha " << a << ", gamma " << g << ", draft cost " << c;
  }
}

TEST(SpeculativeHidden, Limits) {
  for (double gamma : {1.0, 3.0, 7.0}) {
    EXPECT_DOUBLE_EQ(expected_tokens_per_pass(0.0, gamma), 1.0);
    EXPECT_REL_NEAR(expected_tokens_per_pass(1.0, gamma), gamma + 1, 1e-12);
    EXPECT_REL_NEAR(expected_tokens_per_pass(0.999999, gamma), gamma + 1, 1e-4);
    EXPECT_REL_NEAR(speculative_speedup(0.5, gamma, 1.0), (1 - std::pow(0.5, gamma + 1)) / 0.5 / (gamma + 1), 1e-12);
  }
  // A draft as expensive as the target never pays at α < 1: 4.0951 tokens for 5 target steps.
  EXPECT_REL_NEAR(speculative_speedup(0.9, 4, 1.0), (1 - std::pow(0.9, 5)) / 0.1 / 5, 1e-12);
}

TEST(SpeculativeHidden, RejectsBadInputsNamingThem) {
  const rooflab::testing::ArgumentNames names{"acceptance_rate", "draft_tokens", "draft_cost_ratio"};
  EXPECT_INVALID_ARGUMENT(expected_tokens_per_pass(-0.1, 4), "acceptance_rate");
  EXPECT_INVALID_ARGUMENT(expected_tokens_per_pass(std::nan(""), 4), "acceptance_rate");
  EXPECT_INVALID_ARGUMENT(expected_tokens_per_pass(0.5, 0), "draft_tokens");
  EXPECT_INVALID_ARGUMENT(speculative_speedup(0.5, 2, std::numeric_limits<double>::infinity()), "draft_cost_ratio");
}

}  // namespace
}  // namespace a02_transformer_costs
