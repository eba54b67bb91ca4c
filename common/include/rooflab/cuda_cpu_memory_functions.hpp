// Included first by the CPU build of every CUDA source (before any header
// declares them): memcpy, memmove and memset, and the compiler's
// __builtin_memcpy … wherever it emits a call, name the CPU runtime's own
// functions (src/cuda_cpu/memory_functions.cpp). Kernel code's copies of a
// size the compiler does not know are then checked and counted like its
// loads and stores; in host code they are the C library's.
#pragma once

#include <stddef.h>

extern "C" {
void* memcpy(void* to, const void* from, size_t bytes) noexcept __asm__("rooflab_cuda_cpu_memcpy");
void* memmove(void* to, const void* from, size_t bytes) noexcept __asm__("rooflab_cuda_cpu_memmove");
void* memset(void* to, int value, size_t bytes) noexcept __asm__("rooflab_cuda_cpu_memset");
}
