// The global operator new/delete replacements behind rooflab/memory_tracker.hpp.
// This file is its own library (rooflab::memory_tracker) so that only the
// binaries that measure memory replace the allocator.
#include "rooflab/memory_tracker.hpp"

#include <malloc.h>

#include <atomic>
#include <cstdlib>
#include <new>

namespace rooflab::memory {
namespace {

std::atomic<std::size_t> g_live{0};
std::atomic<std::size_t> g_peak{0};
std::atomic<std::size_t> g_calls{0};

void note_allocated(void* block) {
  const std::size_t size = ::malloc_usable_size(block);
  const std::size_t live = g_live.fetch_add(size, std::memory_order_relaxed) + size;
  g_calls.fetch_add(1, std::memory_order_relaxed);
  std::size_t peak = g_peak.load(std::memory_order_relaxed);
  while (live > peak && !g_peak.compare_exchange_weak(peak, live, std::memory_order_relaxed)) {
  }
}

void* allocate(std::size_t size, std::size_t alignment) {
  if (size == 0) size = 1;  // operator new must return a unique pointer
  void* block = alignment <= alignof(std::max_align_t)
                    ? std::malloc(size)
                    // aligned_alloc wants a multiple of the alignment
                    : std::aligned_alloc(alignment, (size + alignment - 1) / alignment * alignment);
  if (block) note_allocated(block);
  return block;
}

void* allocate_or_throw(std::size_t size, std::size_t alignment) {
  for (;;) {
    if (void* block = allocate(size, alignment)) return block;
    std::new_handler handler = std::get_new_handler();
    if (!handler) throw std::bad_alloc();
    handler();
  }
}

void release(void* block) noexcept {
  if (!block) return;
  g_live.fetch_sub(::malloc_usable_size(block), std::memory_order_relaxed);
  std::free(block);
}

}  // namespace

std::size_t live_bytes() { return g_live.load(std::memory_order_relaxed); }
void reset_peak() { g_peak.store(g_live.load(std::memory_order_relaxed), std::memory_order_relaxed); }
std::size_t peak_bytes() { return g_peak.load(std::memory_order_relaxed); }
std::size_t allocation_count() { return g_calls.load(std::memory_order_relaxed); }

}  // namespace rooflab::memory

using rooflab::memory::allocate;
using rooflab::memory::allocate_or_throw;
using rooflab::memory::release;
constexpr std::size_t kDefault = alignof(std::max_align_t);

void* operator new(std::size_t size) { return allocate_or_throw(size, kDefault); }
void* operator new[](std::size_t size) { return allocate_or_throw(size, kDefault); }
void* operator new(std::size_t size, const std::nothrow_t&) noexcept { return allocate(size, kDefault); }
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept { return allocate(size, kDefault); }
void* operator new(std::size_t size, std::align_val_t a) { return allocate_or_throw(size, std::size_t(a)); }
void* operator new[](std::size_t size, std::align_val_t a) { return allocate_or_throw(size, std::size_t(a)); }
void* operator new(std::size_t size, std::align_val_t a, const std::nothrow_t&) noexcept {
  return allocate(size, std::size_t(a));
}
void* operator new[](std::size_t size, std::align_val_t a, const std::nothrow_t&) noexcept {
  return allocate(size, std::size_t(a));
}

void operator delete(void* p) noexcept { release(p); }
void operator delete[](void* p) noexcept { release(p); }
void operator delete(void* p, std::size_t) noexcept { release(p); }
void operator delete[](void* p, std::size_t) noexcept { release(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { release(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { release(p); }
void operator delete(void* p, std::align_val_t) noexcept { release(p); }
void operator delete[](void* p, std::align_val_t) noexcept { release(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { release(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { release(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { release(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { release(p); }
