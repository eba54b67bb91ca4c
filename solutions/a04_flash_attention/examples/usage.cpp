// The lab text's worked example: run it once your functions pass the tests
// (build target a04_flash_attention_usage). Its output is quoted in README.md.
#include <cstdio>

#include "a04_flash_attention/a04_flash_attention.hpp"

int main() {
  using namespace a04_flash_attention;
  const FlashOptions tiles;  // the default tile sizes
  std::printf("flash attention's extra memory (B=1, H=1, d=64, %lldx%lld tiles, 1 worker, fp32):\n",
              static_cast<long long>(tiles.block_rows), static_cast<long long>(tiles.block_cols));
  for (const std::int64_t n : {1024, 4096, 16384}) {
    const double flash = flash_extra_bytes({1, 1, n, 64}, tiles.block_rows, tiles.block_cols, 1);
    const double scores = 4.0 * n * n;
    std::printf("  N=%6lld  flash %8.2f MiB   one N×N matrix %9.1f MiB\n", static_cast<long long>(n), flash / (1 << 20),
                scores / (1 << 20));
  }
  const Tensor4 q = rooflab::random_normal(1, 1, 4, 8, 1), k = rooflab::random_normal(1, 1, 4, 8, 2),
                v = rooflab::random_normal(1, 1, 4, 8, 3);
  const FlashResult result = flash_attention(q, k, v, {2, 2, true, {}});
  std::printf("causal, N=4, 2x2 tiles: lse =");
  for (const float lse : result.lse) std::printf(" %.4f", lse);
  std::printf("\n");
  return 0;
}
