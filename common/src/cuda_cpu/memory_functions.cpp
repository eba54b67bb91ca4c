// memcpy, memmove and memset as kernel code calls them: the CPU build of a
// CUDA source names these functions instead of the C library's
// (rooflab/cuda_cpu_memory_functions.hpp, included before anything else), so
// that a copy whose size the compiler does not know, which it leaves to the C
// library where the instrumentation cannot see it, is checked and counted
// like any load and store. Outside kernels they are the C library's. This
// file is not instrumented itself.
#include <cstddef>
#include <cstring>

#include "scheduler_internal.hpp"

#define ROOFLAB_PC __builtin_extract_return_addr(__builtin_return_address(0))

extern "C" {

void* rooflab_cuda_cpu_memcpy(void* to, const void* from, std::size_t bytes) noexcept {
  rooflab::cuda_cpu::detail::on_copy(to, from, bytes, ROOFLAB_PC);
  return std::memcpy(to, from, bytes);
}

void* rooflab_cuda_cpu_memmove(void* to, const void* from, std::size_t bytes) noexcept {
  rooflab::cuda_cpu::detail::on_copy(to, from, bytes, ROOFLAB_PC);
  return std::memmove(to, from, bytes);
}

void* rooflab_cuda_cpu_memset(void* to, int value, std::size_t bytes) noexcept {
  rooflab::cuda_cpu::detail::on_access(to, bytes, rooflab::cuda_cpu::detail::kWrite, ROOFLAB_PC);
  return std::memset(to, value, bytes);
}
}
