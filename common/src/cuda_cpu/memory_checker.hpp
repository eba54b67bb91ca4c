// compute-sanitizer's memcheck and racecheck on the CPU, and Nsight Compute's
// memory counters, for one launch: every access kernel code makes reaches
// LaunchChecker::check (through access_hooks.cpp). Internal.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "rooflab/cuda_cpu.hpp"
#include "thread_context.hpp"
#include "warp_requests.hpp"

namespace rooflab::cuda_cpu::detail {

struct Access {
  std::uintptr_t address = 0;
  unsigned size = 0;
  bool write = false;
  bool atomic = false;  // atomics, and volatile accesses (relaxed atomics)
  const void* pc = nullptr;
  // An atomic's release or acquire happens in access(); CUDA's atomic
  // functions do theirs after the update, knowing whether it changed anything.
  bool synchronizes = true;
};

class LaunchChecker {
 public:
  LaunchChecker(const KernelCall& call, dim3 grid, dim3 block, std::size_t dynamic_shared_bytes);
  ~LaunchChecker();
  LaunchChecker(const LaunchChecker&) = delete;
  LaunchChecker& operator=(const LaunchChecker&) = delete;

  // The block that runs from now on; its shared memory starts zeroed.
  void begin_block(unsigned linear);
  // Every thread of the block passed a barrier (or the block ended): the
  // accesses before it are ordered before every access after it. The
  // scheduler sets every thread's `position` back to 0.
  void barrier();
  // One access of kernel code by `thread`, the running one: checks and
  // counts it (access()); when it is wrong, abandons the thread with what is
  // wrong, naming the kernel, the threads, the source lines and the memory.
  // Every argument travels in a register (access_hooks.cpp's hooks end in a
  // jump here): `flags` holds the Access's booleans.
  static constexpr unsigned kWrite = 1, kAtomic = 2, kSynchronizes = 4;
  void check(ThreadContext& thread, std::uintptr_t address, unsigned size, unsigned flags, const void* pc);

  // Synchronisation through atomics, as the CUDA memory model has it for the
  // patterns kernels use (a flag, a spin lock, a hand-made barrier): an
  // atomic that changes a location releases what its thread did before it;
  // an atomic read of the location (a load, a volatile read, an update that
  // changed nothing, a successful compare-and-swap) acquires every release
  // made there earlier in the block. Blocks never synchronise.
  void release(ThreadContext& thread, std::uintptr_t address);
  void acquire(ThreadContext& thread, std::uintptr_t address);

  // `__shared__ T name[…]` of the block: its place in the block's shared memory.
  void* shared_array(const char* name, int line, std::size_t bytes, std::size_t alignment, std::string& error);
  void* dynamic_shared_memory() const { return arena_.get(); }
  std::size_t static_shared_bytes() const { return static_bytes_; }

  // Stores and successful atomics so far: a spin-wait waits for one.
  std::uint64_t writes() const { return writes_; }
  void undo_write() { --writes_; }
  // The launch's counters (after its last block).
  MemoryCounters counters();

 private:
  struct Stamp;
  struct Word;
  struct Region;
  // Returns whether `access` by `thread` is fine; when not, problem_ says
  // what is wrong. (Every access comes here: the usual answer costs no
  // string.)
  [[gnu::always_inline]] inline bool access(ThreadContext& thread, const Access& access);
  // access() of a plain load or store within one word of the block's shared
  // memory, the usual access, in fewer steps.
  [[gnu::always_inline]] inline bool shared_word_access(ThreadContext& thread, std::uintptr_t address, unsigned size,
                                                        bool write, const void* pc);
  // check() of the accesses shared_word_access() does not take, apart: the
  // usual one saves fewer registers.
  [[gnu::noinline]] void check_elsewhere(ThreadContext& thread, std::uintptr_t address, unsigned size, unsigned flags,
                                         const void* pc);
  [[noreturn, gnu::cold]] void abandon();
  Region* region_of(std::uintptr_t address, unsigned size);
  [[gnu::noinline]] Region* find_region(std::uintptr_t address, unsigned size);
  // Inlined: once per word of every access.
  [[gnu::always_inline]] inline bool ordered(const Stamp& earlier, const ThreadContext& thread) const;
  // The access being checked, as a word's check needs it (a failure gets a
  // copy: the usual case keeps it in registers).
  struct Later {
    std::uintptr_t address;
    const void* pc;
    bool write, atomic;
  };
  [[gnu::always_inline]] inline bool conflicts(const Stamp& earlier, std::uint8_t bytes, bool atomic,
                                               const ThreadContext& thread) const;
  [[gnu::always_inline]] inline bool check_word(Word& word, std::uint8_t bytes, const Later& later,
                                                const ThreadContext& thread, const Region& region);
  // The failures, out of the way of the accesses that pass: each sets
  // problem_ and returns false.
  [[gnu::cold]] bool fail_race(const Stamp& earlier, Later later, const ThreadContext& thread, const Region& region,
                               bool earlier_wrote);
  [[gnu::cold]] bool fail_fault(const ThreadContext& thread, const Access& access);
  [[gnu::cold]] bool fail_parameter_write(const ThreadContext& thread, const Access& access);
  std::string race(const Stamp& earlier, const Access& later, const ThreadContext& thread, const Region& region,
                   bool earlier_wrote);
  std::string describe(const Region& region, std::uintptr_t address) const;
  std::string fault(const ThreadContext& thread, const Access& access) const;
  std::string who(std::uint32_t block, unsigned thread) const;

  const KernelCall& call_;
  // Where the kernel's parameters and the block's shared memory lie, at hand
  // for every access.
  std::uintptr_t call_begin_ = 0, shared_begin_ = 0;
  std::size_t call_bytes_ = 0;
  dim3 grid_, block_;
  std::size_t dynamic_bytes_;
  std::unique_ptr<unsigned char[]> arena_;
  std::size_t static_bytes_ = 0;
  struct SharedArray {
    const char* name;
    int line;
    std::size_t offset, bytes;
  };
  std::vector<SharedArray> shared_arrays_;
  std::vector<std::unique_ptr<Region>> buffers_;  // sorted by address
  std::unique_ptr<Region> shared_region_, statics_region_;
  // The buffers the last accesses to device memory fell in, the latest
  // first (a kernel reads and writes a few at a time); bytes 0: none.
  struct RecentBuffer {
    std::uintptr_t begin = 0;
    std::size_t bytes = 0;
    Region* region = nullptr;
  };
  std::array<RecentBuffer, 4> recent_{};
  std::vector<std::pair<std::uintptr_t, std::uintptr_t>> static_segments_;

  struct Release {
    std::vector<std::uint32_t> clocks;  // per thread of the block: ticks published here
    std::uint64_t version = 0;
  };
  std::unordered_map<std::uintptr_t, Release> releases_;  // by word address, this block's
  std::uint32_t block_linear_ = 0;
  std::uint32_t block_serial_ = 0;  // shared memory's shadow belongs to one block
  std::uint32_t interval_ = 0;
  std::uint64_t epoch_ = 0;  // block_linear_ and interval_, as Stamp::epoch() has them
  std::vector<WarpRequests> warps_;
  MemoryCounters counters_;
  std::uint64_t writes_ = 0;
  std::string problem_;  // what access() found wrong
};

// The checker of the launch running on this OS thread, or null (constinit:
// one load for every access of kernel code, as current_thread()).
extern constinit thread_local LaunchChecker* running_checker;
inline LaunchChecker* current_checker() { return running_checker; }
void set_current_checker(LaunchChecker* checker);

// "src/flash_attention.cu:57" for an address of kernel code, or its address.
std::string source_line(const void* pc);

}  // namespace rooflab::cuda_cpu::detail
