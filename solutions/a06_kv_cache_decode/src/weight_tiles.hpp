// Provided: the tile order a Model holds its layers' matrices in
// (weight_layout.hpp), shared by the kernels that read it (transformer.cpp)
// and the functions that convert to and from it (weight_layout.cpp).
//
// W (in × out) is cut into chunks of kChunkRows rows, and each chunk into
// column tiles: kTileVectors vectors wide while they fit, then 2 vectors
// and 1, then the last columns that fill no vector. Chunk by chunk, tile by
// tile, each (chunk, tile) block is stored whole, its rows one after
// another: the block a register tile reads is one contiguous run of memory
// (24 KiB at 128 rows × 48 fp32 columns, in L1 beside the rows of x it meets).
#pragma once

#include <cstdint>
#include <vector>

namespace a06_kv_cache_decode::weight_tiles {

// One vector register of fp32 lanes: AVX-512's 16 where the target has it,
// AVX's 8 or SSE's 4 elsewhere; and the register tile that uses them.
#if defined(__AVX512F__)
constexpr int kLanes = 16;
constexpr int kTileRows = 8, kTileVectors = 3;  // 8 rows × 3 vectors = 24 accumulators of 32 registers
#elif defined(__AVX__)
constexpr int kLanes = 8;
constexpr int kTileRows = 4, kTileVectors = 2;  // 4 rows × 2 vectors = 8 accumulators of 16 registers
#else
constexpr int kLanes = 4;
constexpr int kTileRows = 4, kTileVectors = 2;
#endif

// W's rows in one block. Longer blocks keep the row tiles' sums in
// registers longer and give the prefetch (transformer.cpp) more time to run
// ahead: at batch 32, 128 rows beat 32 and 64 and tied with 256, whose
// 48 KiB block would fill all of L1 (docs/benchmarks.md).
constexpr std::int64_t kChunkRows = 128;

// The widths a column tile takes, widest first: each while it fits.
inline constexpr std::int64_t kTileWidths[] = {std::int64_t{kTileVectors} * kLanes, std::int64_t{2} * kLanes,
                                               std::int64_t{kLanes}};

// Columns [start, start + width) of W.
struct ColumnTile {
  std::int64_t start, width;
};

// The column tiles of `out` columns, left to right.
inline std::vector<ColumnTile> column_tiles(std::int64_t out) {
  std::vector<ColumnTile> tiles;
  std::int64_t j = 0;
  for (const std::int64_t width : kTileWidths)
    for (; j + width <= out; j += width) tiles.push_back({j, width});
  if (j < out) tiles.push_back({j, out - j});
  return tiles;
}

// The column tile that holds column j of `out` columns (0 <= j < out): what
// column_tiles(out) would find, without building the list (a token's
// embedding is a column of the LM head's matrix, looked up every step).
inline ColumnTile column_tile_of(std::int64_t out, std::int64_t j) {
  std::int64_t start = 0;
  for (const std::int64_t width : kTileWidths) {
    const std::int64_t whole = (out - start) / width;  // tiles of this width
    if (j < start + whole * width) return {start + (j - start) / width * width, width};
    start += whole * width;
  }
  return {start, out - start};
}

// The rows chunk c holds: kChunkRows, or what is left of W's in rows.
inline std::int64_t chunk_rows(std::int64_t in, std::int64_t c) {
  return in - c * kChunkRows < kChunkRows ? in - c * kChunkRows : kChunkRows;
}

inline std::int64_t chunks(std::int64_t in) { return (in + kChunkRows - 1) / kChunkRows; }

// Where block (c, tile) of W (in × out) starts: every chunk before c holds
// kChunkRows whole rows, and each tile before this one chunk_rows × its width.
inline std::int64_t block_offset(std::int64_t in, std::int64_t out, std::int64_t c, const ColumnTile& tile) {
  return c * kChunkRows * out + chunk_rows(in, c) * tile.start;
}

// Where element (p, j) of W (in × out) sits: its block's start, then p's row
// of the block and j's column of the tile. Unchecked (tiled_index checks).
inline std::int64_t element_offset(std::int64_t in, std::int64_t out, std::int64_t p, std::int64_t j) {
  const ColumnTile tile = column_tile_of(out, j);
  const std::int64_t c = p / kChunkRows;
  return block_offset(in, out, c, tile) + (p - c * kChunkRows) * tile.width + (j - tile.start);
}

}  // namespace a06_kv_cache_decode::weight_tiles
