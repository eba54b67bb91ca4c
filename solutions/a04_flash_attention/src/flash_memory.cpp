// a04_flash_attention, part 2: flash attention's memory, estimated and measured.
#include "a04_flash_attention/flash_memory.hpp"

#include <algorithm>

#include "rooflab/memory_tracker.hpp"  // keep: rooflab::memory::measure_peak
#include "rooflab/not_implemented.hpp"
#include "rooflab/validate.hpp"  // keep: rooflab::require_positive

namespace a04_flash_attention {

double flash_extra_bytes(const FlashShape& shape, std::int64_t block_rows, std::int64_t block_cols,
                         std::int64_t workers) {
  // BEGIN SOLUTION
  rooflab::require_positive(static_cast<double>(shape.batch), "batch");
  rooflab::require_positive(static_cast<double>(shape.heads), "heads");
  rooflab::require_positive(static_cast<double>(shape.seq_len), "seq_len");
  rooflab::require_positive(static_cast<double>(shape.head_dim), "head_dim");
  rooflab::require_positive(static_cast<double>(block_rows), "block_rows");
  rooflab::require_positive(static_cast<double>(block_cols), "block_cols");
  rooflab::require_positive(static_cast<double>(workers), "workers");
  const double rows = static_cast<double>(shape.batch * shape.heads * shape.seq_len);
  const double d = static_cast<double>(shape.head_dim);
  // Tiles never exceed the sequence: a short input gets short tiles.
  const double br = static_cast<double>(std::min(block_rows, shape.seq_len));
  const double bc = static_cast<double>(std::min(block_cols, shape.seq_len));
  const double returned = rows * d + rows;                       // output and lse
  const double per_worker = br * bc + d * bc + br * d + 2 * br;  // S tile, Kᵀ tile, accumulator, m and l
  return 4 * (returned + static_cast<double>(workers) * per_worker);
  // END SOLUTION
}

double measure_flash_memory(const FlashShape& shape, const FlashOptions& options, std::uint64_t seed) {
  // BEGIN SOLUTION
  flash_extra_bytes(shape, options.block_rows, options.block_cols, 1);  // validates the shape
  const Tensor4 q = rooflab::random_normal(shape.batch, shape.heads, shape.seq_len, shape.head_dim, seed);
  const Tensor4 k = rooflab::random_normal(shape.batch, shape.heads, shape.seq_len, shape.head_dim, seed + 1);
  const Tensor4 v = rooflab::random_normal(shape.batch, shape.heads, shape.seq_len, shape.head_dim, seed + 2);
  const auto measured = rooflab::memory::measure_peak([&] { return flash_attention(q, k, v, options); });
  return static_cast<double>(measured.peak_extra_bytes);
  // END SOLUTION
}

}  // namespace a04_flash_attention
