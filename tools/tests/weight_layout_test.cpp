// a06's tile order for the layers' matrices and the LM head's
// (weight_layout.hpp): to_tiled, to_row_major, transposed_to_tiled and
// tiled_index agree with each other for every element, on shapes that leave
// partial chunks of rows and every kind of column tile (whole tiles, narrower
// vectors, columns that fill no vector), and bad shapes are errors naming
// the argument.
#include "a06_kv_cache_decode/weight_layout.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <vector>

#include "rooflab/testing.hpp"

namespace a06_kv_cache_decode {
namespace {

struct Shape {
  std::int64_t in, out;
};

// 1 × 1; fewer rows than a chunk; GPT-2's 768 × 2304 would be slow here, so
// shapes that cross chunk boundaries (128 rows) with widths of 8+ whole
// tiles of 48, a tile of 32 and 16, and a remainder of 7 columns.
const Shape kShapes[] = {{1, 1}, {5, 3}, {37, 100}, {130, 48}, {300, 455}, {257, 64}};

std::vector<float> counting(std::int64_t count) {
  std::vector<float> values(static_cast<std::size_t>(count));
  std::iota(values.begin(), values.end(), 0.0f);  // exact in fp32 up to 2^24
  return values;
}

TEST(WeightLayout, TiledIndexPlacesEveryElementWhereToTiledPutsIt) {
  for (const Shape& shape : kShapes) {
    const std::vector<float> row_major = counting(shape.in * shape.out);
    const std::vector<float> tiled = to_tiled(row_major, shape.in, shape.out);
    std::vector<bool> taken(tiled.size(), false);
    for (std::int64_t p = 0; p < shape.in; ++p)
      for (std::int64_t j = 0; j < shape.out; ++j) {
        const std::size_t at = tiled_index(shape.in, shape.out, p, j);
        ASSERT_LT(at, tiled.size()) << shape.in << " × " << shape.out << ", (" << p << ", " << j << ")";
        ASSERT_FALSE(taken[at]) << "two elements at " << at << " of " << shape.in << " × " << shape.out;
        taken[at] = true;
        ASSERT_EQ(tiled[at], row_major[static_cast<std::size_t>(p * shape.out + j)])
            << shape.in << " × " << shape.out << ", (" << p << ", " << j << ")";
      }
  }
}

TEST(WeightLayout, ToRowMajorUndoesToTiled) {
  for (const Shape& shape : kShapes) {
    const std::vector<float> row_major = counting(shape.in * shape.out);
    EXPECT_EQ(to_row_major(to_tiled(row_major, shape.in, shape.out), shape.in, shape.out), row_major)
        << shape.in << " × " << shape.out;
  }
}

// The token embedding E (vocab × d_model) goes in as the LM head's Eᵀ: the
// element of E at (j, p) is where tiled_index puts Eᵀ's (p, j).
TEST(WeightLayout, TransposedToTiledHoldsTheTransposeInTileOrder) {
  for (const Shape& shape : kShapes) {
    const std::vector<float> transposed = counting(shape.in * shape.out);  // (out × in)
    const std::vector<float> tiled = transposed_to_tiled(transposed, shape.in, shape.out);
    ASSERT_EQ(tiled.size(), transposed.size());
    for (std::int64_t p = 0; p < shape.in; ++p)
      for (std::int64_t j = 0; j < shape.out; ++j)
        ASSERT_EQ(tiled[tiled_index(shape.in, shape.out, p, j)], transposed[static_cast<std::size_t>(j * shape.in + p)])
            << shape.in << " × " << shape.out << ", (" << p << ", " << j << ")";
  }
}

// A tile's rows are stored one after another: within a chunk of rows, the
// elements of one row of a tile are adjacent, and the next row of the same
// columns follows them. (What makes a block one contiguous run.)
TEST(WeightLayout, EachRowOfATileIsFollowedByTheNextRowOfTheSameColumns) {
  const Shape shape{300, 455};
  for (std::int64_t p = 0; p + 1 < shape.in; ++p) {
    if ((p + 1) % 128 == 0) continue;  // the next row opens another chunk
    const std::size_t first = tiled_index(shape.in, shape.out, p, 0);
    const std::size_t next_row = tiled_index(shape.in, shape.out, p + 1, 0);
    for (std::int64_t j = 0; first + static_cast<std::size_t>(j) < next_row; ++j)
      ASSERT_EQ(tiled_index(shape.in, shape.out, p, j), first + static_cast<std::size_t>(j)) << p << ", " << j;
  }
}

TEST(WeightLayout, BadShapesNameTheArgument) {
  const rooflab::testing::ArgumentNames names{"row_major", "tiled", "transposed", "in", "out", "p", "j"};
  EXPECT_INVALID_ARGUMENT(to_tiled(counting(6), 2, 4), "row_major");
  EXPECT_INVALID_ARGUMENT(transposed_to_tiled(counting(6), 4, 2), "transposed");
  EXPECT_INVALID_ARGUMENT(transposed_to_tiled({}, 4, 0), "out");
  EXPECT_INVALID_ARGUMENT(to_row_major(counting(6), 4, 2), "tiled");
  EXPECT_INVALID_ARGUMENT(to_tiled({}, 0, 4), "in");
  EXPECT_INVALID_ARGUMENT(to_row_major({}, 4, -1), "out");
  EXPECT_INVALID_ARGUMENT(tiled_index(3, 4, 3, 0), "p");
  EXPECT_INVALID_ARGUMENT(tiled_index(3, 4, 0, -1), "j");
  EXPECT_INVALID_ARGUMENT(tiled_index(3, 0, 0, 0), "out");
}

}  // namespace
}  // namespace a06_kv_cache_decode
