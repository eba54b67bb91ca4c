// Hidden tests, part 1: memory.hpp. Suites end in "Hidden" (see rubric.toml).
#include <cmath>
#include <limits>
#include <random>

#include "a01_roofline/memory.hpp"
#include "rooflab/testing.hpp"

namespace a01_roofline {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

TEST(MemoryHidden, EveryDTypeScalesWeights) {
  for (DType dtype : {DType::fp32, DType::fp16, DType::bf16, DType::fp8, DType::int8, DType::int4}) {
    EXPECT_REL_NEAR(model_memory_bytes(405e9, dtype), 405e9 * bytes_per_element(dtype), 1e-12);
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
  EXPECT_INVALID_ARGUMENT(model_memory_bytes(kInf, 2.0), "num_params");
  EXPECT_INVALID_ARGUMENT(model_memory_bytes(7e9, kNaN), "bytes_per_param");
  EXPECT_INVALID_ARGUMENT(max_decode_tokens_per_s(kNaN, 1e12), "bytes_per_token");
  EXPECT_INVALID_ARGUMENT(max_decode_tokens_per_s(1e9, kInf), "bandwidth_bytes_per_s");
}

TEST(MemoryHidden, KvCacheGqaUsesKvHeads) {
  // Llama-3-8B-like: 32 layers, 8 KV heads of 128, batch 4, 8192 tokens, bf16.
  EXPECT_REL_NEAR(kv_cache_bytes({4, 8192, 32, 8, 128, 2}), 4.0 * 8192 * 32 * 2 * 8 * 128 * 2, 1e-12);
  // GQA with 8 of 32 heads is a quarter of MHA.
  EXPECT_REL_NEAR(kv_cache_bytes({1, 4096, 32, 8, 128, 2}), kv_cache_bytes({1, 4096, 32, 32, 128, 2}) / 4, 1e-12);
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
  const double bytes = kv_cache_bytes(base);
  KvCacheShape doubled = base;
  doubled.batch *= 2;
  EXPECT_REL_NEAR(kv_cache_bytes(doubled), 2 * bytes, 1e-12);
  doubled = base;
  doubled.seq_len *= 3;
  EXPECT_REL_NEAR(kv_cache_bytes(doubled), 3 * bytes, 1e-12);
  doubled = base;
  doubled.bytes_per_element = 0.5;
  EXPECT_REL_NEAR(kv_cache_bytes(doubled), bytes / 4, 1e-12);
}

TEST(MemoryHidden, KvCacheNamesEachBadField) {
  EXPECT_INVALID_ARGUMENT(kv_cache_bytes({1, 0, 1, 1, 1, 2}), "seq_len");
  EXPECT_INVALID_ARGUMENT(kv_cache_bytes({1, 1, kNaN, 1, 1, 2}), "num_layers");
  EXPECT_INVALID_ARGUMENT(kv_cache_bytes({1, 1, 1, 1, -64, 2}), "head_dim");
  EXPECT_INVALID_ARGUMENT(kv_cache_bytes({1, 1, 1, 1, 64, kInf}), "bytes_per_element");
}

}  // namespace
}  // namespace a01_roofline

namespace a01_roofline {
namespace {

// Inputs drawn from the grading-time seed: a table of answers cannot pass this.
TEST(MemoryHidden, FormulasHoldOnInputsDrawnAtGradingTime) {
  std::mt19937_64 random(rooflab::testing::seed());
  std::uniform_real_distribution<double> exponent(0, 3);
  const auto draw = [&](double scale) { return std::round(scale * std::pow(10.0, exponent(random))); };
  for (int trial = 0; trial < 25; ++trial) {
    const double params = draw(1e7), bytes = 0.5 * draw(2) + 0.5, bandwidth = draw(1e9);
    EXPECT_REL_NEAR(model_memory_bytes(params, bytes), params * bytes, 1e-12);
    EXPECT_REL_NEAR(max_decode_tokens_per_s(params * bytes, bandwidth), bandwidth / (params * bytes), 1e-12);
    const KvCacheShape shape{draw(1), draw(10), draw(1), draw(1), draw(1), 0.5 * draw(2) + 0.5};
    EXPECT_REL_NEAR(kv_cache_bytes(shape),
                    shape.batch * shape.seq_len * shape.num_layers * 2 * shape.num_kv_heads * shape.head_dim *
                        shape.bytes_per_element,
                    1e-12)
        << "seed " << rooflab::testing::seed() << ", trial " << trial;
  }
}

}  // namespace
}  // namespace a01_roofline
