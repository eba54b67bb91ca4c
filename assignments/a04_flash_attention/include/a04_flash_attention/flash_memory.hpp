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

// Bytes (fp32, 4 each) that flash_attention allocates at its peak with `workers`
// workers, for Q, K and V all of `shape` (so M = N and d_v = d = head_dim):
//
//   4 · ( B·H·N·d + B·H·N                  the output and lse it returns
//       + workers · ( b_r·b_c              one score tile
//                   + d·b_c                one transposed key tile
//                   + b_r·d                one accumulator, b_r × d_v (d_v = d here)
//                   + 2·b_r ) )            the running max m and sum l of its rows
//
// with b_r = min(block_rows, N) and b_c = min(block_cols, N): tiles are clipped
// to the sequence (flash_attention clips B_r to N and B_c to M). A worker is one
// thread of flash_attention's OpenMP parallel region; each allocates its tiles
// once, at that full clipped size, and reuses them for every tile it computes.
// A partial last tile uses part of them and allocates nothing, so the count does
// not change when B_r or B_c does not divide N. This per-worker scratch is
// expected: measure_flash_memory's tests allow it for up to omp_get_max_threads()
// workers (and the measurement's tests require no more than the output and lse
// as a floor, so another design of the scratch is graded fairly). The inputs are
// not counted (the caller owns them).
//
// Graded exactly: the public tests compare with this formula for equality, the
// hidden ones within a relative 1e-12 on shapes drawn at grading time.
//
// Throws std::invalid_argument unless batch, heads, seq_len, head_dim,
// block_rows, block_cols and workers are all positive; the message names the
// first that is not and no other of those seven (rooflab::require_positive's
// message, e.g. "workers must be a positive finite number, got 0", does that).
// The public tests check seq_len, block_rows, block_cols and workers.
double flash_extra_bytes(const FlashShape& shape, std::int64_t block_rows, std::int64_t block_cols,
                         std::int64_t workers);

// Draws Q, K and V of `shape` (rooflab::random_normal from seed, seed + 1 and
// seed + 2), then runs flash_attention(q, k, v, options) once inside
// rooflab::memory::measure_peak and returns its peak_extra_bytes: the most heap
// bytes live at once during the call beyond those live before it. The drawing
// happens before the measurement, so Q, K and V are not in it; the FlashResult
// is freed only after it, so the output and lse are. The tracker counts what
// goes through operator new (std::vector and the like, not malloc()), each block
// as malloc_usable_size() rounds it.
//
// Graded on shapes with B = 1, a few heads and N in the thousands, 32×32 or
// 64×64 tiles, non-causal, with T = omp_get_max_threads():
//   4·(B·H·N·d + B·H·N) − 4096  <=  measured  <=  1.02 · flash_extra_bytes(shape, B_r, B_c, T) + 65536,
// (at least the output and lse, at most the estimate for T workers), and the
// kernel's count of the process during the call must back the number
// (EXPECT_KERNEL_COUNT_BACKS, rooflab/kernel_memory.hpp): at most measured plus
// Q, K and V's bytes plus 8 MiB plus 5 % of measured, and in a fresh grader
// worker at least 0.9 · measured − 256 KiB. Where the kernel cannot count,
// these tests are skipped (0 of 0).
//
// Validation: not tested. Calling flash_extra_bytes(shape, block_rows,
// block_cols, 1) first checks the shape and tile sizes with its messages;
// flash_attention then checks the rest (a keep of the wrong size names keep).
double measure_flash_memory(const FlashShape& shape, const FlashOptions& options, std::uint64_t seed);

}  // namespace a04_flash_attention
