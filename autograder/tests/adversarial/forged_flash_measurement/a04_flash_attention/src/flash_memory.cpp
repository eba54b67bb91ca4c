// Adversarial submission "forged_flash_measurement": flash attention keeps N×N
// scores (the example's flash_attention.cpp), and the measurement reports the
// estimate instead of measuring anything.
#include "a04_flash_attention/flash_memory.hpp"

#include <omp.h>

#include <algorithm>

#include "rooflab/validate.hpp"

namespace a04_flash_attention {

double flash_extra_bytes(const FlashShape& shape, std::int64_t block_rows, std::int64_t block_cols,
                         std::int64_t workers) {
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

// The number a right measurement would give, made up: nothing runs.
double measure_flash_memory(const FlashShape& shape, const FlashOptions& options, std::uint64_t) {
  return flash_extra_bytes(shape, options.block_rows, options.block_cols, 1) + 4096;
}

}  // namespace a04_flash_attention
