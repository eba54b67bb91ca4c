// What the scheduler knows of the CUDA thread that runs and its block, and
// what the memory checker and the request counters read of it. Internal.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "memory_model.hpp"
#include "rooflab/cuda_cpu.hpp"

namespace rooflab::cuda_cpu::detail {

// What every access reads comes first, in one cache line: a block's
// threads take turns, and each turn starts with its context out of cache.
struct alignas(64) ThreadContext {
  std::uintptr_t stack_low = 0, stack_high = 0;  // its own stack: private, never checked
  unsigned linear = 0;                           // x + y·X + z·X·Y: decides the warp and lane
  // Inside the runtime (RuntimeScope): accesses are the runtime's own.
  int in_runtime = 0;
  long long accesses = 0;  // clock64()
  dim3 thread_idx;
  // Its accesses since its warp's requests were last counted (at a barrier):
  // warp_requests.cpp.
  std::uint32_t position = 0;
  std::uint64_t requests_serial = 0;  // the warp's count its position belongs to
  std::uint64_t keyed_serial = 0;     // the warp's keyed serial its `occurrences` belong to
  // Its warp's vector clock: clock[lane] is the last tick of that lane this
  // thread is ordered after (by __syncwarp, shuffles, ballots); clock[own
  // lane] is its own tick.
  std::uint32_t clock[32] = {};
  // What it acquired through atomics (memory_checker.cpp, synchronisation):
  // acquired[t] > c when thread t's accesses of tick c are ordered before its
  // own. Sized on first use; and the release it saw last at each location.
  std::vector<std::uint32_t> acquired;
  std::unordered_map<std::uintptr_t, std::uint64_t> seen_releases;
  // A spin-wait: repeated atomic or volatile reads of one address.
  std::uintptr_t spin_address = 0;
  unsigned spin_reads = 0;
  std::uintptr_t relaxed_read = 0;  // the word of its last volatile access, when a read
  // Its last fence (memory_checker.cpp, synchronisation): its accesses below
  // this tick are what a later atomic or volatile write releases (0: none),
  // to its block only (__threadfence_block) or to every block
  // (__threadfence). And what it acquired of other blocks since its block's
  // last barrier (the barrier hands it to the whole block).
  std::uint32_t fence_tick = 0;
  bool fence_reaches_every_block = false;
  Knowledge other_blocks;
  // While it copies with memcpy or memmove: the source, whose bytes'
  // initialization the destination takes (0: not copying).
  std::uintptr_t copy_source = 0;
  // Once its warp's requests are keyed: per instruction (by the warp's slot
  // for it) how many times it ran it, and the request after the one it
  // joined last.
  std::vector<std::uint32_t> occurrences;
  std::uint32_t next_request = 0;
};

// Where kernel code runs now: null outside a launch, and in host code. Set
// by the scheduler; constinit, so that reading it from another file is one
// load, not a call (every access of kernel code reads it).
extern constinit thread_local ThreadContext* running_thread;
inline ThreadContext* current_thread() { return running_thread; }

// Marks the running CUDA thread as inside the runtime while it lives. The
// runtime's own code may run instrumented copies of library templates (the
// linker keeps one copy of each inline function, and a student's .cu object
// may hold the instrumented one): their accesses are not kernel code's.
// Per thread, not per OS thread: a fiber may yield inside the runtime.
class RuntimeScope {
 public:
  RuntimeScope() : RuntimeScope(current_thread()) {}
  // `thread`: the running one, already at hand.
  explicit RuntimeScope(ThreadContext* thread) : thread_(thread) {
    if (thread_) ++thread_->in_runtime;
  }
  ~RuntimeScope() {
    if (thread_) --thread_->in_runtime;
  }
  RuntimeScope(const RuntimeScope&) = delete;
  RuntimeScope& operator=(const RuntimeScope&) = delete;

 private:
  ThreadContext* thread_;
};

}  // namespace rooflab::cuda_cpu::detail
