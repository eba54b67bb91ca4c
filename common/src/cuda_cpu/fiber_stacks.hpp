// The CUDA threads' stacks: one mapping, a stack per thread of the largest
// block so far, each with a guard page below it. A thread that runs off its
// stack touches the guard page, and the fault becomes a launch error naming
// the kernel (scheduler.cpp) instead of a crash. Internal.
#pragma once

#include <cstddef>
#include <cstdint>

namespace rooflab::cuda_cpu::detail {

// A GPU gives each thread at most 512 KiB of local memory; the stacks hold
// that and the runtime's own frames.
inline constexpr std::size_t kLocalMemoryPerThread = 512 * 1024;
inline constexpr std::size_t kStackBytes = kLocalMemoryPerThread + 64 * 1024;

class FiberStacks {
 public:
  FiberStacks() = default;
  ~FiberStacks();
  FiberStacks(const FiberStacks&) = delete;
  FiberStacks& operator=(const FiberStacks&) = delete;
  // At least `count` stacks (mapped on first use: untouched pages cost nothing).
  void reserve(unsigned count);
  // The lowest and highest address of stack `i` (it grows down from high).
  std::uintptr_t low(unsigned i) const { return base_ + i * slot_ + guard_; }
  std::uintptr_t high(unsigned i) const { return low(i) + kStackBytes; }
  // Whether `address` is in a guard page: the stack below it overflowed.
  bool in_guard_page(std::uintptr_t address) const;

 private:
  std::uintptr_t base_ = 0;
  std::size_t slot_ = 0, guard_ = 0;
  unsigned count_ = 0;
};

}  // namespace rooflab::cuda_cpu::detail
