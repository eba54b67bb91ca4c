// Cooperative groups on the CPU runtime: the block's and the tiles' ranks,
// tile shuffles, votes and reduce with the answers a GPU gives, block and tile
// syncs that order shared memory (and only among their threads), and what a
// GPU would hang or abort on failing the launch with a message: a tile whose
// lanes have exited, a tile<32> of a partial warp, a bad tile size, a grid
// sync.
#include <gtest/gtest.h>

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "cuda_cpu_testing.hpp"

namespace {

namespace cg = cooperative_groups;
using rooflab::cuda_cpu::launch;
using rooflab::cuda_cpu::testing::device_copy;
using rooflab::cuda_cpu::testing::host_copy;
using rooflab::cuda_cpu::testing::kernel_error;
using ::testing::HasSubstr;

// ---- ranks and sizes ----

struct BlockRanks {
  unsigned rank, size, num_threads, free_rank, free_size;
  unsigned group_index_x, group_index_y, thread_index_x, thread_index_y, dim_x, dim_y, group_dim_x;
  unsigned warp_rank, warp_meta_rank, warp_meta_size, quad_rank, quad_meta_rank, quad_meta_size;
  unsigned self_rank, self_size;
  unsigned long long grid_rank, grid_size, grid_block_rank, grid_blocks;
  bool grid_valid;
};

__global__ void block_ranks(BlockRanks* out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  auto quad = cg::tiled_partition<4>(warp);
  const cg::thread_block_tile<1> self = cg::this_thread();
  const cg::grid_group grid = cg::this_grid();
  BlockRanks ranks;
  ranks.rank = block.thread_rank();
  ranks.size = block.size();
  ranks.num_threads = block.num_threads();
  ranks.free_rank = static_cast<unsigned>(cg::thread_rank(quad));
  ranks.free_size = static_cast<unsigned>(cg::group_size(block));
  ranks.group_index_x = block.group_index().x;
  ranks.group_index_y = block.group_index().y;
  ranks.thread_index_x = block.thread_index().x;
  ranks.thread_index_y = block.thread_index().y;
  ranks.dim_x = block.dim_threads().x;
  ranks.dim_y = block.dim_threads().y;
  ranks.group_dim_x = block.group_dim().x;
  ranks.warp_rank = warp.thread_rank();
  ranks.warp_meta_rank = warp.meta_group_rank();
  ranks.warp_meta_size = warp.meta_group_size();
  ranks.quad_rank = quad.thread_rank();
  ranks.quad_meta_rank = quad.meta_group_rank();
  ranks.quad_meta_size = quad.meta_group_size();
  ranks.self_rank = self.thread_rank();
  ranks.self_size = self.size();
  ranks.grid_rank = grid.thread_rank();
  ranks.grid_size = grid.size();
  ranks.grid_block_rank = grid.block_rank();
  ranks.grid_blocks = grid.num_blocks();
  ranks.grid_valid = grid.is_valid();
  out[grid.thread_rank()] = ranks;
}

TEST(CudaCpuCooperativeGroups, RanksAndSizesOfA2DBlockItsTilesAndTheGrid) {
  const dim3 grid(2, 3), block(16, 6);  // 96 threads: three warps
  const unsigned threads = 6 * 96;
  BlockRanks* out = device_copy(std::vector<BlockRanks>(threads));  // zeros, padding too
  launch("block_ranks", block_ranks, grid, block, 0, out);
  const std::vector<BlockRanks> ranks = host_copy(out, threads);
  for (unsigned by = 0; by < grid.y; ++by) {
    for (unsigned bx = 0; bx < grid.x; ++bx) {
      for (unsigned ty = 0; ty < block.y; ++ty) {
        for (unsigned tx = 0; tx < block.x; ++tx) {
          const unsigned block_rank = bx + grid.x * by, rank = tx + block.x * ty;
          const unsigned grid_rank = block_rank * 96 + rank;
          SCOPED_TRACE("block (" + std::to_string(bx) + ", " + std::to_string(by) + "), thread (" + std::to_string(tx) +
                       ", " + std::to_string(ty) + ")");
          const BlockRanks& got = ranks[grid_rank];
          EXPECT_EQ(got.rank, rank);
          EXPECT_EQ(got.size, 96u);
          EXPECT_EQ(got.num_threads, 96u);
          EXPECT_EQ(got.free_rank, rank % 4);
          EXPECT_EQ(got.free_size, 96u);
          EXPECT_EQ(got.group_index_x, bx);
          EXPECT_EQ(got.group_index_y, by);
          EXPECT_EQ(got.thread_index_x, tx);
          EXPECT_EQ(got.thread_index_y, ty);
          EXPECT_EQ(got.dim_x, 16u);
          EXPECT_EQ(got.dim_y, 6u);
          EXPECT_EQ(got.group_dim_x, 16u);
          EXPECT_EQ(got.warp_rank, rank % 32);
          EXPECT_EQ(got.warp_meta_rank, rank / 32);
          EXPECT_EQ(got.warp_meta_size, 3u);
          EXPECT_EQ(got.quad_rank, rank % 4);
          EXPECT_EQ(got.quad_meta_rank, rank % 32 / 4);  // its place in its warp, not in the block
          EXPECT_EQ(got.quad_meta_size, 8u);
          EXPECT_EQ(got.self_rank, 0u);
          EXPECT_EQ(got.self_size, 1u);
          EXPECT_EQ(got.grid_rank, grid_rank);
          EXPECT_EQ(got.grid_size, threads);
          EXPECT_EQ(got.grid_block_rank, block_rank);
          EXPECT_EQ(got.grid_blocks, 6u);
          EXPECT_FALSE(got.grid_valid);  // not a cooperative launch
        }
      }
    }
  }
  cudaFree(out);
}

// Every size of tile, cut from the block: its ranks and its place among its
// siblings (the block's last tile may be partial only for a tile the block
// size does not divide; 96 threads divide by every size).
template <unsigned Size>
__global__ void tile_ranks(unsigned* out) {
  const cg::thread_block block = cg::this_thread_block();
  const cg::thread_block_tile<Size> tile = cg::tiled_partition<Size>(block);
  const unsigned rank = block.thread_rank();
  out[4 * rank + 0] = tile.thread_rank();
  out[4 * rank + 1] = tile.num_threads();
  out[4 * rank + 2] = tile.meta_group_rank();
  out[4 * rank + 3] = tile.meta_group_size();
}

template <unsigned Size>
void check_tile_ranks() {
  SCOPED_TRACE("thread_block_tile<" + std::to_string(Size) + ">");
  constexpr unsigned kThreads = 96;
  unsigned* out = device_copy(std::vector<unsigned>(4 * kThreads, 0));
  launch("tile_ranks", tile_ranks<Size>, dim3(1), dim3(kThreads), 0, out);
  const std::vector<unsigned> got = host_copy(out, 4 * kThreads);
  for (unsigned rank = 0; rank < kThreads; ++rank) {
    EXPECT_EQ(got[4 * rank + 0], rank % Size) << rank;
    EXPECT_EQ(got[4 * rank + 1], Size) << rank;
    EXPECT_EQ(got[4 * rank + 2], rank / Size) << rank;
    EXPECT_EQ(got[4 * rank + 3], kThreads / Size) << rank;
  }
  cudaFree(out);
}

TEST(CudaCpuCooperativeGroups, EveryTileSizeKnowsItsRankAndItsPlaceInTheBlock) {
  check_tile_ranks<1>();
  check_tile_ranks<2>();
  check_tile_ranks<4>();
  check_tile_ranks<8>();
  check_tile_ranks<16>();
  check_tile_ranks<32>();
}

// tiled_partition(parent, n): a thread_group. In a block of 40 threads the
// second warp's tile of 16 has only the 8 threads the block has, and syncs
// with them alone.
__global__ void dynamic_tiles(unsigned* out) {
  const cg::thread_block block = cg::this_thread_block();
  const cg::thread_group whole = block;
  const cg::thread_group tile = cg::tiled_partition(block, 16);
  const cg::thread_group pair = cg::tiled_partition(tile, 2);
  tile.sync();
  pair.sync();
  const unsigned rank = block.thread_rank();
  out[5 * rank + 0] = static_cast<unsigned>(whole.thread_rank());
  out[5 * rank + 1] = static_cast<unsigned>(whole.size());
  out[5 * rank + 2] = static_cast<unsigned>(tile.thread_rank());
  out[5 * rank + 3] = static_cast<unsigned>(tile.size());
  out[5 * rank + 4] = static_cast<unsigned>(pair.thread_rank() + 10 * pair.size());
}

TEST(CudaCpuCooperativeGroups, DynamicTilesAreThreadGroupsAndALastPartialTileHasTheThreadsTheBlockHas) {
  constexpr unsigned kThreads = 40;
  unsigned* out = device_copy(std::vector<unsigned>(5 * kThreads, 0));
  ASSERT_EQ(kernel_error([&] { launch("dynamic_tiles", dynamic_tiles, dim3(1), dim3(kThreads), 0, out); }), "");
  const std::vector<unsigned> got = host_copy(out, 5 * kThreads);
  for (unsigned rank = 0; rank < kThreads; ++rank) {
    EXPECT_EQ(got[5 * rank + 0], rank) << rank;
    EXPECT_EQ(got[5 * rank + 1], kThreads) << rank;
    EXPECT_EQ(got[5 * rank + 2], rank % 16) << rank;
    EXPECT_EQ(got[5 * rank + 3], rank < 32 ? 16u : 8u) << rank;
    EXPECT_EQ(got[5 * rank + 4], rank % 2 + 20) << rank;
  }
  cudaFree(out);
}

// ---- shuffles ----

template <unsigned Size>
__global__ void tile_shuffles(const int* in, int* out) {
  const cg::thread_block block = cg::this_thread_block();
  const auto tile = cg::tiled_partition<Size>(block);
  const unsigned rank = block.thread_rank();
  const int value = in[rank];
  out[6 * rank + 0] = tile.shfl_down(value, 1);
  out[6 * rank + 1] = tile.shfl_up(value, 2);
  out[6 * rank + 2] = tile.shfl_xor(value, Size / 2);
  out[6 * rank + 3] = tile.shfl(value, static_cast<int>(Size) - 1);
  out[6 * rank + 4] = tile.shfl(value, static_cast<int>(tile.thread_rank() + 1));  // Size itself is rank 0
  out[6 * rank + 5] = tile.shfl(value, static_cast<int>(Size) + 1);                // counts modulo Size
}

template <unsigned Size>
void check_shuffles() {
  SCOPED_TRACE("thread_block_tile<" + std::to_string(Size) + ">");
  constexpr unsigned kThreads = 64;  // two warps: the second's tiles shuffle among their own lanes
  std::vector<int> values(kThreads);
  for (unsigned rank = 0; rank < kThreads; ++rank) values[rank] = static_cast<int>(rank * rank) - 1000;
  int* in = device_copy(values);
  int* out = device_copy(std::vector<int>(6 * kThreads, 0));
  launch("tile_shuffles", tile_shuffles<Size>, dim3(1), dim3(kThreads), 0, in, out);
  const std::vector<int> got = host_copy(out, 6 * kThreads);
  for (unsigned rank = 0; rank < kThreads; ++rank) {
    const unsigned first = rank - rank % Size, in_tile = rank % Size;
    const auto at = [&](unsigned tile_rank) { return values[first + tile_rank]; };
    EXPECT_EQ(got[6 * rank + 0], in_tile + 1 < Size ? at(in_tile + 1) : values[rank]) << "shfl_down, " << rank;
    EXPECT_EQ(got[6 * rank + 1], in_tile >= 2 ? at(in_tile - 2) : values[rank]) << "shfl_up, " << rank;
    EXPECT_EQ(got[6 * rank + 2], at(in_tile ^ (Size / 2))) << "shfl_xor, " << rank;
    EXPECT_EQ(got[6 * rank + 3], at(Size - 1)) << "shfl, " << rank;
    EXPECT_EQ(got[6 * rank + 4], at((in_tile + 1) % Size)) << "shfl of the next, " << rank;
    EXPECT_EQ(got[6 * rank + 5], at((Size + 1) % Size)) << "shfl past the tile, " << rank;
  }
  cudaFree(in);
  cudaFree(out);
}

TEST(CudaCpuCooperativeGroups, TileShufflesGiveEachLaneTheLaneCudaNamesForEveryTileSize) {
  check_shuffles<1>();
  check_shuffles<2>();
  check_shuffles<4>();
  check_shuffles<8>();
  check_shuffles<16>();
  check_shuffles<32>();
}

struct Pair {
  float value;
  int index;
};
struct Triple {  // 12 bytes: more than one of the runtime's 8-byte shuffles
  float x, y, z;
};

__global__ void shuffle_types(double* doubles, Pair* pairs, Triple* triples, char* chars) {
  const auto tile = cg::tiled_partition<16>(cg::this_thread_block());
  const unsigned rank = cg::this_thread_block().thread_rank();
  const float r = static_cast<float>(rank);
  doubles[rank] = tile.shfl_down(0.25 * rank, 3);
  pairs[rank] = tile.shfl_xor(Pair{r, static_cast<int>(rank)}, 5);
  triples[rank] = tile.shfl(Triple{r, -r, 2 * r}, 7);
  chars[rank] = tile.shfl_up(static_cast<char>('a' + rank % 26), 1);
}

TEST(CudaCpuCooperativeGroups, TilesShuffleAnyTriviallyCopyableType) {
  constexpr unsigned kThreads = 32;
  double* doubles = device_copy(std::vector<double>(kThreads, 0));
  Pair* pairs = device_copy(std::vector<Pair>(kThreads, Pair{0, 0}));
  Triple* triples = device_copy(std::vector<Triple>(kThreads, Triple{0, 0, 0}));
  char* chars = device_copy(std::vector<char>(kThreads, 0));
  launch("shuffle_types", shuffle_types, dim3(1), dim3(kThreads), 0, doubles, pairs, triples, chars);
  const std::vector<double> got_doubles = host_copy(doubles, kThreads);
  const std::vector<Pair> got_pairs = host_copy(pairs, kThreads);
  const std::vector<Triple> got_triples = host_copy(triples, kThreads);
  const std::vector<char> got_chars = host_copy(chars, kThreads);
  for (unsigned rank = 0; rank < kThreads; ++rank) {
    const unsigned first = rank - rank % 16, in_tile = rank % 16;
    EXPECT_EQ(got_doubles[rank], 0.25 * (in_tile + 3 < 16 ? rank + 3 : rank)) << rank;
    EXPECT_EQ(got_pairs[rank].index, static_cast<int>(first + (in_tile ^ 5))) << rank;
    EXPECT_EQ(got_pairs[rank].value, static_cast<float>(first + (in_tile ^ 5))) << rank;
    const auto seven = static_cast<float>(first + 7);
    EXPECT_EQ(got_triples[rank].x, seven) << rank;
    EXPECT_EQ(got_triples[rank].y, -seven) << rank;
    EXPECT_EQ(got_triples[rank].z, 2 * seven) << rank;
    EXPECT_EQ(got_chars[rank], static_cast<char>('a' + (in_tile >= 1 ? rank - 1 : rank) % 26)) << rank;
  }
  cudaFree(doubles);
  cudaFree(pairs);
  cudaFree(triples);
  cudaFree(chars);
}

// ---- votes ----

template <unsigned Size>
__global__ void tile_votes(unsigned* out) {
  const cg::thread_block block = cg::this_thread_block();
  const cg::thread_block_tile<Size> tile = cg::tiled_partition<Size>(block);
  const unsigned rank = block.thread_rank();
  const bool multiple_of_three = rank % 3 == 0;
  const bool in_an_even_tile = tile.meta_group_rank() % 2 == 0;
  out[5 * rank + 0] = tile.ballot(multiple_of_three);
  out[5 * rank + 1] = static_cast<unsigned>(tile.any(multiple_of_three));
  out[5 * rank + 2] = static_cast<unsigned>(tile.all(multiple_of_three));
  out[5 * rank + 3] = static_cast<unsigned>(tile.any(in_an_even_tile));
  out[5 * rank + 4] = static_cast<unsigned>(tile.all(in_an_even_tile));
}

template <unsigned Size>
void check_votes() {
  SCOPED_TRACE("thread_block_tile<" + std::to_string(Size) + ">");
  constexpr unsigned kThreads = 64;
  unsigned* out = device_copy(std::vector<unsigned>(5 * kThreads, 7));
  launch("tile_votes", tile_votes<Size>, dim3(1), dim3(kThreads), 0, out);
  const std::vector<unsigned> got = host_copy(out, 5 * kThreads);
  for (unsigned rank = 0; rank < kThreads; ++rank) {
    const unsigned first = rank - rank % Size;
    unsigned ballot = 0;  // bit i: the tile's rank i, whichever lanes of its warp the tile has
    for (unsigned i = 0; i < Size; ++i) ballot |= ((first + i) % 3 == 0 ? 1u : 0u) << i;
    const unsigned all_of_tile = Size == 32 ? 0xffffffffu : (1u << Size) - 1;
    const bool even_tile = rank / Size % 2 == 0;
    EXPECT_EQ(got[5 * rank + 0], ballot) << rank;
    EXPECT_EQ(got[5 * rank + 1], ballot != 0 ? 1u : 0u) << rank;
    EXPECT_EQ(got[5 * rank + 2], ballot == all_of_tile ? 1u : 0u) << rank;
    EXPECT_EQ(got[5 * rank + 3], even_tile ? 1u : 0u) << rank;
    EXPECT_EQ(got[5 * rank + 4], even_tile ? 1u : 0u) << rank;
  }
  cudaFree(out);
}

TEST(CudaCpuCooperativeGroups, BallotAnyAndAllVoteWithinTheTileWithBitsRelativeToIt) {
  check_votes<1>();
  check_votes<2>();
  check_votes<4>();
  check_votes<8>();
  check_votes<16>();
  check_votes<32>();
}

// ---- reduce ----

constexpr unsigned kReductions = 7;

template <unsigned Size>
__global__ void tile_reductions(const int* in, const float* floats, int* out, float* float_sums) {
  const cg::thread_block block = cg::this_thread_block();
  const auto tile = cg::tiled_partition<Size>(block);
  const unsigned rank = block.thread_rank() + block.group_index().x * block.size();
  const int value = in[rank];
  const auto bits = static_cast<unsigned>(value);
  int* mine = out + kReductions * rank;
  mine[0] = cg::reduce(tile, value, cg::plus<int>());
  mine[1] = cg::reduce(tile, value, cg::greater<int>());
  mine[2] = cg::reduce(tile, value, cg::less<int>());
  mine[3] = static_cast<int>(cg::reduce(tile, bits, cg::bit_and<unsigned>()));
  mine[4] = static_cast<int>(cg::reduce(tile, bits, cg::bit_or<unsigned>()));
  mine[5] = static_cast<int>(cg::reduce(tile, bits, cg::bit_xor<unsigned>()));
  mine[6] = cg::reduce(tile, value, [](int a, int b) { return a < b ? b : a; });  // any callable
  float_sums[rank] = cg::reduce(tile, floats[rank], cg::plus<float>());
}

template <unsigned Size>
void check_reductions() {
  SCOPED_TRACE("thread_block_tile<" + std::to_string(Size) + ">");
  constexpr unsigned kBlocks = 2, kThreads = 64, kCount = kBlocks * kThreads;
  std::vector<int> values(kCount);
  std::vector<float> floats(kCount);
  for (unsigned i = 0; i < kCount; ++i) {
    values[i] = static_cast<int>((i * 2654435761u) % 2001) - 1000;
    floats[i] = 0.5f + 0.01f * static_cast<float>(i % 37);
  }
  int* in = device_copy(values);
  float* float_in = device_copy(floats);
  int* out = device_copy(std::vector<int>(kReductions * kCount, 0));
  float* float_sums = device_copy(std::vector<float>(kCount, 0.0f));
  launch("tile_reductions", tile_reductions<Size>, dim3(kBlocks), dim3(kThreads), 0, in, float_in, out, float_sums);
  const std::vector<int> got = host_copy(out, kReductions * kCount);
  const std::vector<float> got_floats = host_copy(float_sums, kCount);
  for (unsigned first = 0; first < kCount; first += Size) {
    const auto begin = values.begin() + first, end = begin + Size;
    unsigned all_bits = ~0u, any_bits = 0, odd_bits = 0;
    for (auto v = begin; v != end; ++v) {
      all_bits &= static_cast<unsigned>(*v);
      any_bits |= static_cast<unsigned>(*v);
      odd_bits ^= static_cast<unsigned>(*v);
    }
    const float float_sum = std::accumulate(floats.begin() + first, floats.begin() + first + Size, 0.0f);
    for (unsigned rank = first; rank < first + Size; ++rank) {  // every lane has the result
      const int* mine = &got[kReductions * rank];
      EXPECT_EQ(mine[0], std::accumulate(begin, end, 0)) << "plus, " << rank;
      EXPECT_EQ(mine[1], *std::max_element(begin, end)) << "greater, " << rank;
      EXPECT_EQ(mine[2], *std::min_element(begin, end)) << "less, " << rank;
      EXPECT_EQ(static_cast<unsigned>(mine[3]), all_bits) << "bit_and, " << rank;
      EXPECT_EQ(static_cast<unsigned>(mine[4]), any_bits) << "bit_or, " << rank;
      EXPECT_EQ(static_cast<unsigned>(mine[5]), odd_bits) << "bit_xor, " << rank;
      EXPECT_EQ(mine[6], *std::max_element(begin, end)) << "a lambda, " << rank;
      EXPECT_NEAR(got_floats[rank], float_sum, 1e-4f * Size) << "plus<float>, " << rank;
      EXPECT_EQ(got_floats[rank], got_floats[first]) << "every lane the same float, " << rank;
    }
  }
  cudaFree(in);
  cudaFree(float_in);
  cudaFree(out);
  cudaFree(float_sums);
}

TEST(CudaCpuCooperativeGroups, ReduceOverEveryTileSizeMatchesTheHostOnEveryLane) {
  check_reductions<1>();
  check_reductions<2>();
  check_reductions<4>();
  check_reductions<8>();
  check_reductions<16>();
  check_reductions<32>();
}

// ---- syncs order shared memory ----

// Each thread reads the slot the next thread wrote: a race unless a barrier
// of the whole block lies between.
enum class BlockSync { none, member, free_function, as_thread_group };

template <BlockSync kSync>
__global__ void read_the_next_slot(const int* in, int* out) {
  __shared__ int slot[128];
  const cg::thread_block block = cg::this_thread_block();
  const unsigned rank = block.thread_rank();
  slot[rank] = in[rank];
  if (kSync == BlockSync::member) block.sync();
  if (kSync == BlockSync::free_function) cg::sync(block);
  if (kSync == BlockSync::as_thread_group) {
    const cg::thread_group group = block;
    group.sync();
  }
  out[rank] = slot[(rank + 1) % block.size()];
}

TEST(CudaCpuCooperativeGroups, ThreadBlockSyncOrdersSharedMemoryAndWithoutItTheReadIsARace) {
  constexpr unsigned kThreads = 128;
  std::vector<int> values(kThreads);
  std::iota(values.begin(), values.end(), 500);
  int* in = device_copy(values);
  int* out = device_copy(std::vector<int>(kThreads, 0));
  EXPECT_THAT(kernel_error([&] {
                launch("read_the_next_slot", read_the_next_slot<BlockSync::none>, dim3(1), dim3(kThreads), 0, in, out);
              }),
              HasSubstr("kernel read_the_next_slot: race on __shared__ slot"));
  for (const auto kernel : {read_the_next_slot<BlockSync::member>, read_the_next_slot<BlockSync::free_function>,
                            read_the_next_slot<BlockSync::as_thread_group>}) {
    EXPECT_EQ(kernel_error([&] { launch("read_the_next_slot", kernel, dim3(1), dim3(kThreads), 0, in, out); }), "");
    const std::vector<int> got = host_copy(out, kThreads);
    for (unsigned rank = 0; rank < kThreads; ++rank) EXPECT_EQ(got[rank], values[(rank + 1) % kThreads]) << rank;
  }
  cudaFree(in);
  cudaFree(out);
}

// Each thread reads a slot another thread wrote, in its own tile of 8 or in
// the next tile: a tile's sync orders its own lanes only.
enum class TileSync { none, member, dynamic_tile };

template <TileSync kSync>
__global__ void read_within_tiles(int* out, bool from_the_next_tile) {
  __shared__ int slot[64];
  const cg::thread_block block = cg::this_thread_block();
  const auto tile = cg::tiled_partition<8>(block);
  const unsigned rank = block.thread_rank();
  slot[rank] = static_cast<int>(rank) * 3;
  if (kSync == TileSync::member) tile.sync();
  if (kSync == TileSync::dynamic_tile) cg::sync(cg::tiled_partition(block, 8));
  const unsigned first = rank - tile.thread_rank();
  const unsigned source = from_the_next_tile ? (rank + 8) % 64 : first + (tile.thread_rank() + 1) % 8;
  out[rank] = slot[source];
}

TEST(CudaCpuCooperativeGroups, ATileSyncOrdersTheTilesLanesAndOnlyThem) {
  constexpr unsigned kThreads = 64;
  int* out = device_copy(std::vector<int>(kThreads, 0));
  const auto run = [&](void (*kernel)(int*, bool), bool from_the_next_tile) {
    return kernel_error(
        [&] { launch("read_within_tiles", kernel, dim3(1), dim3(kThreads), 0, out, from_the_next_tile); });
  };
  EXPECT_THAT(run(read_within_tiles<TileSync::none>, false), HasSubstr("race on __shared__ slot"));
  for (const auto kernel : {read_within_tiles<TileSync::member>, read_within_tiles<TileSync::dynamic_tile>}) {
    EXPECT_EQ(run(kernel, false), "");
    const std::vector<int> got = host_copy(out, kThreads);
    for (unsigned rank = 0; rank < kThreads; ++rank)
      EXPECT_EQ(got[rank], static_cast<int>(rank - rank % 8 + (rank + 1) % 8) * 3) << rank;
    EXPECT_THAT(run(kernel, true), HasSubstr("race on __shared__ slot"));
  }
  cudaFree(out);
}

// ---- what a GPU would hang or abort on ----

// The upper half of the block's second tile of 8 leaves before the tile's call.
enum class TileCall { shfl_down, reduce, sync, ballot };

template <TileCall kCall>
__global__ void half_a_tile_leaves(int* out) {
  const auto tile = cg::tiled_partition<8>(cg::this_thread_block());
  if (tile.meta_group_rank() == 1 && tile.thread_rank() >= 4) return;
  int value = static_cast<int>(tile.thread_rank());
  if (kCall == TileCall::shfl_down) value = tile.shfl_down(value, 1);
  if (kCall == TileCall::reduce) value = cg::reduce(tile, value, cg::plus<int>());
  if (kCall == TileCall::sync) tile.sync();
  if (kCall == TileCall::ballot) value = static_cast<int>(tile.ballot(value > 1));
  out[cg::this_thread_block().thread_rank()] = value;
}

TEST(CudaCpuCooperativeGroups, ATileCallSomeOfWhoseLanesExitedFailsNamingTheCallTheTileAndTheLane) {
  int* out = device_copy(std::vector<int>(32, 0));
  const auto error = [&](void (*kernel)(int*)) {
    return kernel_error([&] { launch("half_a_tile_leaves", kernel, dim3(1), dim3(32), 0, out); });
  };
  const std::string shuffle = error(half_a_tile_leaves<TileCall::shfl_down>);
  EXPECT_THAT(shuffle, HasSubstr("kernel half_a_tile_leaves: thread_block_tile::shfl_down with mask 0x0000ff00 in "
                                 "thread ("));
  EXPECT_THAT(shuffle, HasSubstr("names lane 12, which has exited"));
  const std::string reduce = error(half_a_tile_leaves<TileCall::reduce>);
  EXPECT_THAT(reduce, HasSubstr("cooperative_groups::reduce with mask 0x0000ff00"));
  EXPECT_THAT(reduce, HasSubstr("names lane 12, which has exited"));
  // A tile's sync and votes are the warp's __syncwarp and __ballot_sync.
  EXPECT_THAT(error(half_a_tile_leaves<TileCall::sync>), HasSubstr("__syncwarp with mask 0x0000ff00"));
  EXPECT_THAT(error(half_a_tile_leaves<TileCall::ballot>), HasSubstr("__ballot_sync with mask 0x0000ff00"));
  cudaFree(out);
}

// A tile<32> of a block of 48 threads: the second warp's tile names 16 lanes
// the block does not have (on a GPU, a call that never completes).
__global__ void warp_tiles_of_a_partial_warp(int* out) {
  const cg::thread_block block = cg::this_thread_block();
  const auto warp = cg::tiled_partition<32>(block);
  out[block.thread_rank()] = warp.shfl(static_cast<int>(block.thread_rank()), 0);
}

TEST(CudaCpuCooperativeGroups, AWarpTileOfAPartialWarpFailsNamingTheMissingLane) {
  int* out = device_copy(std::vector<int>(64, 0));
  EXPECT_THAT(kernel_error([&] {
                launch("warp_tiles_of_a_partial_warp", warp_tiles_of_a_partial_warp, dim3(1), dim3(48), 0, out);
              }),
              HasSubstr("thread_block_tile::shfl with mask 0xffffffff in thread ("));
  EXPECT_THAT(kernel_error([&] {
                launch("warp_tiles_of_a_partial_warp", warp_tiles_of_a_partial_warp, dim3(1), dim3(48), 0, out);
              }),
              HasSubstr("names lane 16, which this block of 48 threads does not have"));
  EXPECT_EQ(kernel_error([&] {
              launch("warp_tiles_of_a_partial_warp", warp_tiles_of_a_partial_warp, dim3(1), dim3(64), 0, out);
            }),
            "");
  cudaFree(out);
}

constexpr int kBadTileLine = __LINE__ + 2;
__global__ void tile_of_twelve(int* out) {
  const cg::thread_group tile = cg::tiled_partition(cg::this_thread_block(), 12);
  out[threadIdx.x] = static_cast<int>(tile.thread_rank());
}

TEST(CudaCpuCooperativeGroups, ADynamicTileOfAnUnsupportedSizeFailsAtItsLine) {
  int* out = device_copy(std::vector<int>(32, 0));
  const std::string error = kernel_error([&] { launch("tile_of_twelve", tile_of_twelve, dim3(1), dim3(32), 0, out); });
  EXPECT_THAT(error, HasSubstr("kernel tile_of_twelve: thread ("));
  EXPECT_THAT(error, HasSubstr("at tests/cuda_cpu_cooperative_groups_test.cu:" + std::to_string(kBadTileLine) +
                               ": tiled_partition(group, tile_size): a tile has 1, 2, 4, 8, 16 or 32 threads"));
  cudaFree(out);
}

constexpr int kGridSyncLine = __LINE__ + 4;
__global__ void grid_sync(int* out) {
  const cg::grid_group grid = cg::this_grid();
  out[grid.thread_rank()] = 1;
  grid.sync();
  out[grid.thread_rank()] = 2;
}

TEST(CudaCpuCooperativeGroups, GridSyncCompilesButFailsTheLaunchSayingItIsNotModelled) {
  int* out = device_copy(std::vector<int>(128, 0));
  const std::string error = kernel_error([&] { launch("grid_sync", grid_sync, dim3(2), dim3(64), 0, out); });
  EXPECT_THAT(error, HasSubstr("kernel grid_sync: thread ("));
  EXPECT_THAT(error, HasSubstr("at tests/cuda_cpu_cooperative_groups_test.cu:" + std::to_string(kGridSyncLine) +
                               ": grid_group::sync is not modelled: the CPU runtime runs a launch's blocks one "
                               "after another"));
  cudaFree(out);
}

// ---- as a student writes it ----

// Each warp's sum of its 32 values (zero past the end), written by its lane 0;
// and the sum of them all, from one atomic per warp.
__global__ void warp_sums(const float* in, float* sums, float* total, int n) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const float value = i < n ? in[i] : 0.0f;
  float sum = value;
  for (int offset = static_cast<int>(warp.size()) / 2; offset > 0; offset /= 2) sum += warp.shfl_down(sum, offset);
  const float same_sum = cg::reduce(warp, value, cg::plus<float>());
  if (warp.thread_rank() == 0) {
    sums[i / 32] = sum;
    atomicAdd(total, same_sum);
  }
}

TEST(CudaCpuCooperativeGroups, AWarpSumWrittenWithCooperativeGroupsMatchesTheHost) {
  constexpr int kCount = 1000, kThreads = 256, kBlocks = (kCount + kThreads - 1) / kThreads;
  constexpr int kWarps = kBlocks * kThreads / 32;
  std::vector<float> values(kCount);
  for (int i = 0; i < kCount; ++i) values[static_cast<std::size_t>(i)] = static_cast<float>(i % 17) - 4.5f;
  float* in = device_copy(values);
  float* sums = device_copy(std::vector<float>(kWarps, -1.0f));
  float* total = device_copy(std::vector<float>(1, 0.0f));
  ASSERT_EQ(
      kernel_error([&] { launch("warp_sums", warp_sums, dim3(kBlocks), dim3(kThreads), 0, in, sums, total, kCount); }),
      "");
  const std::vector<float> got = host_copy(sums, kWarps);
  for (int warp = 0; warp < kWarps; ++warp) {
    float expected = 0.0f;
    for (int i = warp * 32; i < std::min(kCount, warp * 32 + 32); ++i) expected += values[static_cast<std::size_t>(i)];
    EXPECT_NEAR(got[static_cast<std::size_t>(warp)], expected, 1e-3f) << "warp " << warp;
  }
  EXPECT_NEAR(host_copy(total, 1)[0], std::accumulate(values.begin(), values.end(), 0.0f), 1e-2f);
  cudaFree(in);
  cudaFree(sums);
  cudaFree(total);
}

}  // namespace
