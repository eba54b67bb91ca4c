#include "fiber_stacks.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <new>

namespace rooflab::cuda_cpu::detail {

FiberStacks::~FiberStacks() {
  if (base_) munmap(reinterpret_cast<void*>(base_), slot_ * count_);
}

void FiberStacks::reserve(unsigned count) {
  if (count <= count_) return;
  if (base_) munmap(reinterpret_cast<void*>(base_), slot_ * count_);
  guard_ = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  slot_ = guard_ + kStackBytes;
  void* mapped =
      mmap(nullptr, slot_ * count, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (mapped == MAP_FAILED) {
    base_ = 0;
    count_ = 0;
    throw std::bad_alloc();
  }
  base_ = reinterpret_cast<std::uintptr_t>(mapped);
  count_ = count;
  for (unsigned i = 0; i < count; ++i) mprotect(reinterpret_cast<void*>(base_ + i * slot_), guard_, PROT_NONE);
}

bool FiberStacks::in_guard_page(std::uintptr_t address) const {
  if (!base_ || address < base_ || address >= base_ + slot_ * count_) return false;
  return (address - base_) % slot_ < guard_;
}

}  // namespace rooflab::cuda_cpu::detail
