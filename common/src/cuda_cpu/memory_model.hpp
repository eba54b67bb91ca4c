// CUDA's memory model between blocks, as far as the race check needs it
// (memory_checker.cpp). Blocks run one after another here, but a GPU runs
// them in any order and at once, so one block's accesses are ordered before
// another's only through synchronisation the PTX memory model recognises: a
// release (__threadfence(), then an atomic or volatile write) observed by an
// acquire (an atomic or volatile read of the same location), passed on by
// __syncthreads within the acquiring block. What a point of a thread's
// execution knows of other blocks is a Knowledge: per block, the barrier
// intervals it has seen end, and per thread the ticks of its clock. Internal.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

namespace rooflab::cuda_cpu::detail {

class Knowledge {
 public:
  // Whether thread `thread` of block `block`'s access at barrier interval
  // `interval` and clock tick `tick` is ordered before this point.
  bool covers(std::uint32_t block, std::uint32_t interval, std::uint16_t thread, std::uint32_t tick) const {
    const auto found = blocks_.find(block);
    if (found == blocks_.end()) return false;
    if (interval < found->second.intervals) return true;
    for (const auto& [known_thread, known_tick] : found->second.threads)
      if (known_thread == thread) return tick < known_tick;
    return false;
  }
  bool empty() const { return blocks_.empty(); }

  // Everything of block `block` before interval `interval` (a barrier
  // ordered it before the thread that learns this).
  void learn_intervals(std::uint32_t block, std::uint32_t interval) {
    Known& known = blocks_[block];
    if (interval > known.intervals) known.intervals = interval;
  }
  // Thread `thread` of block `block`, every tick below `tick`.
  void learn_thread(std::uint32_t block, std::uint16_t thread, std::uint32_t tick) {
    Known& known = blocks_[block];
    for (auto& [known_thread, known_tick] : known.threads) {
      if (known_thread != thread) continue;
      if (tick > known_tick) known_tick = tick;
      return;
    }
    known.threads.emplace_back(thread, tick);
  }
  void learn(const Knowledge& other) {
    for (const auto& [block, known] : other.blocks_) {
      learn_intervals(block, known.intervals);
      for (const auto& [thread, tick] : known.threads) learn_thread(block, thread, tick);
    }
  }
  void clear() { blocks_.clear(); }

 private:
  struct Known {
    std::uint32_t intervals = 0;
    std::vector<std::pair<std::uint16_t, std::uint32_t>> threads;
  };
  std::unordered_map<std::uint32_t, Known> blocks_;
};

}  // namespace rooflab::cuda_cpu::detail
