// compute-sanitizer's memcheck and racecheck on the CPU, and Nsight Compute's
// memory counters, for one launch: every access kernel code makes reaches
// LaunchChecker::access (through access_hooks.cpp). Internal.
#pragma once

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
  // Returns "" or what is wrong with `access` by `thread`, naming the kernel,
  // the threads, the source lines and the memory.
  std::string access(ThreadContext& thread, const Access& access);

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
  std::string race(const Stamp& earlier, const Access& later, const ThreadContext& thread, const Region& region,
                   bool earlier_wrote);
  std::string check_word(Word& word, std::uint8_t bytes, const Access& access, const ThreadContext& thread,
                         const Region& region);
  std::string describe(const Region& region, std::uintptr_t address) const;
  std::string fault(const ThreadContext& thread, const Access& access) const;
  std::string who(std::uint32_t block, unsigned thread) const;

  const KernelCall& call_;
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
  Region* last_ = nullptr;  // the region the last access fell in
  std::vector<std::pair<std::uintptr_t, std::uintptr_t>> static_segments_;

  struct Release {
    std::vector<std::uint32_t> clocks;  // per thread of the block: ticks published here
    std::uint64_t version = 0;
  };
  std::unordered_map<std::uintptr_t, Release> releases_;  // by word address, this block's
  std::uint32_t block_linear_ = 0;
  std::uint32_t block_serial_ = 0;  // shared memory's shadow belongs to one block
  std::uint32_t interval_ = 0;
  std::vector<WarpRequests> warps_;
  MemoryCounters counters_;
  std::uint64_t writes_ = 0;
};

// The checker of the launch running on this OS thread, or null.
LaunchChecker* current_checker();
void set_current_checker(LaunchChecker* checker);

// "src/flash_attention.cu:57" for an address of kernel code, or its address.
std::string source_line(const void* pc);

}  // namespace rooflab::cuda_cpu::detail
