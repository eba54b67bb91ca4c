// CUDA's cooperative groups (<cooperative_groups.h>, <cooperative_groups/reduce.h>)
// on the CPU runtime, built on its block and warp-level calls only.
//
// A thread_block_tile<N> is N consecutive threads of the block (by thread
// rank), never straddling a warp: its sync is __syncwarp and its shuffles and
// votes are the warp's, with the tile's own lane mask, as CUDA builds them.
// So the runtime checks them as it checks those calls: a tile some of whose
// lanes have exited, wait elsewhere or do not exist (a tile<32> of a block of
// 48 threads) fails the launch, naming the call ("thread_block_tile::shfl_down",
// "cooperative_groups::reduce"; a tile's sync and votes are named by the
// __syncwarp and __ballot_sync they are), the mask and the lane.
//
// What is not here:
//   - grid-wide synchronisation: this_grid() gives the grid's ranks, but
//     grid_group::sync() fails the launch, as the runtime runs a launch's
//     blocks one after another and none could wait for the others;
//   - coalesced_threads(): the runtime knows which lanes have exited, not
//     which took the same branch, so it could not tell the group;
//   - tiles of more than 32 threads (they need block_tile_memory), match_any,
//     match_all, scans and memcpy_async.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include "rooflab/cuda_cpu.hpp"

namespace cooperative_groups {

namespace details {

namespace runtime = rooflab::cuda_cpu;

// The calling thread's rank in its block, x fastest (as CUDA counts it, and
// as the runtime deals threads into warps).
inline unsigned block_rank() {
  const dim3 thread = runtime::thread_index(), block = runtime::block_dimensions();
  return thread.x + block.x * (thread.y + block.y * thread.z);
}
inline unsigned block_size() { return runtime::block_dimensions().count(); }
inline unsigned block_rank_in_grid() {
  const dim3 block = runtime::block_index(), grid = runtime::grid_dimensions();
  return block.x + grid.x * (block.y + grid.y * block.z);
}

// Errors, built before main: kernel code cannot build a std::string, whose
// heap is host memory that the runtime's memcheck refuses it.
inline const std::string bad_tile_size_message =
    "tiled_partition(group, tile_size): a tile has 1, 2, 4, 8, 16 or 32 threads (a GPU aborts the kernel)";
inline const std::string grid_sync_message =
    "grid_group::sync is not modelled: the CPU runtime runs a launch's blocks one after another, so no block can "
    "wait for the others";

constexpr bool is_tile_size(unsigned size) { return size >= 1 && size <= 32 && (size & (size - 1)) == 0; }

// The lanes of the calling thread's tile of `size` lanes: aligned to `size`
// within its warp, whether or not the block has all of them.
inline unsigned tile_lanes(unsigned size) {
  const unsigned first = runtime::this_lane() & ~(size - 1);
  return size == 32 ? 0xffffffffu : ((1u << size) - 1) << first;
}

// The lanes of the calling thread's warp that the block has (fewer in a last,
// partial warp).
inline unsigned lanes_the_block_has() {
  const unsigned warp_start = block_rank() - runtime::this_lane();
  const unsigned count = block_size() - warp_start;
  return count >= 32 ? 0xffffffffu : (1u << count) - 1;
}

// Every lane of `mask` passes `value` and gets lane `source_lane`'s. The
// runtime carries 8 bytes a call, so a larger value travels in pieces, each
// from the same lane.
template <class T>
T shuffle(unsigned mask, T value, unsigned source_lane, const char* call) {
  static_assert(std::is_trivially_copyable_v<T>, "cooperative groups shuffle trivially copyable values only");
  auto* bytes = reinterpret_cast<unsigned char*>(&value);
  for (std::size_t offset = 0; offset < sizeof(T); offset += sizeof(std::uint64_t)) {
    const std::size_t piece = sizeof(T) - offset < sizeof(std::uint64_t) ? sizeof(T) - offset : sizeof(std::uint64_t);
    std::uint64_t bits = 0;
    std::memcpy(&bits, bytes + offset, piece);
    bits = runtime::shuffle(mask, bits, static_cast<int>(source_lane), call);
    std::memcpy(bytes + offset, &bits, piece);
  }
  return value;
}

// shfl_xor within the calling thread's tile of `Size` lanes: a partner
// outside the tile leaves the lane its own value, as __shfl_xor_sync with
// width Size does.
template <unsigned Size, class T>
T tile_shuffle_xor(T value, unsigned lane_mask, const char* call) {
  const unsigned lane = runtime::this_lane(), rank = lane & (Size - 1);
  const unsigned partner = (rank ^ lane_mask) < Size ? lane - rank + (rank ^ lane_mask) : lane;
  return shuffle(tile_lanes(Size), value, partner, call);
}

}  // namespace details

class thread_group;
thread_group tiled_partition(const thread_group& parent, unsigned tile_size);  // defined in thread_group

// Any group: the whole block, or a tile of it (tiled_partition(parent, n)).
// Static tiles and the block convert to it.
class thread_group {
 public:
  void sync() const {
    if (whole_block_)
      rooflab::cuda_cpu::syncthreads();
    else
      rooflab::cuda_cpu::syncwarp(lanes_);
  }
  unsigned long long num_threads() const {
    return whole_block_ ? details::block_size() : static_cast<unsigned>(__builtin_popcount(lanes_));
  }
  unsigned long long size() const { return num_threads(); }
  unsigned long long thread_rank() const {
    if (whole_block_) return details::block_rank();
    const unsigned lanes_below = (1u << rooflab::cuda_cpu::this_lane()) - 1;
    return static_cast<unsigned>(__builtin_popcount(lanes_ & lanes_below));
  }

 protected:
  thread_group(bool whole_block, unsigned lanes) : whole_block_(whole_block), lanes_(lanes) {}

 private:
  // The calling thread's tile of `tile_size` threads (1, 2, 4, 8, 16 or 32)
  // of `parent`; a last tile the block fills only in part has the threads it
  // has, as on a GPU. Defined here, as a friend, so that it can be kept out of
  // line (GCC refuses noinline on a function declared inline) and its error
  // names the caller's line.
  [[gnu::noinline]] friend thread_group tiled_partition(const thread_group& parent, unsigned tile_size) {
    if (!details::is_tile_size(tile_size))
      rooflab::cuda_cpu::fail_at(__builtin_extract_return_addr(__builtin_return_address(0)),
                                 details::bad_tile_size_message);
    const unsigned parent_lanes = parent.whole_block_ ? details::lanes_the_block_has() : parent.lanes_;
    return thread_group(false, details::tile_lanes(tile_size) & parent_lanes);
  }
  bool whole_block_;
  unsigned lanes_;  // a tile's lanes in the calling thread's warp
};

class thread_block : public thread_group {
 public:
  static void sync() { rooflab::cuda_cpu::syncthreads(); }
  static unsigned thread_rank() { return details::block_rank(); }
  static unsigned num_threads() { return details::block_size(); }
  static unsigned size() { return num_threads(); }
  static dim3 group_index() { return rooflab::cuda_cpu::block_index(); }
  static dim3 thread_index() { return rooflab::cuda_cpu::thread_index(); }
  static dim3 dim_threads() { return rooflab::cuda_cpu::block_dimensions(); }
  static dim3 group_dim() { return dim_threads(); }

 private:
  friend thread_block this_thread_block();
  thread_block() : thread_group(true, 0) {}
};

inline thread_block this_thread_block() { return {}; }

template <unsigned Size, class Parent = void>
class thread_block_tile;

// A tile of Size threads, whatever it was partitioned from: what
// thread_block_tile<Size, Parent> converts to.
template <unsigned Size>
class thread_block_tile<Size, void> : public thread_group {
  static_assert(details::is_tile_size(Size),
                "a thread_block_tile has 1, 2, 4, 8, 16 or 32 threads (larger ones, which need block_tile_memory, are "
                "not modelled)");

 public:
  static void sync() { rooflab::cuda_cpu::syncwarp(details::tile_lanes(Size)); }
  static unsigned thread_rank() { return details::block_rank() & (Size - 1); }
  static constexpr unsigned num_threads() { return Size; }
  static constexpr unsigned size() { return Size; }
  // Which of its parent's tiles this is, and how many the parent was cut into.
  unsigned meta_group_rank() const { return meta_group_rank_; }
  unsigned meta_group_size() const { return meta_group_size_; }

  template <class T>
  T shfl(T value, int source_rank) const {
    const unsigned first = rooflab::cuda_cpu::this_lane() & ~(Size - 1);
    // Any rank counts modulo Size, as __shfl_sync's width does.
    const unsigned source = first + (static_cast<unsigned>(source_rank) & (Size - 1));
    return details::shuffle(details::tile_lanes(Size), value, source, "thread_block_tile::shfl");
  }
  template <class T>
  T shfl_down(T value, unsigned delta) const {
    const unsigned lane = rooflab::cuda_cpu::this_lane();
    const unsigned source = delta < Size - thread_rank() ? lane + delta : lane;  // past the tile: its own
    return details::shuffle(details::tile_lanes(Size), value, source, "thread_block_tile::shfl_down");
  }
  template <class T>
  T shfl_up(T value, unsigned delta) const {
    const unsigned lane = rooflab::cuda_cpu::this_lane();
    const unsigned source = thread_rank() >= delta ? lane - delta : lane;  // before the tile: its own
    return details::shuffle(details::tile_lanes(Size), value, source, "thread_block_tile::shfl_up");
  }
  template <class T>
  T shfl_xor(T value, unsigned lane_mask) const {
    return details::tile_shuffle_xor<Size>(value, lane_mask, "thread_block_tile::shfl_xor");
  }

  // Bit i is the predicate of the tile's thread of rank i.
  unsigned ballot(int predicate) const {
    const unsigned first = rooflab::cuda_cpu::this_lane() & ~(Size - 1);
    return rooflab::cuda_cpu::ballot(details::tile_lanes(Size), predicate != 0) >> first;
  }
  int any(int predicate) const { return ballot(predicate) != 0; }
  int all(int predicate) const { return ballot(predicate) == (Size == 32 ? 0xffffffffu : (1u << Size) - 1); }

 protected:
  thread_block_tile(unsigned meta_group_rank, unsigned meta_group_size)
      : thread_group(false, details::tile_lanes(Size)),
        meta_group_rank_(meta_group_rank),
        meta_group_size_(meta_group_size) {}

 private:
  unsigned meta_group_rank_, meta_group_size_;
};

template <unsigned Size, class Parent>
thread_block_tile<Size, Parent> tiled_partition(const Parent& parent);

// A tile that knows its parent's type, as tiled_partition<Size>(parent)
// returns it; it converts to thread_block_tile<Size>.
template <unsigned Size, class Parent>
class thread_block_tile : public thread_block_tile<Size, void> {
 private:
  friend thread_block_tile tiled_partition<Size, Parent>(const Parent& parent);
  thread_block_tile(unsigned meta_group_rank, unsigned meta_group_size)
      : thread_block_tile<Size, void>(meta_group_rank, meta_group_size) {}
};

namespace details {
template <class Group>
struct is_tile : std::false_type {};
template <unsigned Size, class Parent>
struct is_tile<thread_block_tile<Size, Parent>> : std::true_type {};
}  // namespace details

// The calling thread's tile of Size threads of `parent` (the block or a larger
// tile): the parent's threads cut in order of rank.
template <unsigned Size, class Parent>
thread_block_tile<Size, Parent> tiled_partition(const Parent& parent) {
  static_assert(std::is_same_v<Parent, thread_block> || details::is_tile<Parent>::value,
                "tiled_partition<Size> cuts a thread_block or a thread_block_tile");
  if constexpr (details::is_tile<Parent>::value)
    static_assert(Size < Parent::num_threads(), "a tile is cut into smaller tiles");
  const unsigned parent_size = parent.num_threads();
  return thread_block_tile<Size, Parent>(parent.thread_rank() / Size, (parent_size + Size - 1) / Size);
}

// The calling thread alone, as a tile of one.
inline thread_block_tile<1> this_thread() { return tiled_partition<1>(this_thread_block()); }

// The whole grid. Its ranks are real, but it cannot synchronise here: the
// runtime runs a launch's blocks one after another, and is_valid() is false,
// as on a GPU for a launch that was not cooperative.
class grid_group {
 public:
  bool is_valid() const { return false; }
  [[gnu::noinline]] void sync() const {
    rooflab::cuda_cpu::fail_at(__builtin_extract_return_addr(__builtin_return_address(0)), details::grid_sync_message);
  }
  static unsigned long long num_threads() { return num_blocks() * details::block_size(); }
  static unsigned long long size() { return num_threads(); }
  static unsigned long long thread_rank() { return block_rank() * details::block_size() + details::block_rank(); }
  static unsigned long long num_blocks() { return rooflab::cuda_cpu::grid_dimensions().count(); }
  static unsigned long long block_rank() { return details::block_rank_in_grid(); }
  static dim3 block_index() { return rooflab::cuda_cpu::block_index(); }
  static dim3 dim_blocks() { return rooflab::cuda_cpu::grid_dimensions(); }
};

inline grid_group this_grid() { return {}; }

template <class Group>
void sync(const Group& group) {
  group.sync();
}
template <class Group>
auto thread_rank(const Group& group) {
  return group.thread_rank();
}
template <class Group>
auto group_size(const Group& group) {
  return group.num_threads();
}

// <cooperative_groups/reduce.h>: the operations reduce combines with.
template <class T>
struct plus {
  T operator()(T a, T b) const { return a + b; }
};
template <class T>
struct less {  // the smaller
  T operator()(T a, T b) const { return b < a ? b : a; }
};
template <class T>
struct greater {  // the larger
  T operator()(T a, T b) const { return a < b ? b : a; }
};
template <class T>
struct bit_and {
  T operator()(T a, T b) const { return a & b; }
};
template <class T>
struct bit_or {
  T operator()(T a, T b) const { return a | b; }
};
template <class T>
struct bit_xor {
  T operator()(T a, T b) const { return a ^ b; }
};

// `op` over the values of the tile's threads; every thread gets the result.
// A butterfly of shfl_xor: each round a lane combines its partial result
// with its partner's, Size/2, then Size/4, … 1 lanes away, so after
// log2(Size) rounds every lane has combined all Size values.
template <unsigned Size, class Parent, class T, class Op>
auto reduce(const thread_block_tile<Size, Parent>& /*tile: the calling thread's*/, T&& value, Op&& op)
    -> std::decay_t<decltype(op(value, value))> {
  std::decay_t<decltype(op(value, value))> result = value;
  for (unsigned distance = Size / 2; distance > 0; distance /= 2)
    result = op(result, details::tile_shuffle_xor<Size>(result, distance, "cooperative_groups::reduce"));
  return result;
}

}  // namespace cooperative_groups
