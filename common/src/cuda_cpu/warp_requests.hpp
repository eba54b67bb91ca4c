// Nsight Compute's request counts on the CPU: the accesses of a warp's lanes
// that ran the same instruction the same time make one request. A block's
// fibers run one after another, so the runtime groups each lane's accesses by
// (instruction, how many times that lane ran it before) within a barrier
// interval, and counts when the interval ends. Internal.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

#include "rooflab/cuda_cpu.hpp"
#include "thread_context.hpp"

namespace rooflab::cuda_cpu::detail {

enum class Space : std::uint8_t { global, shared };
// async_load: a cp.async's global read, a load its warp does not wait for.
enum class Operation : std::uint8_t { load, store, atomic, async_load };

// One shared-memory request into `counters`: the wavefronts it took, and the
// ones beyond the fewest its bytes need (its bank conflicts, returned).
// Shared atomics count as loads.
inline unsigned count_shared_request(MemoryCounters& counters, Operation operation, unsigned wavefronts,
                                     unsigned fewest) {
  const unsigned conflicts = wavefronts > fewest ? wavefronts - fewest : 0;
  ++(operation == Operation::store ? counters.shared_store_requests : counters.shared_load_requests);
  counters.shared_wavefronts += wavefronts;
  counters.shared_bank_conflicts += conflicts;
  return conflicts;
}

// Requests instruction by instruction over a launch (LaunchRecord::instructions).
using InstructionTally = std::unordered_map<const void*, InstructionCounters>;

class WarpRequests {
 public:
  // One lane's access: `pc` is the instruction that made it. Inline, the
  // usual cases: the lane's next access joins the next request, made by a
  // lane that ran before it; or, keyed, the request after the lane's last
  // (find_keyed()).
  void add(ThreadContext& lane, const void* pc, Space space, Operation operation, std::uintptr_t address,
           unsigned size) {
    if (lane.requests_serial == serial_) {
      if (!keyed_) {
        const std::uint32_t position = lane.position;
        if (position < requests_.size() && requests_[position].pc == pc) {
          lane.position = position + 1;
          return note(requests_[position], address, size);
        }
      } else if (lane.keyed_serial == keyed_serial_ && joins_next(lane, pc)) {
        return note(requests_[take_next(lane)], address, size);
      }
    }
    add_otherwise(lane, pc, space, operation, address, size);
  }
  // Counts every request since the last call into `counters` and forgets them
  // (a barrier, or the block's end: every lane has run its part).
  void count_into(MemoryCounters& counters, InstructionTally& instructions);
  // Requests not counted yet. A lane that runs long without a barrier (or a
  // spin-wait) would make this grow without end: past kMaxPending the checker
  // counts them early, and a lane that has not run yet then starts requests
  // of its own (an overcount, never a missed access).
  std::size_t pending() const { return requests_.size(); }
  static constexpr std::size_t kMaxPending = 1 << 15;
  // The requests counted since the last call (a block's, called as the next
  // block starts): MemoryCounters::heaviest_warp_requests.
  std::uint64_t take_counted() { return std::exchange(counted_, 0); }

 private:
  // What is counted of a request: the distinct units its lanes' bytes touch
  // (32-byte sectors of global memory, 4-byte words of shared memory), as a
  // bitmap of the kWindow units from `base` (a multiple of 32, so that bit i
  // is in bank i mod 32): from kBelow below the first lane's unit's multiple
  // of 32, so that lanes up to 255 units either side of it fit (a 16-lane
  // column of a padded 16 x 17 tile). Units outside it (lanes far apart) go
  // into a list, spills_[spill - 1]. 128 bytes: an index is a shift, and a
  // request is two cache lines at most.
  static constexpr unsigned kBelow = 256, kWindow = kBelow + 32 + 256 + 32;
  struct alignas(128) Request {
    Request(const void* pc_, Space space_, Operation operation_, std::uintptr_t address)
        : pc(pc_),
          base(((address >> shift_of(space_)) & ~std::uintptr_t{31}) - kBelow),
          shift(static_cast<std::uint8_t>(shift_of(space_))),
          space(space_),
          operation(operation_) {}
    const void* pc;
    std::uintptr_t base;
    std::uint64_t bits[kWindow / 64] = {};
    std::uint32_t spill = 0;
    // Once the requests are keyed: the instruction's slot, and how many of
    // the instruction's requests come before this one.
    std::uint32_t slot = 0, occurrence = 0;
    std::uint8_t shift;  // shift_of(space)
    Space space;
    Operation operation;
  };
  static unsigned shift_of(Space space) { return space == Space::global ? 5 : 2; }
  // Keyed: whether the lane's access at `pc` is its key's request and the one
  // after the lane's last (lanes that skipped an access, a branch, mostly go
  // on in step after it); take_next() then joins the lane to it.
  bool joins_next(const ThreadContext& lane, const void* pc) const {
    if (lane.next_request >= requests_.size()) return false;
    const Request& next = requests_[lane.next_request];
    return next.pc == pc && next.slot < lane.occurrences.size() && lane.occurrences[next.slot] == next.occurrence;
  }
  std::uint32_t take_next(ThreadContext& lane) {
    ++lane.occurrences[requests_[lane.next_request].slot];
    return lane.next_request++;
  }
  // A lane's access joins `request`: its units go into the bitmap (of an
  // access past 255 bytes, those of its first 255).
  void note(Request& request, std::uintptr_t address, unsigned size) {
    const std::uintptr_t first = (address >> request.shift) - request.base;
    const std::uintptr_t last = ((address + (size < 255u ? size : 255u) - 1) >> request.shift) - request.base;
    if (first >= kWindow || last >= kWindow) return spill(request, first, last);  // below base: a large value
    if (first / 64 == last / 64) {
      request.bits[first / 64] |= (std::uint64_t{2} << (last % 64)) - (std::uint64_t{1} << (first % 64));
      return;
    }
    for (std::uintptr_t unit = first; unit <= last; ++unit) request.bits[unit / 64] |= std::uint64_t{1} << (unit % 64);
  }
  // `first` and `last` relative to the request's base (wrapped below it).
  void spill(Request& request, std::uintptr_t first, std::uintptr_t last);
  void add_otherwise(ThreadContext& lane, const void* pc, Space space, Operation operation, std::uintptr_t address,
                     unsigned size);
  // The index of the request the lane's access joins, made if it is the first.
  std::uint32_t find(ThreadContext& lane, const void* pc, Space space, Operation operation, std::uintptr_t address);
  std::uint32_t find_keyed(ThreadContext& lane, const void* pc, Space space, Operation operation,
                           std::uintptr_t address);
  void key_every_request();
  std::uint32_t slot_of(const void* pc);

  // What add() reads first, together.
  std::vector<Request> requests_;
  std::uint64_t serial_ = 0;  // tells a lane its position is stale (the requests were counted)
  // Until a lane's accesses stop following the order the requests were made
  // in, a lane's k-th access joins request k; after, requests are found by key
  // (instruction, occurrence).
  bool keyed_ = false;
  std::uint64_t keyed_serial_ = 0;  // tells a lane its occurrence counts are stale
  // The units of requests whose lanes lay too far apart for a bitmap (the
  // first spill_count_ are in use; the rest keep their capacity).
  std::vector<std::vector<std::uintptr_t>> spills_;
  std::uint32_t spill_count_ = 0;
  std::uint64_t counted_ = 0;
  // The instructions this warp ran, each given a slot for the launch (an
  // open-addressing table, pc -> slot + 1; 0: empty), and per slot its keyed
  // requests by occurrence: a key's request without hashing the key.
  std::vector<std::pair<const void*, std::uint32_t>> slots_;
  std::uint32_t slot_count_ = 0;
  std::vector<std::vector<std::uint32_t>> by_occurrence_;
};

}  // namespace rooflab::cuda_cpu::detail
