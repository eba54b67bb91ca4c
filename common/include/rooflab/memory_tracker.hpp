// Peak heap bytes allocated during a call: what students measure in the
// attention labs (standard attention's N×N weights vs flash attention's O(N·d)).
//
// How: linking rooflab::memory_tracker replaces the global operator new and
// delete (every form: array, nothrow, aligned, sized) with versions that call
// malloc/free and keep two process-wide counters: bytes live now, and the
// highest value since the last reset. std::vector, std::make_unique and every
// other C++ allocation go through them; a plain malloc() does not.
//
// Bytes are counted as malloc_usable_size() reports them: the request rounded
// up to the allocator's granularity (16 bytes for small blocks). Tolerances in
// tests allow for that.
//
// The counters are process-wide: a measurement includes allocations made by
// other threads meanwhile, so measure with no other thread allocating.
// Measurements are not nested: an inner measure_peak() resets the outer's peak.
#pragma once

#include <cstddef>
#include <utility>

namespace rooflab::memory {

// Heap bytes allocated through operator new and not yet freed.
std::size_t live_bytes();

// Starts a measurement: the peak becomes the current live bytes.
void reset_peak();

// Highest live_bytes() since the last reset_peak().
std::size_t peak_bytes();

// Number of operator new calls so far (to check that something was counted).
std::size_t allocation_count();

struct Measured {
  std::size_t peak_extra_bytes = 0;  // highest live bytes during the call, minus those live before it
  std::size_t allocations = 0;       // operator new calls during the call
};

// Runs f() and reports the extra heap it needed at its peak. What f returns is
// discarded after the measurement, so memory it hands back counts too.
template <class F>
Measured measure_peak(F&& f) {
  const std::size_t before = live_bytes();
  const std::size_t calls = allocation_count();
  reset_peak();
  {
    auto result = std::forward<F>(f)();
    (void)result;
  }
  return {peak_bytes() - before, allocation_count() - calls};
}

}  // namespace rooflab::memory
