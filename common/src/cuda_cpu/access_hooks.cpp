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
#include <cstddef>
#include <cstdint>

#include "memory_checker.hpp"
#include "scheduler_internal.hpp"

namespace rooflab::cuda_cpu::detail {

void on_access(const void* address, unsigned size, bool write, bool atomic, const void* pc, bool synchronizes) {
  ThreadContext* thread = current_thread();
  if (!thread || thread->in_runtime) return;
  const auto at = reinterpret_cast<std::uintptr_t>(address);
  if (at - thread->stack_low < thread->stack_high - thread->stack_low) return;  // its own locals
  LaunchChecker* checker = current_checker();
  if (!checker || size == 0) return;
  checker->check(*thread, at, size,
                 (write ? LaunchChecker::kWrite : 0) | (atomic ? LaunchChecker::kAtomic : 0) |
                     (synchronizes ? LaunchChecker::kSynchronizes : 0),
                 pc);
}

}  // namespace rooflab::cuda_cpu::detail

namespace {
using rooflab::cuda_cpu::detail::on_access;
}  // namespace

#define ROOFLAB_PC __builtin_extract_return_addr(__builtin_return_address(0))
#define ROOFLAB_SIZED_HOOKS(n)                                                                              \
  void __tsan_read##n(void* address) { on_access(address, n, false, false, ROOFLAB_PC); }                   \
  void __tsan_write##n(void* address) { on_access(address, n, true, false, ROOFLAB_PC); }                   \
  void __tsan_unaligned_read##n(void* address) { on_access(address, n, false, false, ROOFLAB_PC); }         \
  void __tsan_unaligned_write##n(void* address) { on_access(address, n, true, false, ROOFLAB_PC); }         \
  void __tsan_volatile_read##n(void* address) { on_access(address, n, false, true, ROOFLAB_PC); }           \
  void __tsan_volatile_write##n(void* address) { on_access(address, n, true, true, ROOFLAB_PC); }           \
  void __tsan_unaligned_volatile_read##n(void* address) { on_access(address, n, false, true, ROOFLAB_PC); } \
  void __tsan_unaligned_volatile_write##n(void* address) { on_access(address, n, true, true, ROOFLAB_PC); }

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
void __tsan_read_range(void* address, std::size_t size) {
  on_access(address, static_cast<unsigned>(size), false, false, ROOFLAB_PC);
}
void __tsan_write_range(void* address, std::size_t size) {
  on_access(address, static_cast<unsigned>(size), true, false, ROOFLAB_PC);
}
}
