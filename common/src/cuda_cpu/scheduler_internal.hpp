// What the access hooks and the atomics ask of the scheduler. Internal.
#pragma once

#include <cstdint>
#include <string>

#include "thread_context.hpp"

namespace rooflab::cuda_cpu::detail {

// Stops the running CUDA thread for good and fails its launch with `why`:
// the thread is never resumed, and its stack is never unwound (it may be
// suspended inside a callback that must not throw).
[[noreturn]] void abandon_thread(std::string why);

// An atomic or volatile read of `address`: many in a row by one thread is a
// spin-wait, and the thread lets the others of its block run.
void note_spin_read(ThreadContext& thread, std::uintptr_t address);

// An atomic update that left the value as it was: no store happened (it was
// counted as one, and released nothing new), it read the value (acquiring),
// and a thread that repeats it spins.
void note_unchanging_atomic(std::uintptr_t address);

// An atomic that read a location (and acquires what was released there).
void note_atomic_read(std::uintptr_t address);

// Reports one access of kernel code (access_hooks.cpp).
void on_access(const void* address, unsigned size, bool write, bool atomic, const void* pc, bool synchronizes = true);
// An atomic update that changed its location: it releases what its thread did.
void note_atomic_release(std::uintptr_t address);

}  // namespace rooflab::cuda_cpu::detail
