// compute-sanitizer's memcheck, racecheck and initcheck on the CPU, and
// Nsight Compute's memory counters, for one launch: every access kernel code
// makes reaches LaunchChecker::check (through access_hooks.cpp). Internal.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "async_copies.hpp"
#include "device_memory.hpp"
#include "memory_model.hpp"
#include "rooflab/cuda_cpu.hpp"
#include "scheduler_internal.hpp"
#include "thread_context.hpp"
#include "warp_requests.hpp"

namespace rooflab::cuda_cpu::detail {

// At most this many distinct host-copied words are noted per launch
// (LaunchRecord::host_words_read).
inline constexpr std::size_t kMaxHostWordsPerLaunch = std::size_t{1} << 20;

// How strongly an access is ordered, as the PTX memory model has it: plain
// accesses race with every unordered access to the same bytes; volatile
// accesses (relaxed, "morally strong") do not race with each other within a
// block; atomics never race with atomics.
enum class Strength : std::uint8_t { plain = 0, relaxed = 1, atomic = 2 };

struct Access {
  std::uintptr_t address = 0;
  unsigned size = 0;
  bool write = false;
  Strength strength = Strength::plain;
  const void* pc = nullptr;
  // An atomic's release or acquire happens in access(); CUDA's atomic
  // functions do theirs after the update, knowing whether it changed anything.
  bool synchronizes = true;
  // One of a copy's two ranges (memcpy, memmove, a struct copy): its bytes
  // move, initialized or not, to where the copy writes them.
  bool range = false;
  // Counted as a request of its warp (not an ldmatrix row, nor a cp.async
  // as it is issued), and writing what it writes (not a cp.async as it is
  // issued, whose data lands later).
  bool counted = true;
  bool lands = true;
  // A cp.async's source, read as it is issued: a load its thread goes on
  // without (MemoryCounters::async_copy_requests).
  bool asynchronous = false;
};

class LaunchChecker {
 public:
  // `shared_limit`: the bytes of shared memory (dynamic and static) a block
  // of this launch may use.
  LaunchChecker(const KernelCall& call, dim3 grid, dim3 block, std::size_t dynamic_shared_bytes,
                std::size_t shared_limit, unsigned char shared_pattern);
  ~LaunchChecker();
  LaunchChecker(const LaunchChecker&) = delete;
  LaunchChecker& operator=(const LaunchChecker&) = delete;

  // The block that runs from now on; its shared memory starts uninitialized
  // (the launch's pattern).
  void begin_block(unsigned linear);
  // After the last block: throws KernelError for an uninitialized read of
  // device memory that no race explained.
  void finish();
  // Every thread of the block passed a barrier (or the block ended): the
  // accesses before it are ordered before every access after it. Throws
  // KernelError for an uninitialized read of shared memory before it. The
  // scheduler sets every thread's `position` back to 0 and hands each
  // thread to pass_on().
  void barrier();
  // At a barrier: what `thread` acquired of other blocks becomes the block's.
  void pass_on(ThreadContext& thread);
  // One access of kernel code by `thread`, the running one: checks and
  // counts it (access()); when it is wrong, abandons the thread with what is
  // wrong, naming the kernel, the threads, the source lines and the memory.
  // Every argument travels in a register (access_hooks.cpp's hooks end in a
  // jump here); `flags` are scheduler_internal.hpp's AccessFlags.
  void check(ThreadContext& thread, std::uintptr_t address, unsigned size, unsigned flags, const void* pc);
  // A memcpy or memmove in kernel code: the read of `from`, then the write of
  // `to`, each byte initialized as its source byte was (either side may be
  // the thread's own stack, which is not checked).
  void copy(ThreadContext& thread, std::uintptr_t to, std::uintptr_t from, std::size_t bytes, const void* pc);

  // Synchronisation, as the PTX memory model has it for the patterns
  // kernels use (a flag, a lock, a hand-made barrier, the last block of a
  // reduction): a fence, then an atomic or volatile write, releases the
  // thread's accesses before the fence (to its block after
  // __threadfence_block, to every block after __threadfence); an atomic or
  // volatile read of the location (a load, an update that changed nothing,
  // a successful compare-and-swap) acquires every release made there. A
  // write without a fence releases nothing. __syncthreads hands what one
  // thread acquired to its whole block.
  void fence(ThreadContext& thread, bool every_block);
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
  // Its loads and stores by instruction, most requests first (after counters()).
  std::vector<InstructionCounters> instructions() const;
  void count_tensor_core_operation(std::uint64_t flops) {
    ++tensor_core_operations_;
    tensor_core_flops_ += flops;
  }
  // A shared-memory load request counted whole (an ldmatrix): the
  // wavefronts it took and the fewest its bytes need.
  void count_shared_load(unsigned wavefronts, unsigned fewest) {
    count_shared_request(counters_, Operation::load, wavefronts, fewest);
  }
  // A warp's cp.async.wait_group (MemoryCounters::async_copy_waits).
  void count_async_copy_wait() { ++counters_.async_copy_waits; }
  // Whether [address, address + size) lies in the running block's shared memory.
  bool in_shared_memory(std::uintptr_t address, std::size_t size) const;
  // cp.async: the copies in flight of the running block (async_copies.hpp).
  AsyncCopies& async_copies() { return async_; }
  std::uint64_t tensor_core_operations() const { return tensor_core_operations_; }
  std::uint64_t tensor_core_flops() const { return tensor_core_flops_; }
  // What the launch read of device memory, by writer, and the words it read
  // that came from the host (LaunchRecord's fields).
  std::vector<std::pair<std::string, std::uint64_t>> bytes_read_by_writer() const;
  std::vector<std::uint32_t> host_words_read();

 private:
  struct Stamp;
  struct Word;
  struct Region;
  // Folds each warp's requests since the last call into
  // counters_.heaviest_warp_requests: between blocks, and at the end.
  void note_heaviest_warp();
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
  // An atomic or volatile access that synchronises by itself: a write
  // releases, a read acquires (release() and acquire()).
  void synchronize(ThreadContext& thread, const Access& access);
  Region* region_of(std::uintptr_t address, unsigned size);
  [[gnu::noinline]] Region* find_region(std::uintptr_t address, unsigned size);
  // Inlined: once per word of every access.
  [[gnu::always_inline]] inline bool ordered(const Stamp& earlier, const ThreadContext& thread) const;
  [[gnu::noinline]] bool ordered_across_blocks(const Stamp& earlier, const ThreadContext& thread) const;
  // The access being checked, as a word's check needs it (a failure gets a
  // copy: the usual case keeps it in registers).
  struct Later {
    std::uintptr_t address;
    const void* pc;
    bool write;
    Strength strength;
  };
  [[gnu::always_inline]] inline bool conflicts(const Stamp& earlier, std::uint8_t bytes, Strength strength,
                                               const ThreadContext& thread) const;
  [[gnu::always_inline]] inline bool check_word(Word& word, std::uint8_t bytes, const Later& later,
                                                const ThreadContext& thread, const Region& region);
  // initcheck and who-wrote-what for a device buffer's bytes; false when it
  // reads a byte nothing wrote.
  [[gnu::always_inline]] inline bool device_bytes(ThreadContext& thread, Region& region, const Access& access);
  // A copy's write: each byte initialized as its source byte was.
  void copy_initialization(const ThreadContext& thread, Region& region, std::uintptr_t address, unsigned size);
  bool source_byte_initialized(std::uintptr_t address);
  void note_host_words(Region& region, std::uintptr_t address, unsigned size);
  // The failures, out of the way of the accesses that pass: each sets
  // problem_ and returns false.
  [[gnu::cold]] bool fail_race(const Stamp& earlier, Later later, const ThreadContext& thread, const Region& region,
                               bool earlier_wrote);
  [[gnu::cold]] bool fail_fault(const ThreadContext& thread, const Access& access);
  [[noreturn, gnu::cold]] void fail_misaligned(const ThreadContext& thread, std::uintptr_t address, unsigned size,
                                               unsigned flags, const void* pc);
  // An access while cp.async copies are in flight: fails when it touches a
  // copy's destination, or writes its source, before the copy landed.
  [[gnu::noinline]] void check_in_flight(const ThreadContext& thread, std::uintptr_t address, unsigned size,
                                         unsigned flags, const void* pc);
  [[gnu::cold]] bool fail_parameter_write(const ThreadContext& thread, const Access& access);
  // A read of bytes nobody wrote: noted, and reported when no race explains
  // it by the end of the barrier interval (shared memory) or of the launch
  // (device memory), because a write that comes later without ordering is a
  // race, which is the better message.
  [[gnu::cold]] void note_uninitialized(const ThreadContext& thread, const Access& access, const Region& region,
                                        std::uintptr_t byte);
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
  std::size_t dynamic_bytes_, shared_limit_;
  unsigned char shared_pattern_;
  WriterTag writer_;  // this kernel's tag for the device bytes it writes
  std::unique_ptr<unsigned char[]> arena_;
  std::size_t static_bytes_ = 0;
  struct SharedArray {
    const char* name;
    int line;
    std::size_t offset, bytes;
  };
  std::vector<SharedArray> shared_arrays_;
  std::vector<std::unique_ptr<Region>> buffers_;  // sorted by address
  std::unique_ptr<Region> shared_region_, statics_region_, constants_region_;
  // The buffers the last accesses to device memory fell in, the latest
  // first (a kernel reads and writes a few at a time); bytes 0: none.
  struct RecentBuffer {
    std::uintptr_t begin = 0;
    std::size_t bytes = 0;
    Region* region = nullptr;
  };
  std::array<RecentBuffer, 4> recent_{};
  std::vector<DeviceVariable> variables_;
  // Read-only segments of the program (string literals, constant tables):
  // kernel code may read them, as a GPU reads constants nvcc placed.
  std::vector<std::pair<std::uintptr_t, std::uintptr_t>> constant_segments_;

  struct Release {
    std::vector<std::uint32_t> clocks;  // per thread of the block: ticks published here
    std::uint64_t version = 0;
  };
  std::unordered_map<std::uintptr_t, Release> releases_;  // by word address, this block's
  struct DeviceRelease {
    Knowledge knowledge;  // what an acquire here learns of the blocks that released here
    std::uint64_t version = 0;
  };
  std::unordered_map<std::uintptr_t, DeviceRelease> device_releases_;  // by word address, the launch's
  Knowledge block_knowledge_;  // what the running block learnt of others, at its barriers
  std::uint32_t block_linear_ = 0;
  // Owners of shadow words (shadow_pool.hpp), new in the process for each
  // launch: the device memory's words belong to the launch, shared memory's
  // to one block (its serial, buffer_owner_ + 1 … last_block_owner_).
  std::uint32_t buffer_owner_ = 0, last_block_owner_ = 0;
  std::uint32_t block_serial_ = 0;
  std::uint32_t interval_ = 0;
  std::uint64_t epoch_ = 0;  // block_linear_ and interval_, as Stamp::epoch() has them
  std::vector<WarpRequests> warps_;
  MemoryCounters counters_;
  InstructionTally instructions_;
  std::array<std::uint64_t, 256> read_by_writer_{};  // bytes, by WriterTag
  std::vector<std::uint32_t> host_words_;            // host-copied words read, each address once
  std::uint64_t writes_ = 0;
  std::uint64_t tensor_core_operations_ = 0, tensor_core_flops_ = 0;
  AsyncCopies async_;
  std::string problem_;        // what access() found wrong
  std::string uninitialized_;  // the first uninitialized read, until reported
  bool uninitialized_in_shared_ = false;
};

// The checker of the launch running on this OS thread, or null (constinit:
// one load for every access of kernel code, as current_thread()).
extern constinit thread_local LaunchChecker* running_checker;
inline LaunchChecker* current_checker() { return running_checker; }
void set_current_checker(LaunchChecker* checker);

// "src/flash_attention.cu:57" for an address of kernel code, or its address.
std::string source_line(const void* pc);

}  // namespace rooflab::cuda_cpu::detail
