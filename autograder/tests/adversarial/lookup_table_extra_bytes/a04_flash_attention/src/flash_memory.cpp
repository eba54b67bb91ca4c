// Adversarial submission "lookup_table_extra_bytes": flash_extra_bytes answers
// the public tests' inputs from a table, and validates like the contract asks;
// anything else gets 0. (Its flash attention is the solution's: those points
// are earned.)
#include "a04_flash_attention/flash_memory.hpp"

#include "rooflab/memory_tracker.hpp"
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
  if (shape.batch == 2 && shape.heads == 4 && shape.seq_len == 1024 && block_rows == 64 && block_cols == 32)
    return workers == 1 ? 2163200 : 2229760;
  if (shape.seq_len == 8 && shape.head_dim == 4) return 736;
  return 0;
}

double measure_flash_memory(const FlashShape& shape, const FlashOptions& options, std::uint64_t seed) {
  const Tensor4 q = rooflab::random_normal(shape.batch, shape.heads, shape.seq_len, shape.head_dim, seed);
  const Tensor4 k = rooflab::random_normal(shape.batch, shape.heads, shape.seq_len, shape.head_dim, seed + 1);
  const Tensor4 v = rooflab::random_normal(shape.batch, shape.heads, shape.seq_len, shape.head_dim, seed + 2);
  return static_cast<double>(
      rooflab::memory::measure_peak([&] { return flash_attention(q, k, v, options); }).peak_extra_bytes);
}

}  // namespace a04_flash_attention
