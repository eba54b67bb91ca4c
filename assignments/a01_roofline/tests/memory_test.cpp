// Public tests, part 1: memory.hpp.
#include "a01_roofline/memory.hpp"

#include "rooflab/testing.hpp"

namespace a01_roofline {
namespace {

TEST(BytesPerElement, EveryDType) {
  EXPECT_EQ(bytes_per_element(DType::fp32), 4.0);
  EXPECT_EQ(bytes_per_element(DType::fp16), 2.0);
  EXPECT_EQ(bytes_per_element(DType::bf16), 2.0);
  EXPECT_EQ(bytes_per_element(DType::fp8), 1.0);
  EXPECT_EQ(bytes_per_element(DType::int8), 1.0);
  EXPECT_EQ(bytes_per_element(DType::int4), 0.5);
}

TEST(ModelMemory, SevenBillionInFp16Is14GB) {
  EXPECT_REL_NEAR(model_memory_bytes(7e9, 2.0), 14e9, 1e-12);
  EXPECT_REL_NEAR(model_memory_bytes(7e9, DType::fp16), 14e9, 1e-12);
}

TEST(ModelMemory, Int4HalvesInt8) {
  EXPECT_REL_NEAR(model_memory_bytes(70e9, DType::int4), 35e9, 1e-12);
  EXPECT_REL_NEAR(model_memory_bytes(70e9, DType::int8), 70e9, 1e-12);
}

TEST(ModelMemory, RejectsNonPositiveInputs) {
  const rooflab::testing::ArgumentNames names{"num_params", "bytes_per_param"};
  EXPECT_INVALID_ARGUMENT(model_memory_bytes(-1.0, 2.0), "num_params");
  EXPECT_INVALID_ARGUMENT(model_memory_bytes(7e9, 0.0), "bytes_per_param");
}

TEST(MaxDecodeTokens, SevenBillionFp16OnA100) {
  // 2.039e12 B/s / 14e9 B per token.
  EXPECT_REL_NEAR(max_decode_tokens_per_s(14e9, 2.039e12), 145.642857142857, 1e-9);
}

TEST(MaxDecodeTokens, RejectsNonPositiveInputs) {
  const rooflab::testing::ArgumentNames names{"bytes_per_token", "bandwidth_bytes_per_s"};
  EXPECT_INVALID_ARGUMENT(max_decode_tokens_per_s(0.0, 1e12), "bytes_per_token");
  EXPECT_INVALID_ARGUMENT(max_decode_tokens_per_s(1e9, -1e12), "bandwidth_bytes_per_s");
}

TEST(KvCache, SevenBillionBatch8Context2048) {
  // 8 × 2048 × 32 layers × 2 × 32 heads × 128 × 2 bytes
  EXPECT_REL_NEAR(kv_cache_bytes({8, 2048, 32, 32, 128, 2}), 8589934592.0, 1e-12);
}

TEST(KvCache, RejectsNonPositiveInputs) {
  const rooflab::testing::ArgumentNames names{"batch",        "seq_len",  "num_layers",
                                              "num_kv_heads", "head_dim", "bytes_per_element"};
  EXPECT_INVALID_ARGUMENT(kv_cache_bytes({0, 2048, 32, 32, 128, 2}), "batch");
  EXPECT_INVALID_ARGUMENT(kv_cache_bytes({1, 2048, 32, 0, 128, 2}), "num_kv_heads");
}

}  // namespace
}  // namespace a01_roofline
