// Public tests, part 3: parameters.hpp.
#include "a02_transformer_costs/parameters.hpp"

#include "a02_transformer_costs/models.hpp"
#include "rooflab/testing.hpp"

namespace a02_transformer_costs {
namespace {

TEST(Parameters, Gpt2XlHasItsPublishedCount) { EXPECT_DOUBLE_EQ(parameter_count(gpt2_xl()), 1557611200.0); }

TEST(Parameters, Gpt2SmallHasItsPublishedCount) {
  TransformerConfig small = gpt2_xl();
  small.num_layers = 12;
  small.d_model = 768;
  small.num_heads = small.num_kv_heads = 12;
  small.d_ff = 3072;
  EXPECT_DOUBLE_EQ(parameter_count(small), 124439808.0);
}

TEST(WeightBytes, EveryLinearLayerAndTheLmHead) {
  // 48 × (4D² + 4D + 2DF + F + D) + VD parameters read, 2 bytes each.
  const double D = 1600, F = 6400, V = 50257;
  EXPECT_DOUBLE_EQ(weight_bytes(gpt2_xl()), 2 * (48 * (4 * D * D + 4 * D + 2 * D * F + F + D) + V * D));
}

TEST(KvCache, TwoTensorsPerLayerPerPosition) {
  // 2 × 48 layers × 1 × 1024 × 1600 × 2 bytes
  EXPECT_DOUBLE_EQ(kv_cache_bytes(gpt2_xl(), 1, 1024), 314572800.0);
  EXPECT_DOUBLE_EQ(kv_cache_bytes(gpt2_xl(), 64, 1024), 64 * 314572800.0);
}

TEST(KvCache, RejectsNonPositiveInputs) {
  const rooflab::testing::ArgumentNames names{"num_layers", "d_model",    "num_heads",   "num_kv_heads",
                                              "d_ff",       "vocab_size", "context_len", "bytes_per_element",
                                              "batch",      "seq_len"};
  EXPECT_INVALID_ARGUMENT(kv_cache_bytes(gpt2_xl(), 1, 0), "seq_len");
  EXPECT_INVALID_ARGUMENT(kv_cache_bytes(gpt2_xl(), -2, 8), "batch");
}

}  // namespace
}  // namespace a02_transformer_costs
