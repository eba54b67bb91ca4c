// Public tests, part 2: flash attention's memory is O(N·d), measured.
#include "a04_flash_attention/flash_memory.hpp"

#include <omp.h>

#include "rooflab/testing.hpp"

namespace a04_flash_attention {
namespace {

TEST(FlashExtraBytes, OutputLseAndTilesPerWorker) {
  const double returned = 4.0 * (2 * 4 * 1024 * (64 + 1));
  const double tiles = 4.0 * (64 * 32 + 64 * 32 + 64 * 64 + 2 * 64);
  EXPECT_EQ(flash_extra_bytes({2, 4, 1024, 64}, 64, 32, 1), returned + tiles);
  EXPECT_EQ(flash_extra_bytes({2, 4, 1024, 64}, 64, 32, 3), returned + 3 * tiles);
  // Tiles are clipped to the sequence.
  EXPECT_EQ(flash_extra_bytes({1, 1, 8, 4}, 64, 64, 1), 4.0 * (8 * 5 + 8 * 8 + 4 * 8 + 8 * 4 + 16));
}

TEST(FlashExtraBytes, RejectsNonPositiveInputs) {
  EXPECT_INVALID_ARGUMENT(flash_extra_bytes({1, 1, 0, 64}, 64, 64, 1), "seq_len");
  EXPECT_INVALID_ARGUMENT(flash_extra_bytes({1, 1, 8, 64}, 0, 64, 1), "block_rows");
  EXPECT_INVALID_ARGUMENT(flash_extra_bytes({1, 1, 8, 64}, 64, 64, 0), "workers");
}

TEST(MeasureFlashMemory, StaysWithinTheEstimate) {
  // Each of up to omp_get_max_threads() workers holds its tiles; malloc's rounding adds a little.
  const FlashShape shape{1, 2, 2048, 64};
  const double measured = measure_flash_memory(shape, {64, 64, false, {}}, 3);
  const double bound = flash_extra_bytes(shape, 64, 64, omp_get_max_threads());
  EXPECT_GE(measured, flash_extra_bytes(shape, 64, 64, 1) - 4096);
  EXPECT_LE(measured, 1.02 * bound + 65536);
}

TEST(MeasureFlashMemory, IsLinearNotQuadraticInN) {
  // At N = 8192 one N×N fp32 matrix is 256 MiB; flash attention needs about 2 MiB.
  const double at_4k = measure_flash_memory({1, 1, 4096, 64}, {64, 64, true, {}}, 5);
  const double at_8k = measure_flash_memory({1, 1, 8192, 64}, {64, 64, true, {}}, 5);
  EXPECT_LT(at_8k, 8192.0 * 8192 * 4 / 64);
  EXPECT_NEAR(at_8k / at_4k, 2.0, 0.2);
}

}  // namespace
}  // namespace a04_flash_attention
