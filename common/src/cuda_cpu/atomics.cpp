// CUDA's atomics on the CPU, out of line and not instrumented: each tells the
// memory checker of its access (an atomic one: two atomics never race), then
// runs as a compare-and-swap loop. Also the __tsan_atomic* callbacks that
// std::atomic in an instrumented source's host code compiles to.
#include <atomic>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "rooflab/cuda_cpu.hpp"
#include "scheduler_internal.hpp"
#include "thread_context.hpp"

namespace rooflab::cuda_cpu::detail {

template <class T>
T atomic(T* address, T operand, AtomicOp op, T swap) {
  // Its release or acquire comes after the update, which says which it is.
  on_access(address, sizeof(T), kWrite | kAtomic, __builtin_extract_return_addr(__builtin_return_address(0)));
  const RuntimeScope inside;  // the compare-and-swap below is the runtime's
  std::atomic_ref<T> target(*address);
  T seen = target.load();
  while (true) {
    T next{};
    switch (op) {
      case AtomicOp::add:
        next = seen + operand;
        break;
      case AtomicOp::sub:
        next = seen - operand;
        break;
      case AtomicOp::exchange:
        next = operand;
        break;
      case AtomicOp::min:
        next = operand < seen ? operand : seen;
        break;
      case AtomicOp::max:
        next = seen < operand ? operand : seen;
        break;
      case AtomicOp::increment:  // ((old >= operand) ? 0 : old + 1)
        next = seen >= operand ? T{} : static_cast<T>(seen + 1);
        break;
      case AtomicOp::decrement:  // ((old == 0 || old > operand) ? operand : old - 1)
        next = (seen == T{} || seen > operand) ? operand : static_cast<T>(seen - 1);
        break;
      case AtomicOp::compare_exchange:
        next = seen == operand ? swap : seen;
        break;
      default:
        if constexpr (std::is_integral_v<T>) {
          next = op == AtomicOp::and_ ? (seen & operand) : op == AtomicOp::or_ ? (seen | operand) : (seen ^ operand);
        }
        break;
    }
    if (std::memcmp(&next, &seen, sizeof(T)) == 0) {
      // An update that changes nothing (a failed compare-and-swap,
      // atomicAdd(flag, 0)) is a read: repeated, a spin-wait, not progress.
      note_unchanging_atomic(reinterpret_cast<std::uintptr_t>(address));
      return seen;
    }
    if (target.compare_exchange_weak(seen, next)) {
      // It read the location (a ticket, a lock taken): it acquires what was
      // released there; then it releases, after a fence, what its thread did.
      note_atomic_read(reinterpret_cast<std::uintptr_t>(address));
      note_atomic_release(reinterpret_cast<std::uintptr_t>(address));
      return seen;
    }
  }
}

template int atomic(int*, int, AtomicOp, int);
template unsigned atomic(unsigned*, unsigned, AtomicOp, unsigned);
template long long atomic(long long*, long long, AtomicOp, long long);
template unsigned long long atomic(unsigned long long*, unsigned long long, AtomicOp, unsigned long long);
template float atomic(float*, float, AtomicOp, float);
template double atomic(double*, double, AtomicOp, double);

}  // namespace rooflab::cuda_cpu::detail

namespace {
using rooflab::cuda_cpu::detail::kAtomic;
using rooflab::cuda_cpu::detail::kSynchronizes;
using rooflab::cuda_cpu::detail::kWrite;
using rooflab::cuda_cpu::detail::on_access;
constexpr unsigned kAtomicRead = kAtomic | kSynchronizes, kAtomicWrite = kAtomic | kSynchronizes | kWrite;
}  // namespace

#define ROOFLAB_PC __builtin_extract_return_addr(__builtin_return_address(0))
#define ROOFLAB_TSAN_ATOMICS(bits, T)                                                       \
  T __tsan_atomic##bits##_load(const volatile T* a, int) {                                  \
    on_access(const_cast<const T*>(a), sizeof(T), kAtomicRead, ROOFLAB_PC);                 \
    return __atomic_load_n(a, __ATOMIC_SEQ_CST);                                            \
  }                                                                                         \
  void __tsan_atomic##bits##_store(volatile T* a, T v, int) {                               \
    on_access(const_cast<const T*>(a), sizeof(T), kAtomicWrite, ROOFLAB_PC);                \
    __atomic_store_n(a, v, __ATOMIC_SEQ_CST);                                               \
  }                                                                                         \
  T __tsan_atomic##bits##_exchange(volatile T* a, T v, int) {                               \
    on_access(const_cast<const T*>(a), sizeof(T), kAtomicWrite, ROOFLAB_PC);                \
    return __atomic_exchange_n(a, v, __ATOMIC_SEQ_CST);                                     \
  }                                                                                         \
  T __tsan_atomic##bits##_fetch_add(volatile T* a, T v, int) {                              \
    on_access(const_cast<const T*>(a), sizeof(T), kAtomicWrite, ROOFLAB_PC);                \
    return __atomic_fetch_add(a, v, __ATOMIC_SEQ_CST);                                      \
  }                                                                                         \
  T __tsan_atomic##bits##_fetch_sub(volatile T* a, T v, int) {                              \
    on_access(const_cast<const T*>(a), sizeof(T), kAtomicWrite, ROOFLAB_PC);                \
    return __atomic_fetch_sub(a, v, __ATOMIC_SEQ_CST);                                      \
  }                                                                                         \
  T __tsan_atomic##bits##_fetch_and(volatile T* a, T v, int) {                              \
    on_access(const_cast<const T*>(a), sizeof(T), kAtomicWrite, ROOFLAB_PC);                \
    return __atomic_fetch_and(a, v, __ATOMIC_SEQ_CST);                                      \
  }                                                                                         \
  T __tsan_atomic##bits##_fetch_or(volatile T* a, T v, int) {                               \
    on_access(const_cast<const T*>(a), sizeof(T), kAtomicWrite, ROOFLAB_PC);                \
    return __atomic_fetch_or(a, v, __ATOMIC_SEQ_CST);                                       \
  }                                                                                         \
  T __tsan_atomic##bits##_fetch_xor(volatile T* a, T v, int) {                              \
    on_access(const_cast<const T*>(a), sizeof(T), kAtomicWrite, ROOFLAB_PC);                \
    return __atomic_fetch_xor(a, v, __ATOMIC_SEQ_CST);                                      \
  }                                                                                         \
  T __tsan_atomic##bits##_fetch_nand(volatile T* a, T v, int) {                             \
    on_access(const_cast<const T*>(a), sizeof(T), kAtomicWrite, ROOFLAB_PC);                \
    return __atomic_fetch_nand(a, v, __ATOMIC_SEQ_CST);                                     \
  }                                                                                         \
  int __tsan_atomic##bits##_compare_exchange_strong(volatile T* a, T* c, T v, int, int) {   \
    on_access(const_cast<const T*>(a), sizeof(T), kAtomicWrite, ROOFLAB_PC);                \
    return __atomic_compare_exchange_n(a, c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); \
  }                                                                                         \
  int __tsan_atomic##bits##_compare_exchange_weak(volatile T* a, T* c, T v, int, int) {     \
    on_access(const_cast<const T*>(a), sizeof(T), kAtomicWrite, ROOFLAB_PC);                \
    return __atomic_compare_exchange_n(a, c, v, true, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);  \
  }                                                                                         \
  T __tsan_atomic##bits##_compare_exchange_val(volatile T* a, T c, T v, int, int) {         \
    on_access(const_cast<const T*>(a), sizeof(T), kAtomicWrite, ROOFLAB_PC);                \
    __atomic_compare_exchange_n(a, &c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);       \
    return c;                                                                               \
  }

extern "C" {
ROOFLAB_TSAN_ATOMICS(8, char)
ROOFLAB_TSAN_ATOMICS(16, short)
ROOFLAB_TSAN_ATOMICS(32, int)
ROOFLAB_TSAN_ATOMICS(64, long)
void __tsan_atomic_thread_fence(int) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
void __tsan_atomic_signal_fence(int) { __atomic_signal_fence(__ATOMIC_SEQ_CST); }
}
