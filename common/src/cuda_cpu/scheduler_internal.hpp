// What the access hooks, the atomics and the memory checker ask of the
// scheduler, and how an access reaches the checker. Internal.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "thread_context.hpp"

namespace rooflab::cuda_cpu::detail {

// What an access is (LaunchChecker::check's flags).
enum AccessFlag : unsigned {
  kWrite = 1,
  kAtomic = 2,         // an atomic function or std::atomic operation
  kSynchronizes = 4,   // acquires or releases in the check itself (atomics.cpp does its own, after the update)
  kVolatile = 8,       // a volatile load or store: relaxed, not synchronising by itself
  kRange = 16,         // one side of a copy (memcpy, memmove, a struct copy)
  kUncounted = 32,     // checked, but counted by its instruction as a whole (an ldmatrix row)
  kAsyncIssue = 64,    // a cp.async's destination as it is issued: race-checked as a write, nothing more
  kAsyncSource = 128,  // a cp.async's source as it is issued: a global load its thread does not wait for
};

// Stops the running CUDA thread for good and fails its launch with `why`:
// the thread is never resumed, and its stack is never unwound (it may be
// suspended inside a callback that must not throw).
[[noreturn]] void abandon_thread(std::string why);

// An atomic or volatile read of `address`: many in a row by one thread is a
// spin-wait, and the thread lets the others of its block run.
void note_spin_read(ThreadContext& thread, std::uintptr_t address);

// A volatile or atomic access is a point where, on a GPU, another thread may
// act between this thread's read and its write: the scheduler lets the
// block's other threads run here, in an order drawn per launch (`always`:
// whatever the draw), so that an update made of a volatile read and a
// volatile write loses updates here as it would there.
void switch_point(bool always);

// An atomic update that left the value as it was: no store happened (it was
// counted as one, and released nothing new), it read the value (acquiring),
// and a thread that repeats it spins.
void note_unchanging_atomic(std::uintptr_t address);

// An atomic that read a location (and acquires what was released there).
void note_atomic_read(std::uintptr_t address);

// Reports one access of kernel code (access_hooks.cpp); `flags` are AccessFlags.
void on_access(const void* address, std::size_t size, unsigned flags, const void* pc);
// A copy in kernel code (memcpy, memmove): the read of `from`, then the
// write of `to`, which takes each byte's initialization from its source.
void on_copy(void* to, const void* from, std::size_t bytes, const void* pc);
// An atomic update that changed its location: it releases what its thread
// did before its last fence.
void note_atomic_release(std::uintptr_t address);

}  // namespace rooflab::cuda_cpu::detail
