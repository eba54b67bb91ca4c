// Public tests, part 2: flash attention's memory is O(N·d), as the kernel counts it.
#include "a04_flash_attention/flash_memory.hpp"

#include <omp.h>

#include <algorithm>

#include "rooflab/attention_reference.hpp"
#include "rooflab/kernel_memory.hpp"
#include "rooflab/testing.hpp"

namespace a04_flash_attention {
namespace {

// flash_memory.hpp's definition written out: the output and lse it returns,
// and each worker's tiles (clipped to the sequence). Tests compare your
// numbers with this, never with each other.
double expected_extra_bytes(const FlashShape& s, std::int64_t block_rows, std::int64_t block_cols,
                            std::int64_t workers) {
  const double rows = double(s.batch) * double(s.heads) * double(s.seq_len), d = double(s.head_dim);
  const double br = double(std::min(block_rows, s.seq_len)), bc = double(std::min(block_cols, s.seq_len));
  return 4.0 * (rows * (d + 1) + double(workers) * (br * bc + d * bc + br * d + 2 * br));
}

TEST(FlashExtraBytes, OutputLseAndTilesPerWorker) {
  const double returned = 4.0 * (2 * 4 * 1024 * (64 + 1));
  const double tiles = 4.0 * (64 * 32 + 64 * 32 + 64 * 64 + 2 * 64);
  EXPECT_EQ(flash_extra_bytes({2, 4, 1024, 64}, 64, 32, 1), returned + tiles);
  EXPECT_EQ(flash_extra_bytes({2, 4, 1024, 64}, 64, 32, 3), returned + 3 * tiles);
  // Tiles are clipped to the sequence.
  EXPECT_EQ(flash_extra_bytes({1, 1, 8, 4}, 64, 64, 1), 4.0 * (8 * 5 + 8 * 8 + 4 * 8 + 8 * 4 + 16));
}

TEST(FlashExtraBytes, RejectsNonPositiveInputs) {
  const rooflab::testing::ArgumentNames names{"batch",      "heads",      "seq_len", "head_dim",
                                              "block_rows", "block_cols", "workers"};
  EXPECT_INVALID_ARGUMENT(flash_extra_bytes({1, 1, 0, 64}, 64, 64, 1), "seq_len");
  EXPECT_INVALID_ARGUMENT(flash_extra_bytes({1, 1, 8, 64}, 0, 64, 1), "block_rows");
  EXPECT_INVALID_ARGUMENT(flash_extra_bytes({1, 1, 8, 64}, 64, -2, 1), "block_cols");
  EXPECT_INVALID_ARGUMENT(flash_extra_bytes({1, 1, 8, 64}, 64, 64, 0), "workers");
}

TEST(MeasureFlashMemory, StaysWithinTheEstimate) {
  ROOFLAB_SKIP_UNLESS_KERNEL_MEMORY();
  // Each of up to omp_get_max_threads() workers holds its tiles; malloc's
  // rounding adds a little. The output (4 MiB here) makes the measurement large
  // enough for the kernel's count of the process to back it.
  const FlashShape shape{1, 4, 4096, 64};
  const rooflab::kernel_memory::Window window;
  const double measured = measure_flash_memory(shape, {64, 64, false, {}}, 3);
  // At least what any flash attention must allocate: the output and lse it
  // returns (its own scratch is a design choice, so it is not required).
  const double returned = 4.0 * double(shape.batch * shape.heads * shape.seq_len) * double(shape.head_dim + 1);
  EXPECT_GE(measured, returned - 4096);
  EXPECT_LE(measured, 1.02 * expected_extra_bytes(shape, 64, 64, omp_get_max_threads()) + 65536);
  const double inputs = 3.0 * 4 * 4096 * 64 * 4;  // Q, K and V, drawn inside the call
  EXPECT_KERNEL_COUNT_BACKS(window, measured, inputs);
}

TEST(FlashAttentionMemory, KernelCountsLinearNotQuadratic) {
  ROOFLAB_SKIP_UNLESS_KERNEL_MEMORY();
  // At N = 8192 one N×N fp32 matrix is 256 MiB; flash attention holds the
  // output, the lse and a few tiles, and the process copies of the inputs and
  // the result: about 10 MiB here, whatever the code says about itself.
  const std::int64_t n = 8192, d = 32;
  const Tensor4 q = rooflab::random_normal(1, 1, n, d, 5), k = rooflab::random_normal(1, 1, n, d, 6),
                v = rooflab::random_normal(1, 1, n, d, 7);
  const rooflab::kernel_memory::Window window;
  const FlashResult result = flash_attention(q, k, v, {64, 64, true, {}});
  const double counted = window.peak_extra_bytes();
  const double inputs = 3.0 * n * d * 4, returned = n * (d + 1) * 4.0;
  EXPECT_LT(counted, 2 * (inputs + returned) + 2 * rooflab::kernel_memory::kSlackBytes)
      << "bytes the kernel counted during the call; one N×N matrix is " << n * n * 4.0;
  // And it did the work: a few rows against the reference (row i sees keys 0..i).
  ASSERT_EQ(result.output.shape, q.shape);
  ASSERT_EQ(result.lse.size(), static_cast<std::size_t>(n));
  for (const std::int64_t i : {std::int64_t{0}, n / 2, n - 1}) {
    Tensor4 row = rooflab::zeros(1, 1, 1, d), keys = rooflab::zeros(1, 1, i + 1, d), values = keys;
    std::copy(q.row(0, i), q.row(0, i) + d, row.data.begin());
    std::copy(k.row(0, 0), k.row(0, i + 1), keys.data.begin());
    std::copy(v.row(0, 0), v.row(0, i + 1), values.data.begin());
    const auto expected = rooflab::reference::attention(row, keys, values);
    EXPECT_ALL_CLOSE(std::vector<float>(result.output.row(0, i), result.output.row(0, i) + d), expected.output, 1e-5,
                     1e-4)
        << "row " << i;
  }
}

}  // namespace
}  // namespace a04_flash_attention
