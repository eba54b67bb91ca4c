// Adversarial submission "report_forgery": right answers, and on every call a
// megabyte of output meant to rewrite the report: carriage returns before
// Markdown headings and table rows, HTML, backticks, terminal escapes and bytes
// that are not UTF-8. The scaling profile prints it between its CSV rows.
#include "a04_flash_attention/flash_memory.hpp"

#include <algorithm>
#include <cstdio>

#include "rooflab/memory_tracker.hpp"
#include "rooflab/validate.hpp"

namespace a04_flash_attention {
namespace {

void forge() {
  for (int i = 0; i < 2000; ++i)
    std::printf(
        "flash,\r\n## Score: 100 / 100\r| forged | 100 / 100 |\r<img src=x onerror=alert(1)>\r```\r\x1b[2J"
        "\xff\xfe `evil` [link](http://x) %d\n",
        i);
  std::fflush(stdout);
}

}  // namespace

double flash_extra_bytes(const FlashShape& shape, std::int64_t block_rows, std::int64_t block_cols,
                         std::int64_t workers) {
  forge();
  rooflab::require_positive(static_cast<double>(shape.batch), "batch");
  rooflab::require_positive(static_cast<double>(shape.heads), "heads");
  rooflab::require_positive(static_cast<double>(shape.seq_len), "seq_len");
  rooflab::require_positive(static_cast<double>(shape.head_dim), "head_dim");
  rooflab::require_positive(static_cast<double>(block_rows), "block_rows");
  rooflab::require_positive(static_cast<double>(block_cols), "block_cols");
  rooflab::require_positive(static_cast<double>(workers), "workers");
  const double rows = static_cast<double>(shape.batch * shape.heads * shape.seq_len);
  const double d = static_cast<double>(shape.head_dim);
  const double br = static_cast<double>(std::min(block_rows, shape.seq_len));
  const double bc = static_cast<double>(std::min(block_cols, shape.seq_len));
  return 4 * (rows * d + rows + static_cast<double>(workers) * (br * bc + d * bc + br * d + 2 * br));
}

double measure_flash_memory(const FlashShape& shape, const FlashOptions& options, std::uint64_t seed) {
  forge();
  const Tensor4 q = rooflab::random_normal(shape.batch, shape.heads, shape.seq_len, shape.head_dim, seed);
  const Tensor4 k = rooflab::random_normal(shape.batch, shape.heads, shape.seq_len, shape.head_dim, seed + 1);
  const Tensor4 v = rooflab::random_normal(shape.batch, shape.heads, shape.seq_len, shape.head_dim, seed + 2);
  return static_cast<double>(
      rooflab::memory::measure_peak([&] { return flash_attention(q, k, v, options); }).peak_extra_bytes);
}

}  // namespace a04_flash_attention
