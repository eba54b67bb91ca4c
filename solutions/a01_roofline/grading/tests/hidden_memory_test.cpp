// Hidden tests, part 1: memory.hpp. Suites end in "Hidden" (see rubric.toml).
// Each expected value is the contract's formula written out here, never
// another of the student's answers, so code that is wrong but consistent with
// itself (returns 0 everywhere, say) fails. The *DrawnAtGradingTime tests gate
// the public tests' points: their inputs come from the grading-time seed, so a
// table of the public answers cannot pass them.
#include <cmath>
#include <limits>
#include <random>
#include <utility>

#include "a01_roofline/memory.hpp"
#include "rooflab/testing.hpp"

namespace a01_roofline {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// A whole number spread log-uniformly over [scale, 1000·scale].
double draw(std::mt19937_64& engine, double scale) {
  return std::round(scale * std::pow(10.0, std::uniform_real_distribution<double>(0, 3)(engine)));
}

// Bytes per element from 0.5 (int4) to 8 in steps of a half.
double draw_bytes(std::mt19937_64& engine) { return 0.5 * std::uniform_int_distribution<int>(1, 16)(engine); }

double expected_kv_cache_bytes(const KvCacheShape& s) {
  return s.batch * s.seq_len * s.num_layers * 2 * s.num_kv_heads * s.head_dim * s.bytes_per_element;
}

TEST(MemoryHidden, EveryDTypeScalesWeights) {
  const std::pair<DType, double> sizes[] = {{DType::fp32, 4}, {DType::fp16, 2}, {DType::bf16, 2},
                                            {DType::fp8, 1},  {DType::int8, 1}, {DType::int4, 0.5}};
  std::mt19937_64 engine(rooflab::testing::seed());
  for (const auto& [dtype, bytes] : sizes) {
    EXPECT_EQ(bytes_per_element(dtype), bytes) << "dtype " << static_cast<int>(dtype);
    const double params = draw(engine, 1e8);
    EXPECT_REL_NEAR(model_memory_bytes(params, dtype), params * bytes, 1e-12)
        << "dtype " << static_cast<int>(dtype) << ", seed " << rooflab::testing::seed();
  }
  EXPECT_REL_NEAR(model_memory_bytes(70e9, DType::fp32), 280e9, 1e-12);
  EXPECT_REL_NEAR(model_memory_bytes(1e9, DType::fp8), 1e9, 1e-12);
}

TEST(MemoryHidden, ExtremeMagnitudes) {
  EXPECT_REL_NEAR(model_memory_bytes(1.0, 0.5), 0.5, 1e-15);
  EXPECT_REL_NEAR(model_memory_bytes(1e15, 4.0), 4e15, 1e-15);
  EXPECT_REL_NEAR(max_decode_tokens_per_s(1e3, 8e12), 8e9, 1e-15);
  EXPECT_REL_NEAR(max_decode_tokens_per_s(1.6e12, 3.2e11), 0.2, 1e-15);
}

TEST(MemoryHidden, NonFiniteInputsRejected) {
  {
    const rooflab::testing::ArgumentNames names{"num_params", "bytes_per_param"};
    EXPECT_INVALID_ARGUMENT(model_memory_bytes(kInf, 2.0), "num_params");
    EXPECT_INVALID_ARGUMENT(model_memory_bytes(7e9, kNaN), "bytes_per_param");
  }
  {
    const rooflab::testing::ArgumentNames names{"bytes_per_token", "bandwidth_bytes_per_s"};
    EXPECT_INVALID_ARGUMENT(max_decode_tokens_per_s(kNaN, 1e12), "bytes_per_token");
    EXPECT_INVALID_ARGUMENT(max_decode_tokens_per_s(1e9, kInf), "bandwidth_bytes_per_s");
  }
}

TEST(MemoryHidden, KvCacheGqaUsesKvHeads) {
  // Llama-3-8B-like: 32 layers, 8 KV heads of 128, batch 4, 8192 tokens, bf16.
  EXPECT_REL_NEAR(kv_cache_bytes({4, 8192, 32, 8, 128, 2}), 4.0 * 8192 * 32 * 2 * 8 * 128 * 2, 1e-12);
  // GQA with 8 of 32 heads stores a quarter of MHA's cache.
  const double mha = 1.0 * 4096 * 32 * 2 * 32 * 128 * 2;
  EXPECT_REL_NEAR(kv_cache_bytes({1, 4096, 32, 32, 128, 2}), mha, 1e-12);
  EXPECT_REL_NEAR(kv_cache_bytes({1, 4096, 32, 8, 128, 2}), mha / 4, 1e-12);
}

TEST(MemoryHidden, KvCacheMhaEqualsDModelForm) {
  // With kv_heads = heads: batch × seq × layers × 2 × d_model × bytes.
  for (double heads : {12.0, 25.0, 32.0, 64.0}) {
    const double head_dim = 128;
    EXPECT_REL_NEAR(kv_cache_bytes({3, 1000, 48, heads, head_dim, 2}), 3.0 * 1000 * 48 * 2 * (heads * head_dim) * 2,
                    1e-12);
  }
}

TEST(MemoryHidden, KvCacheLinearInEveryDimension) {
  const KvCacheShape base{2, 512, 16, 4, 64, 2};
  const double bytes = expected_kv_cache_bytes(base);
  EXPECT_REL_NEAR(kv_cache_bytes(base), bytes, 1e-12);
  KvCacheShape scaled = base;
  scaled.batch *= 2;
  EXPECT_REL_NEAR(kv_cache_bytes(scaled), 2 * bytes, 1e-12);
  scaled = base;
  scaled.seq_len *= 3;
  EXPECT_REL_NEAR(kv_cache_bytes(scaled), 3 * bytes, 1e-12);
  scaled = base;
  scaled.bytes_per_element = 0.5;
  EXPECT_REL_NEAR(kv_cache_bytes(scaled), bytes / 4, 1e-12);
}

TEST(MemoryHidden, KvCacheNamesEachBadField) {
  const rooflab::testing::ArgumentNames names{"batch",        "seq_len",  "num_layers",
                                              "num_kv_heads", "head_dim", "bytes_per_element"};
  EXPECT_INVALID_ARGUMENT(kv_cache_bytes({1, 0, 1, 1, 1, 2}), "seq_len");
  EXPECT_INVALID_ARGUMENT(kv_cache_bytes({1, 1, kNaN, 1, 1, 2}), "num_layers");
  EXPECT_INVALID_ARGUMENT(kv_cache_bytes({1, 1, 1, 1, -64, 2}), "head_dim");
  EXPECT_INVALID_ARGUMENT(kv_cache_bytes({1, 1, 1, 1, 64, kInf}), "bytes_per_element");
}

TEST(MemoryHidden, WeightBytesOnInputsDrawnAtGradingTime) {
  std::mt19937_64 engine(rooflab::testing::seed());
  for (int trial = 0; trial < 25; ++trial) {
    const double params = draw(engine, 1e7), bytes = draw_bytes(engine);
    EXPECT_REL_NEAR(model_memory_bytes(params, bytes), params * bytes, 1e-12)
        << "seed " << rooflab::testing::seed() << ", trial " << trial;
  }
}

TEST(MemoryHidden, DecodeSpeedLimitOnInputsDrawnAtGradingTime) {
  std::mt19937_64 engine(rooflab::testing::seed());
  for (int trial = 0; trial < 25; ++trial) {
    const double params = draw(engine, 1e7), bytes_per_param = draw_bytes(engine), bandwidth = draw(engine, 1e9);
    const double bytes_per_token = params * bytes_per_param;
    EXPECT_REL_NEAR(max_decode_tokens_per_s(bytes_per_token, bandwidth), bandwidth / bytes_per_token, 1e-12)
        << "seed " << rooflab::testing::seed() << ", trial " << trial;
  }
}

TEST(MemoryHidden, KvCacheOnShapesDrawnAtGradingTime) {
  std::mt19937_64 engine(rooflab::testing::seed());
  for (int trial = 0; trial < 25; ++trial) {
    const KvCacheShape shape{draw(engine, 1), draw(engine, 10), draw(engine, 1),
                             draw(engine, 1), draw(engine, 1),  draw_bytes(engine)};
    EXPECT_REL_NEAR(kv_cache_bytes(shape), expected_kv_cache_bytes(shape), 1e-12)
        << "seed " << rooflab::testing::seed() << ", trial " << trial;
  }
}

}  // namespace
}  // namespace a01_roofline
