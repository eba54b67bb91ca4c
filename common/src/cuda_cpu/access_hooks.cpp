// The callbacks GCC's ThreadSanitizer instrumentation calls before every load,
// store and atomic of a CUDA_FILES source's CPU build (cmake/cuda_on_cpu.cmake
// compiles it with -fsanitize=thread; nothing links libtsan). In host code
// they return at once; in kernel code every access outside the thread's own
// stack goes to the launch's checker (memory_checker.hpp). This file is not
// instrumented itself.
//
// GCC declares these callbacks nothrow: an error found here never unwinds
// through kernel code; the thread is abandoned and the scheduler fails the
// launch (scheduler.cpp, abandon_thread).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "memory_checker.hpp"
#include "scheduler_internal.hpp"

namespace rooflab::cuda_cpu::detail {

void on_access(const void* address, std::size_t size, unsigned flags, const void* pc) {
  ThreadContext* thread = current_thread();
  if (!thread || thread->in_runtime) return;
  const auto at = reinterpret_cast<std::uintptr_t>(address);
  if (at - thread->stack_low < thread->stack_high - thread->stack_low) return;  // its own locals
  LaunchChecker* checker = current_checker();
  if (!checker || size == 0) return;
  // The checker takes sizes as 32 bits: a larger copy goes in pieces.
  constexpr std::size_t kPiece = std::size_t{1} << 30;
  for (std::size_t done = 0; done < size; done += kPiece)
    checker->check(*thread, at + done, static_cast<unsigned>(std::min(kPiece, size - done)), flags, pc);
}

void on_copy(void* to, const void* from, std::size_t bytes, const void* pc) {
  ThreadContext* thread = current_thread();
  if (!thread || thread->in_runtime || bytes == 0) return;
  if (LaunchChecker* checker = current_checker())
    checker->copy(*thread, reinterpret_cast<std::uintptr_t>(to), reinterpret_cast<std::uintptr_t>(from), bytes, pc);
}

}  // namespace rooflab::cuda_cpu::detail

namespace rooflab::cuda_cpu {

void access_for(const void* pc, void* to, const void* from, unsigned bytes, bool write) {
  detail::on_access(write ? to : from, bytes, write ? detail::kWrite : 0u, pc);
  std::memcpy(to, from, bytes);
}

}  // namespace rooflab::cuda_cpu

namespace {
using rooflab::cuda_cpu::detail::kRange;
using rooflab::cuda_cpu::detail::kSynchronizes;
using rooflab::cuda_cpu::detail::kVolatile;
using rooflab::cuda_cpu::detail::kWrite;
using rooflab::cuda_cpu::detail::on_access;
constexpr unsigned kVolatileAccess = kVolatile | kSynchronizes;
}  // namespace

#define ROOFLAB_PC __builtin_extract_return_addr(__builtin_return_address(0))
#define ROOFLAB_SIZED_HOOKS(n)                                                                                  \
  void __tsan_read##n(void* address) { on_access(address, n, 0, ROOFLAB_PC); }                                  \
  void __tsan_write##n(void* address) { on_access(address, n, kWrite, ROOFLAB_PC); }                            \
  void __tsan_unaligned_read##n(void* address) { on_access(address, n, 0, ROOFLAB_PC); }                        \
  void __tsan_unaligned_write##n(void* address) { on_access(address, n, kWrite, ROOFLAB_PC); }                  \
  void __tsan_volatile_read##n(void* address) { on_access(address, n, kVolatileAccess, ROOFLAB_PC); }           \
  void __tsan_volatile_write##n(void* address) { on_access(address, n, kVolatileAccess | kWrite, ROOFLAB_PC); } \
  void __tsan_unaligned_volatile_read##n(void* address) { on_access(address, n, kVolatileAccess, ROOFLAB_PC); } \
  void __tsan_unaligned_volatile_write##n(void* address) {                                                      \
    on_access(address, n, kVolatileAccess | kWrite, ROOFLAB_PC);                                                \
  }

extern "C" {
void __tsan_init() {}
void __tsan_func_entry(void*) {}
void __tsan_func_exit() {}
void __tsan_vptr_update(void**, void*) {}
void __tsan_vptr_read(void**) {}
ROOFLAB_SIZED_HOOKS(1)
ROOFLAB_SIZED_HOOKS(2)
ROOFLAB_SIZED_HOOKS(4)
ROOFLAB_SIZED_HOOKS(8)
ROOFLAB_SIZED_HOOKS(16)
// A struct copy's two sides, which GCC reports as ranges.
void __tsan_read_range(void* address, std::size_t size) { on_access(address, size, kRange, ROOFLAB_PC); }
void __tsan_write_range(void* address, std::size_t size) { on_access(address, size, kRange | kWrite, ROOFLAB_PC); }
}
