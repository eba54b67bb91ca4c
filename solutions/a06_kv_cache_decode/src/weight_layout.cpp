// Provided: converting matrices to and from the tile order of
// weight_layout.hpp, whose blocks weight_tiles.hpp defines.
#include "a06_kv_cache_decode/weight_layout.hpp"

#include <stdexcept>
#include <string>

#include "weight_tiles.hpp"

namespace a06_kv_cache_decode {
namespace {

using namespace weight_tiles;

void require_shape(std::int64_t in, std::int64_t out) {
  if (in <= 0) throw std::invalid_argument("in: must be positive, not " + std::to_string(in));
  if (out <= 0) throw std::invalid_argument("out: must be positive, not " + std::to_string(out));
}

void require_values(const std::vector<float>& values, const char* name, std::int64_t in, std::int64_t out) {
  require_shape(in, out);
  if (values.size() != static_cast<std::size_t>(in * out))
    throw std::invalid_argument(std::string(name) + ": holds " + std::to_string(values.size()) + " values, not " +
                                std::to_string(in) + " × " + std::to_string(out));
}

// visit(row-major index, tiled index) for every element, block by block.
template <class Visit>
void for_each_element(std::int64_t in, std::int64_t out, Visit visit) {
  const std::vector<ColumnTile> tiles = column_tiles(out);
  for (std::int64_t c = 0; c < chunks(in); ++c)
    for (const ColumnTile& tile : tiles) {
      std::int64_t at = block_offset(in, out, c, tile);
      for (std::int64_t p = c * kChunkRows; p < c * kChunkRows + chunk_rows(in, c); ++p)
        for (std::int64_t j = tile.start; j < tile.start + tile.width; ++j)
          visit(static_cast<std::size_t>(p * out + j), static_cast<std::size_t>(at++));
    }
}

}  // namespace

std::size_t tiled_index(std::int64_t in, std::int64_t out, std::int64_t p, std::int64_t j) {
  require_shape(in, out);
  if (p < 0 || p >= in)
    throw std::invalid_argument("p: " + std::to_string(p) + " is outside [0, " + std::to_string(in) + ")");
  if (j < 0 || j >= out)
    throw std::invalid_argument("j: " + std::to_string(j) + " is outside [0, " + std::to_string(out) + ")");
  for (const ColumnTile& tile : column_tiles(out))
    if (j < tile.start + tile.width) {
      const std::int64_t c = p / kChunkRows;
      return static_cast<std::size_t>(block_offset(in, out, c, tile) + (p - c * kChunkRows) * tile.width +
                                      (j - tile.start));
    }
  return 0;  // not reached: the tiles cover every column
}

std::vector<float> to_tiled(const std::vector<float>& row_major, std::int64_t in, std::int64_t out) {
  require_values(row_major, "row_major", in, out);
  std::vector<float> tiled(row_major.size());
  for_each_element(in, out, [&](std::size_t rows, std::size_t tiles) { tiled[tiles] = row_major[rows]; });
  return tiled;
}

std::vector<float> to_row_major(const std::vector<float>& tiled, std::int64_t in, std::int64_t out) {
  require_values(tiled, "tiled", in, out);
  std::vector<float> row_major(tiled.size());
  for_each_element(in, out, [&](std::size_t rows, std::size_t tiles) { row_major[rows] = tiled[tiles]; });
  return row_major;
}

}  // namespace a06_kv_cache_decode
