// How much memory flash attention allocates: O(N·d), never O(N²).
#pragma once

#include <cstdint>

#include "a04_flash_attention/flash_attention.hpp"

namespace a04_flash_attention {

// One call's size: Q, K and V are all (batch, heads, seq_len, head_dim).
struct FlashShape {
  std::int64_t batch = 1;
  std::int64_t heads = 1;
  std::int64_t seq_len = 1;
  std::int64_t head_dim = 64;
};

// Bytes (fp32) that flash_attention allocates at its peak with `workers`
// threads: the output (B·H·N·d) and lse (B·H·N) it returns, plus each worker's
// tile scratch: a B_r×B_c score tile, a B_r×d accumulator, a d×B_c transposed
// key tile and the running max and sum (2·B_r). Throws std::invalid_argument
// naming a field that is not positive.
double flash_extra_bytes(const FlashShape& shape, std::int64_t block_rows, std::int64_t block_cols,
                         std::int64_t workers);

// Runs flash_attention once on random inputs of `shape` (from `seed`, allocated
// before the measurement) and returns the peak extra heap bytes it needed,
// measured with rooflab::memory::measure_peak.
double measure_flash_memory(const FlashShape& shape, const FlashOptions& options, std::uint64_t seed);

}  // namespace a04_flash_attention
