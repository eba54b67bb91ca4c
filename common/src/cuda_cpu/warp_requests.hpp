// Nsight Compute's request counts on the CPU: the accesses of a warp's lanes
// that ran the same instruction the same time make one request. A block's
// fibers run one after another, so the runtime groups each lane's accesses by
// (instruction, how many times that lane ran it before) within a barrier
// interval, and counts when the interval ends. Internal.
#pragma once

#include <array>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "rooflab/cuda_cpu.hpp"
#include "thread_context.hpp"

namespace rooflab::cuda_cpu::detail {

enum class Space : std::uint8_t { global, shared };
enum class Operation : std::uint8_t { load, store, atomic };

class WarpRequests {
 public:
  // One lane's access: `pc` is the instruction that made it.
  void add(ThreadContext& lane, const void* pc, Space space, Operation operation, std::uintptr_t address,
           unsigned size);
  // Counts every request since the last call into `counters` and forgets them
  // (a barrier, or the block's end: every lane has run its part).
  void count_into(MemoryCounters& counters);
  // Requests not counted yet. A lane that runs long without a barrier (or a
  // spin-wait) would make this grow without end: past kMaxPending the checker
  // counts them early, and a lane that has not run yet then starts requests
  // of its own (an overcount, never a missed access).
  std::size_t pending() const { return requests_.size(); }
  static constexpr std::size_t kMaxPending = 1 << 15;

 private:
  struct Request {
    const void* pc = nullptr;
    std::uint32_t occurrence = 0;
    Space space = Space::global;
    Operation operation = Operation::load;
    std::uint8_t lanes = 0;
    std::array<std::uintptr_t, 32> addresses{};
    std::array<std::uint8_t, 32> sizes{};
  };
  struct KeyHash {
    std::size_t operator()(const std::pair<const void*, std::uint32_t>& key) const {
      return std::hash<const void*>()(key.first) * 31 + key.second;
    }
  };
  Request& find(ThreadContext& lane, const void* pc, Space space, Operation operation);
  void key_every_request();

  std::vector<Request> requests_;
  // Until a lane's accesses stop following the order the requests were made
  // in, a lane's k-th access joins request k; after, requests are found by key.
  bool keyed_ = false;
  std::uint64_t keyed_serial_ = 0;  // tells a lane its occurrence counts are stale
  std::uint64_t serial_ = 0;        // tells a lane its position is stale (the requests were counted)
  std::unordered_map<std::pair<const void*, std::uint32_t>, std::uint32_t, KeyHash> by_key_;
};

}  // namespace rooflab::cuda_cpu::detail
