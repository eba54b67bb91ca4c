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

// visit(p, j, tiled index) for every element (p, j), block by block.
template <class Visit>
void for_each_element(std::int64_t in, std::int64_t out, Visit visit) {
  const std::vector<ColumnTile> tiles = column_tiles(out);
  for (std::int64_t c = 0; c < chunks(in); ++c)
    for (const ColumnTile& tile : tiles) {
      auto at = static_cast<std::size_t>(block_offset(in, out, c, tile));
      for (std::int64_t p = c * kChunkRows; p < c * kChunkRows + chunk_rows(in, c); ++p)
        for (std::int64_t j = tile.start; j < tile.start + tile.width; ++j) visit(p, j, at++);
    }
}

// W (in × out) in tile order from `values`, which hold its element (p, j)
// at p · p_stride + j · j_stride: (out, 1) row-major, (1, in) transposed.
std::vector<float> gathered_to_tiled(const std::vector<float>& values, const char* name, std::int64_t in,
                                     std::int64_t out, std::int64_t p_stride, std::int64_t j_stride) {
  require_values(values, name, in, out);
  std::vector<float> tiled(values.size());
  for_each_element(in, out, [&](std::int64_t p, std::int64_t j, std::size_t at) {
    tiled[at] = values[static_cast<std::size_t>(p * p_stride + j * j_stride)];
  });
  return tiled;
}

}  // namespace

std::size_t tiled_index(std::int64_t in, std::int64_t out, std::int64_t p, std::int64_t j) {
  require_shape(in, out);
  if (p < 0 || p >= in)
    throw std::invalid_argument("p: " + std::to_string(p) + " is outside [0, " + std::to_string(in) + ")");
  if (j < 0 || j >= out)
    throw std::invalid_argument("j: " + std::to_string(j) + " is outside [0, " + std::to_string(out) + ")");
  return static_cast<std::size_t>(element_offset(in, out, p, j));
}

std::vector<float> to_tiled(const std::vector<float>& row_major, std::int64_t in, std::int64_t out) {
  return gathered_to_tiled(row_major, "row_major", in, out, out, 1);
}

std::vector<float> transposed_to_tiled(const std::vector<float>& transposed, std::int64_t in, std::int64_t out) {
  return gathered_to_tiled(transposed, "transposed", in, out, 1, in);
}

std::vector<float> to_row_major(const std::vector<float>& tiled, std::int64_t in, std::int64_t out) {
  require_values(tiled, "tiled", in, out);
  std::vector<float> row_major(tiled.size());
  for_each_element(in, out, [&](std::int64_t p, std::int64_t j, std::size_t at) {
    row_major[static_cast<std::size_t>(p * out + j)] = tiled[at];
  });
  return row_major;
}

}  // namespace a06_kv_cache_decode
