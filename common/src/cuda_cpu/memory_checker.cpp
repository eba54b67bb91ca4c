#include "memory_checker.hpp"

#include <link.h>

#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unordered_set>

#include "runtime_state.hpp"
#include "scheduler_internal.hpp"
#include "shadow_pool.hpp"

namespace rooflab::cuda_cpu::detail {

namespace {
// Instructions as 32-bit offsets from one in this program: a shadow word then
// fills one cache line. Kernel code and the runtime link into one executable.
const auto kCodeBase = reinterpret_cast<std::intptr_t>(&source_line);
std::int32_t code_offset(const void* pc) {
  return static_cast<std::int32_t>(reinterpret_cast<std::intptr_t>(pc) - kCodeBase);
}
const void* code_address(std::int32_t offset) { return reinterpret_cast<const void*>(kCodeBase + offset); }

// A block and one of its barrier intervals as one word: "same block, same
// interval" is then one comparison.
constexpr std::uint64_t epoch_of(std::uint32_t block, std::uint32_t interval) {
  return block | std::uint64_t{interval} << 32;
}

// Whether [address, address + size) lies within [begin, begin + bytes) (the
// unsigned differences also reject addresses below begin).
inline bool lies_within(std::uintptr_t address, unsigned size, std::uintptr_t begin, std::size_t bytes) {
  return address - begin < bytes && address + size - begin <= bytes;
}

// The mask of the bytes [first, last) of a 4-byte word.
inline std::uint8_t byte_mask(std::uintptr_t first, std::uintptr_t last) {
  return static_cast<std::uint8_t>(((1u << (last - first)) - 1) << (first & 3));
}
}  // namespace

// One access as the shadow keeps it: who, between which barriers, at which
// tick of its clock, which bytes of the word, from which instruction.
struct LaunchChecker::Stamp {
  std::uint32_t block = 0;
  std::uint32_t interval = 0;  // beside block: both are one 8-byte epoch()
  std::uint16_t thread = 0;
  std::uint8_t bytes = 0;  // a mask of the word's 4 bytes; 0: no access
  Strength strength = Strength::plain;
  std::uint32_t clock = 0;
  std::int32_t pc = 0;  // code_offset()

  std::uint64_t epoch() const { return epoch_of(block, interval); }
};

// The shadow of one 4-byte word: its last write, and up to two reads since.
// Shared memory's words belong to one block (`owner`, its serial) and know
// which of their bytes that block wrote (initcheck); a new block's first
// access starts them afresh.
struct alignas(64) LaunchChecker::Word {
  std::uint32_t owner : 28 = 0;
  std::uint32_t initialized : 4 = 0;  // shared memory: a mask of the bytes the block wrote
  Stamp write;
  Stamp reads[2];
};

enum class RegionKind { buffer, shared, statics, constants };

struct LaunchChecker::Region {
  RegionKind kind = RegionKind::buffer;
  std::uintptr_t begin = 0;
  std::size_t bytes = 0;
  std::size_t reserved = 0, guard = 0;  // buffers: device_memory.hpp's BufferRange
  WriterTag* writers = nullptr;         // buffers: who last wrote each byte
  int argument = 0;                     // the first pointer argument that points into it, or 0
  Word* shadow = nullptr;               // taken on first use (shadow_pool.hpp): a page is paid for once per process
  std::size_t shadow_bytes = 0;
  std::unordered_map<std::uintptr_t, Word> sparse;           // statics: by word address
  std::vector<std::uint64_t> read_sectors, written_sectors;  // DRAM: one bit a 32-byte sector
  std::unordered_set<std::uintptr_t> sparse_read, sparse_written;
  std::vector<std::uint64_t> host_words_seen;  // buffers: one bit a word, set once its value was noted

  Region() = default;
  Region(const Region&) = delete;
  Region& operator=(const Region&) = delete;
  ~Region() { give_back_shadow({shadow, shadow_bytes}); }

  // The shadow of the word at `address`, which `owner` now owns (shared
  // memory's words start afresh in each block).
  Word& word(std::uintptr_t address, std::uint32_t owner) {
    Word& word = kind == RegionKind::statics ? sparse[address >> 2] : shadow_word(address);
    if (word.owner != owner) {
      word = {};
      word.owner = owner & 0x0fffffffu;
    }
    return word;
  }
  Word& shadow_word(std::uintptr_t address) {
    if (!shadow) map_shadow();
    return shadow[(address - begin) >> 2];
  }
  [[gnu::noinline]] void map_shadow() {
    const ShadowMapping mapping = take_shadow(((bytes + 3) / 4 + 1) * sizeof(Word));
    shadow = static_cast<Word*>(mapping.address);
    shadow_bytes = mapping.bytes;
  }
  void touch_sectors(std::uintptr_t address, unsigned size, bool write) {
    if (kind == RegionKind::statics) return touch_static_sectors(address, size, write);
    auto& bits = write ? written_sectors : read_sectors;
    if (bits.empty()) bits.assign((bytes + 32 * 64 - 1) / (32 * 64) + 1, 0);
    for (std::uintptr_t s = (address - begin) >> 5; s <= (address + size - 1 - begin) >> 5; ++s)
      bits[s / 64] |= std::uint64_t{1} << (s % 64);
  }
  [[gnu::noinline]] void touch_static_sectors(std::uintptr_t address, unsigned size, bool write) {
    for (std::uintptr_t s = address >> 5; s <= (address + size - 1) >> 5; ++s)
      (write ? sparse_written : sparse_read).insert(s);
  }
  std::uint64_t sectors(bool write) const {
    if (kind == RegionKind::statics) return (write ? sparse_written : sparse_read).size();
    std::uint64_t count = 0;
    for (const std::uint64_t bits : write ? written_sectors : read_sectors) count += std::popcount(bits);
    return count;
  }
};

namespace {

std::string coordinates(const dim3& index) {
  char text[48];
  std::snprintf(text, sizeof text, "(%u, %u, %u)", index.x, index.y, index.z);
  return text;
}

dim3 unflatten(std::uint32_t linear, const dim3& shape) {
  return dim3(linear % shape.x, linear / shape.x % shape.y, linear / (shape.x * shape.y));
}

std::string hex(std::uintptr_t address) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%zx", static_cast<std::size_t>(address));
  return text;
}

// The read-only segments of every loaded object: string literals and
// constant tables, which kernel code may read. Writable ones (a host
// program's globals) hold device memory only where a __device__ or
// __constant__ variable was registered.
std::vector<std::pair<std::uintptr_t, std::uintptr_t>> read_only_segments() {
  std::vector<std::pair<std::uintptr_t, std::uintptr_t>> segments;
  dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* out) {
        auto& list = *static_cast<std::vector<std::pair<std::uintptr_t, std::uintptr_t>>*>(out);
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr)& header = info->dlpi_phdr[i];
          if (header.p_type != PT_LOAD || (header.p_flags & PF_W)) continue;
          const std::uintptr_t begin = info->dlpi_addr + header.p_vaddr;
          list.emplace_back(begin, begin + header.p_memsz);
        }
        return 0;
      },
      &segments);
  std::sort(segments.begin(), segments.end());
  return segments;
}

// The access the hooks' flags (scheduler_internal.hpp's AccessFlags) describe.
Access access_of(std::uintptr_t address, unsigned size, unsigned flags, const void* pc) {
  Access access;
  access.address = address;
  access.size = size;
  access.write = flags & kWrite;
  access.strength = flags & kAtomic ? Strength::atomic : flags & kVolatile ? Strength::relaxed : Strength::plain;
  access.pc = pc;
  access.synchronizes = flags & kSynchronizes;
  access.range = flags & kRange;
  access.counted = !(flags & (kUncounted | kAsyncIssue));
  access.lands = !(flags & kAsyncIssue);
  access.asynchronous = flags & kAsyncSource;
  return access;
}

const char* kind_of(const Access& access) {
  if (access.strength == Strength::atomic) return access.write ? "atomic update" : "atomic read";
  if (access.strength == Strength::relaxed) return access.write ? "volatile write" : "volatile read";
  return access.write ? "write" : "read";
}

}  // namespace

constinit thread_local LaunchChecker* running_checker = nullptr;
void set_current_checker(LaunchChecker* checker) { running_checker = checker; }

LaunchChecker::LaunchChecker(const KernelCall& call, dim3 grid, dim3 block, std::size_t dynamic_shared_bytes,
                             std::size_t shared_limit, unsigned char shared_pattern)
    : call_(call),
      grid_(grid),
      block_(block),
      dynamic_bytes_(dynamic_shared_bytes),
      shared_limit_(shared_limit),
      shared_pattern_(shared_pattern),
      writer_(kernel_writer_tag(call.name)),
      arena_(static_cast<unsigned char*>(std::aligned_alloc(128, kSharedMemoryPerBlockOptIn))),
      warps_((block.count() + kWarpSize - 1) / kWarpSize) {
  static_assert(sizeof(Word) == 64, "a word's shadow fills one cache line");
  // Owners no word of a kept shadow holds, taken before any shadow is: one
  // for the device memory, one per block (up to kBlockOwnersPerLaunch; a
  // larger grid uses them again, begin_block).
  const auto blocks = static_cast<std::uint32_t>(std::min<std::uint64_t>(grid.count(), kBlockOwnersPerLaunch));
  buffer_owner_ = take_owners(blocks + 1);
  block_serial_ = buffer_owner_;
  last_block_owner_ = buffer_owner_ + blocks;
  static const auto segments = read_only_segments();
  constant_segments_ = segments;
  variables_ = device_variables();
  for (const BufferRange& range : live_buffers()) {
    auto region = std::make_unique<Region>();
    region->begin = range.begin;
    region->bytes = range.bytes;
    region->reserved = range.reserved;
    region->guard = range.guard;
    region->writers = range.writers;
    for (std::size_t i = 0; i < call.pointer_count && !region->argument; ++i) {
      const auto value = reinterpret_cast<std::uintptr_t>(call.pointers[i].value);
      if (value >= range.begin && value < range.begin + std::max<std::size_t>(range.bytes, 1))
        region->argument = call.pointers[i].position;
    }
    buffers_.push_back(std::move(region));
  }
  shared_region_ = std::make_unique<Region>();
  shared_region_->kind = RegionKind::shared;
  shared_region_->begin = reinterpret_cast<std::uintptr_t>(arena_.get());
  shared_begin_ = shared_region_->begin;
  call_begin_ = reinterpret_cast<std::uintptr_t>(call.call);
  call_bytes_ = call.call_bytes;
  shared_region_->bytes = kSharedMemoryPerBlockOptIn;
  statics_region_ = std::make_unique<Region>();
  statics_region_->kind = RegionKind::statics;
  constants_region_ = std::make_unique<Region>();
  constants_region_->kind = RegionKind::constants;
}

LaunchChecker::~LaunchChecker() { std::free(arena_.release()); }

void LaunchChecker::note_heaviest_warp() {
  for (WarpRequests& warp : warps_)
    counters_.heaviest_warp_requests = std::max(counters_.heaviest_warp_requests, warp.take_counted());
}

void LaunchChecker::begin_block(unsigned linear) {
  note_heaviest_warp();  // the block before's warps, all counted at its end
  releases_.clear();
  block_knowledge_.clear();
  block_linear_ = linear;
  if (block_serial_ == last_block_owner_) {
    // More blocks than owners taken: shared memory's words start afresh, and
    // its owners are used again.
    if (Word* shadow = shared_region_->shadow)
      std::fill(shadow, shadow + shared_region_->shadow_bytes / sizeof(Word), Word{});
    block_serial_ = buffer_owner_;
  }
  ++block_serial_;
  interval_ = 0;
  epoch_ = epoch_of(block_linear_, interval_);
  // Whatever the last block left, as a GPU's shared memory holds: never zeros.
  std::memset(arena_.get(), shared_pattern_,
              std::min(kSharedMemoryPerBlockOptIn, dynamic_bytes_ + static_bytes_ + 128));
  // (Its __shared__ arrays are laid out as the block declares them: the copies
  // may land anywhere in the most a block may have.)
  async_.begin_block(shared_begin_, kSharedMemoryPerBlockOptIn, block_.count());
}

bool LaunchChecker::in_shared_memory(std::uintptr_t address, std::size_t size) const {
  return lies_within(address, size, shared_begin_, dynamic_bytes_ + static_bytes_);
}

void LaunchChecker::barrier() {
  // Shared memory nobody had written, read before the barrier, with no race
  // found since that would explain it: the read was of uninitialized memory.
  if (!uninitialized_.empty() && uninitialized_in_shared_) throw KernelError(uninitialized_);
  ++interval_;
  epoch_ = epoch_of(block_linear_, interval_);
  for (WarpRequests& warp : warps_) warp.count_into(counters_, instructions_);
}

void LaunchChecker::pass_on(ThreadContext& thread) {
  if (thread.other_blocks.empty()) return;
  block_knowledge_.learn(thread.other_blocks);
  thread.other_blocks.clear();
}

void* LaunchChecker::shared_array(const char* name, int line, std::size_t bytes, std::size_t alignment,
                                  std::string& error) {
  for (const SharedArray& array : shared_arrays_)
    if (array.name == name && array.line == line) return arena_.get() + array.offset;
  const std::size_t start = dynamic_bytes_ + static_bytes_;
  const std::size_t offset = (start + alignment - 1) / alignment * alignment;
  if (offset + bytes > shared_limit_ || offset + bytes - dynamic_bytes_ > kSharedMemoryPerBlock) {
    error = std::string("kernel ") + call_.name + ": __shared__ " + name + " (line " + std::to_string(line) +
            ") needs " + std::to_string(bytes) + " bytes, which makes the block's shared memory " +
            std::to_string(offset + bytes) + " bytes (" + std::to_string(dynamic_bytes_) + " dynamic): more than the " +
            std::to_string(offset + bytes > shared_limit_ ? shared_limit_ : kSharedMemoryPerBlock) +
            (offset + bytes > shared_limit_ ? " a block of this launch may have" : " static bytes a block may have");
    return nullptr;
  }
  // The block's first use of the array: its bytes hold the launch's pattern.
  std::memset(arena_.get() + start, shared_pattern_, offset + bytes - start);
  static_bytes_ = offset + bytes - dynamic_bytes_;
  shared_arrays_.push_back({name, line, offset, bytes});
  return arena_.get() + offset;
}

std::string LaunchChecker::who(std::uint32_t block, unsigned thread) const {
  return "thread " + coordinates(unflatten(thread, block_)) + " of block " + coordinates(unflatten(block, grid_));
}

std::string LaunchChecker::describe(const Region& region, std::uintptr_t address) const {
  if (region.kind == RegionKind::shared) {
    const std::size_t offset = address - region.begin;
    if (offset < dynamic_bytes_) return "dynamic shared memory (extern __shared__), byte " + std::to_string(offset);
    for (const SharedArray& array : shared_arrays_)
      if (offset >= array.offset && offset < array.offset + array.bytes)
        return "__shared__ " + std::string(array.name) + ", byte " + std::to_string(offset - array.offset);
    return "shared memory, byte " + std::to_string(offset);
  }
  if (region.kind == RegionKind::statics) {
    for (const DeviceVariable& variable : variables_)
      if (address - variable.begin < variable.bytes)
        return "__device__ variable " + std::string(variable.name) + ", byte " +
               std::to_string(address - variable.begin);
    return "a __device__ variable at " + hex(address);
  }
  if (region.kind == RegionKind::constants) return "read-only host data at " + hex(address);
  std::string text = "device buffer of " + std::to_string(region.bytes) + " bytes";
  if (region.argument) text += " (the kernel's argument " + std::to_string(region.argument) + ")";
  return text + ", byte " + std::to_string(address - region.begin);
}

std::string LaunchChecker::race(const Stamp& earlier, const Access& later, const ThreadContext& thread,
                                const Region& region, bool earlier_wrote) {
  const bool other_block = earlier.block != block_linear_;
  std::string text = std::string("kernel ") + call_.name + ": race on " + describe(region, later.address) + ": " +
                     who(earlier.block, earlier.thread) + " " + (earlier_wrote ? "wrote" : "read") + " it at " +
                     source_line(code_address(earlier.pc)) + " and " + who(block_linear_, thread.linear) + " " +
                     (later.write ? "writes" : "reads") + " it at " + source_line(later.pc);
  if (other_block)
    text +=
        ", in another block of the same launch: blocks run in no order a kernel can rely on, and one block's "
        "writes reach another only through __threadfence() before an atomic (or volatile) write the other block "
        "reads";
  else
    text += " with no __syncthreads between (nor a __syncwarp both took part in, nor a fence and an atomic)";
  return text + "; on a GPU the result depends on timing";
}

bool LaunchChecker::ordered(const Stamp& earlier, const ThreadContext& thread) const {
  // Another interval of this block: always; another block: only through
  // what this thread or its block acquired of it.
  if (earlier.epoch() != epoch_) return earlier.block == block_linear_ || ordered_across_blocks(earlier, thread);
  if (earlier.thread == thread.linear) return true;
  if (earlier.thread / kWarpSize == thread.linear / kWarpSize &&
      thread.clock[earlier.thread % kWarpSize] > earlier.clock)
    return true;
  return !thread.acquired.empty() && thread.acquired[earlier.thread] > earlier.clock;
}

bool LaunchChecker::ordered_across_blocks(const Stamp& earlier, const ThreadContext& thread) const {
  return block_knowledge_.covers(earlier.block, earlier.interval, earlier.thread, earlier.clock) ||
         thread.other_blocks.covers(earlier.block, earlier.interval, earlier.thread, earlier.clock);
}

bool LaunchChecker::conflicts(const Stamp& earlier, std::uint8_t bytes, Strength strength,
                              const ThreadContext& thread) const {
  if (!(earlier.bytes & bytes)) return false;
  if (earlier.strength == Strength::atomic && strength == Strength::atomic) return false;
  // Volatile and atomic accesses in one block are "morally strong": no race.
  if (earlier.strength != Strength::plain && strength != Strength::plain && earlier.block == block_linear_)
    return false;
  return !ordered(earlier, thread);
}

bool LaunchChecker::check_word(Word& word, std::uint8_t bytes, const Later& later, const ThreadContext& thread,
                               const Region& region) {
  if (conflicts(word.write, bytes, later.strength, thread)) return fail_race(word.write, later, thread, region, true);
  const unsigned lane = thread.linear % kWarpSize;
  const Stamp now{block_linear_,
                  interval_,
                  static_cast<std::uint16_t>(thread.linear),
                  bytes,
                  later.strength,
                  thread.clock[lane],
                  code_offset(later.pc)};
  if (later.write) {
    for (Stamp& read : word.reads) {
      if (conflicts(read, bytes, later.strength, thread)) return fail_race(read, later, thread, region, false);
      if (read.bytes && ordered(read, thread) && !(read.bytes & ~bytes)) read = {};
    }
    word.write = now;
    return true;
  }
  // Keep two reads that are not ordered before this one, this one among them.
  for (Stamp& read : word.reads) {
    if (!read.bytes || ordered(read, thread)) {
      read = now;
      return true;
    }
  }
  word.reads[1] = now;
  return true;
}

bool LaunchChecker::fail_race(const Stamp& earlier, Later later, const ThreadContext& thread, const Region& region,
                              bool earlier_wrote) {
  Access access;
  access.address = later.address;
  access.write = later.write;
  access.strength = later.strength;
  access.pc = later.pc;
  problem_ = race(earlier, access, thread, region, earlier_wrote);
  return false;
}

bool LaunchChecker::fail_fault(const ThreadContext& thread, const Access& access) {
  problem_ = fault(thread, access);
  return false;
}

void LaunchChecker::fail_misaligned(const ThreadContext& thread, std::uintptr_t address, unsigned size, unsigned flags,
                                    const void* pc) {
  const Access access = access_of(address, size, flags, pc);
  const Region* region = region_of(address, size);
  problem_ = std::string("kernel ") + call_.name + ": misaligned address: " + who(block_linear_, thread.linear) +
             " makes a " + std::to_string(size) + "-byte " + kind_of(access) + " at " + source_line(pc) + " of " +
             (region ? describe(*region, address) : hex(address)) + ", an address " + std::to_string(size) +
             " does not divide; on a GPU an access must be aligned to its size (a float4 to 16 bytes) or it "
             "faults (compute-sanitizer's memcheck)";
  abandon();
}

void LaunchChecker::check_in_flight(const ThreadContext& thread, std::uintptr_t address, unsigned size, unsigned flags,
                                    const void* pc) {
  const AsyncCopies::Copy* copy = async_.conflicting(address, size, flags & kWrite);
  if (!copy) return;
  const Region* region = region_of(address, size);
  const bool source = !in_shared_memory(address, size);
  problem_ = std::string("kernel ") + call_.name +
             ": race with a cp.async in flight: " + who(block_linear_, thread.linear) +
             (flags & kWrite ? " writes " : " reads ") + (region ? describe(*region, address) : hex(address)) + " at " +
             source_line(pc) + ", the " + (source ? "source" : "destination") + " of the cp.async that " +
             who(block_linear_, copy->thread) + " issued at " + source_line(copy->pc) +
             ", which has not landed: on a GPU it lands at any moment until its thread's cp.async.wait_group "
             "(cp_async_wait_group<N>) covers its group; wait for it, and __syncthreads() before other threads use "
             "it (compute-sanitizer's racecheck)";
  abandon();
}

bool LaunchChecker::fail_parameter_write(const ThreadContext& thread, const Access& access) {
  problem_ = std::string("kernel ") + call_.name + ": " + who(block_linear_, thread.linear) +
             " writes the kernel's parameters at " + source_line(access.pc);
  return false;
}

void LaunchChecker::note_uninitialized(const ThreadContext& thread, const Access& access, const Region& region,
                                       std::uintptr_t byte) {
  if (!uninitialized_.empty()) return;  // the first one says it
  const bool shared = region.kind == RegionKind::shared;
  const char* verb = access.strength == Strength::atomic ? "'s atomic update reads "
                     : access.range                      ? " copies "
                                                         : " reads ";
  uninitialized_ = std::string("kernel ") + call_.name + ": " + who(block_linear_, thread.linear) + verb +
                   describe(region, byte) + " at " + source_line(access.pc) + ", which " +
                   (shared ? "no thread of its block had written: a block's shared memory starts uninitialized"
                           : "nothing had written since cudaMalloc: device memory starts uninitialized (cudaMemset it, "
                             "or write it before reading)") +
                   "; on a GPU it holds whatever was there before (compute-sanitizer's initcheck)";
  uninitialized_in_shared_ = shared;
}

std::string LaunchChecker::fault(const ThreadContext& thread, const Access& access) const {
  const std::uintptr_t address = access.address;
  std::string where;
  // cudaFree keeps freed buffers in quarantine (device_memory.cpp): the host
  // cannot have reused their memory yet.
  for (const BufferRange& freed : freed_buffers())
    if (address >= freed.begin && address < freed.begin + freed.bytes)
      where = "inside a " + std::to_string(freed.bytes) + "-byte device buffer that cudaFree released (use after free)";
  // Each buffer sits between guards of address space nothing else is given:
  // an index past a buffer's end lands in that buffer's guard.
  for (const auto& region : buffers_) {
    if (!where.empty()) break;
    const std::uintptr_t end = region->begin + region->bytes;
    if (address >= region->begin && address < end) {  // starts inside, runs past the end (a copy)
      where = describe(*region, address) + ": " + std::to_string(address + access.size - end) +
              " bytes of it lie past the buffer's end";
    } else if (address >= end && address < region->begin + region->reserved + region->guard) {
      where = describe(*region, address) + ": past its end";
    } else if (address < region->begin && region->begin - address <= region->guard) {
      where =
          std::to_string(region->begin - address) + " bytes before the start of a " + describe(*region, region->begin);
      where.resize(where.size() - std::string(", byte 0").size());
    }
  }
  if (where.empty() && address >= shared_region_->begin && address < shared_region_->begin + kSharedMemoryPerBlockOptIn)
    where = "past the end of the block's " + std::to_string(dynamic_bytes_ + static_bytes_) + " bytes of shared memory";
  if (where.empty() && access.write && constants_region_ &&
      std::any_of(constant_segments_.begin(), constant_segments_.end(),
                  [&](const auto& segment) { return address >= segment.first && address < segment.second; }))
    where = "read-only host data (a string literal or a constant table), which no thread may write";
  // An argument that points outside every device buffer, nearest below the
  // address: a host pointer passed to the kernel.
  int host_argument = 0;
  std::uintptr_t nearest = 0;
  for (std::size_t i = 0; i < call_.pointer_count; ++i) {
    const auto value = reinterpret_cast<std::uintptr_t>(call_.pointers[i].value);
    const bool on_device = std::any_of(buffers_.begin(), buffers_.end(), [&](const auto& region) {
      return value - region->begin < std::max<std::size_t>(region->bytes, 1);
    });
    if (value && !on_device && value <= address && address - value < (std::uintptr_t{1} << 26) && value >= nearest) {
      nearest = value;
      host_argument = call_.pointers[i].position;
    }
  }
  if (where.empty() && host_argument)
    where = "host memory, which the kernel's argument " + std::to_string(host_argument) +
            " points into: a GPU reads only device memory (cudaMalloc, then cudaMemcpy the data there)";
  if (where.empty())
    where =
        "host memory (a host variable, the host's heap or stack), not a device buffer, the block's shared memory, "
        "the thread's own stack or a __device__ variable";
  return std::string("kernel ") + call_.name + ": invalid " + std::string(kind_of(access)) + " of " +
         std::to_string(access.size) + " bytes at " + hex(address) + " by " + who(block_linear_, thread.linear) +
         " at " + source_line(access.pc) + ": " + where + "; on a GPU this faults (compute-sanitizer's memcheck)";
}

// The region [address, address + size) lies in, or null: the block's shared
// memory (its live part), the buffers of the last accesses to device memory,
// then a search.
LaunchChecker::Region* LaunchChecker::region_of(std::uintptr_t address, unsigned size) {
  const std::size_t live = dynamic_bytes_ + static_bytes_;
  if (lies_within(address, size, shared_begin_, live)) return shared_region_.get();
  for (const RecentBuffer& recent : recent_)
    if (lies_within(address, size, recent.begin, recent.bytes)) return recent.region;
  return find_region(address, size);
}

LaunchChecker::Region* LaunchChecker::find_region(std::uintptr_t address, unsigned size) {
  const auto after = std::upper_bound(buffers_.begin(), buffers_.end(), address,
                                      [](std::uintptr_t a, const auto& r) { return a < r->begin; });
  if (after != buffers_.begin()) {
    Region* buffer = std::prev(after)->get();
    if (lies_within(address, size, buffer->begin, buffer->bytes)) {
      std::copy_backward(recent_.begin(), recent_.end() - 1, recent_.end());
      recent_[0] = {buffer->begin, buffer->bytes, buffer};
      return buffer;
    }
  }
  const auto variable = std::upper_bound(variables_.begin(), variables_.end(), address,
                                         [](std::uintptr_t a, const DeviceVariable& v) { return a < v.begin; });
  if (variable != variables_.begin() &&
      lies_within(address, size, std::prev(variable)->begin, std::prev(variable)->bytes))
    return statics_region_.get();
  const auto segment = std::upper_bound(constant_segments_.begin(), constant_segments_.end(),
                                        std::make_pair(address, ~std::uintptr_t{0}));
  if (segment != constant_segments_.begin() && address + size <= std::prev(segment)->second &&
      address >= std::prev(segment)->first)
    return constants_region_.get();
  return nullptr;
}

bool LaunchChecker::source_byte_initialized(std::uintptr_t address) {
  const std::uintptr_t word_address = address & ~std::uintptr_t{3};
  if (lies_within(address, 1, shared_begin_, dynamic_bytes_ + static_bytes_)) {
    Word& word = shared_region_->word(word_address, block_serial_);
    return word.initialized >> (address & 3) & 1u;
  }
  for (const auto& region : buffers_)
    if (lies_within(address, 1, region->begin, region->bytes)) return region->writers[address - region->begin] != 0;
  return true;  // a thread's stack, a __device__ variable, constants: never tracked, so taken as written
}

void LaunchChecker::copy_initialization(const ThreadContext& thread, Region& region, std::uintptr_t address,
                                        unsigned size) {
  // The source's state first: a memmove's ranges may overlap.
  const std::uintptr_t source = thread.copy_source;
  std::vector<bool> initialized(size, true);
  if (source)
    for (unsigned i = 0; i < size; ++i) initialized[i] = source_byte_initialized(source + i);
  for (unsigned i = 0; i < size; ++i) {
    const std::uintptr_t byte = address + i;
    if (region.kind == RegionKind::shared) {
      Word& word = region.word(byte & ~std::uintptr_t{3}, block_serial_);
      const auto bit = static_cast<std::uint8_t>(1u << (byte & 3));
      word.initialized = initialized[i] ? (word.initialized | bit) : (word.initialized & ~bit);
    } else if (region.kind == RegionKind::buffer) {
      region.writers[byte - region.begin] = initialized[i] ? writer_ : kNeverWritten;
    }
  }
}

void LaunchChecker::note_host_words(Region& region, std::uintptr_t address, unsigned size) {
  if (region.host_words_seen.empty()) region.host_words_seen.assign((region.bytes + 3) / 4 / 64 + 1, 0);
  if (size == 4 && (address & 3) == 0) {  // the usual one: an aligned word, whose tags the caller read
    const std::uintptr_t word = address - region.begin;
    std::uint64_t& bits = region.host_words_seen[word / 4 / 64];
    const std::uint64_t bit = std::uint64_t{1} << (word / 4 % 64);
    if ((bits & bit) || host_words_.size() >= kMaxHostWordsPerLaunch) {
      bits |= bit;
      return;
    }
    bits |= bit;
    std::uint32_t value;
    std::memcpy(&value, reinterpret_cast<const void*>(address), 4);
    host_words_.push_back(value);
    return;
  }
  for (std::uintptr_t word = (address - region.begin) & ~std::uintptr_t{3}; word < address + size - region.begin;
       word += 4) {
    if (word + 4 > region.bytes) break;
    const WriterTag* writers = region.writers + word;
    if (writers[0] != kHostCopy || writers[1] != kHostCopy || writers[2] != kHostCopy || writers[3] != kHostCopy)
      continue;
    std::uint64_t& bits = region.host_words_seen[word / 4 / 64];
    const std::uint64_t bit = std::uint64_t{1} << (word / 4 % 64);
    if (bits & bit) continue;
    bits |= bit;
    if (host_words_.size() >= kMaxHostWordsPerLaunch) continue;
    std::uint32_t value;
    std::memcpy(&value, reinterpret_cast<const void*>(region.begin + word), 4);
    host_words_.push_back(value);
  }
}

bool LaunchChecker::device_bytes(ThreadContext& thread, Region& region, const Access& access) {
  const std::size_t offset = access.address - region.begin;
  WriterTag* writers = region.writers + offset;
  const bool reads = !access.write || access.strength == Strength::atomic;  // an atomic update reads first
  if (access.size == 4) {  // most accesses: a float or an int, four tags at once
    std::uint32_t tags;
    std::memcpy(&tags, writers, 4);
    if (reads) {
      // Only a load of which no byte was written is an error: a struct's
      // padding, never written, travels with its fields in one wide load or
      // copy, and is never used.
      if (tags == 0) note_uninitialized(thread, access, region, access.address);
      read_by_writer_[tags & 0xff] += 4;
      if (tags == 0x01010101u * kHostCopy) note_host_words(region, access.address, 4);
    }
    if (access.write) {
      if (access.range) {
        copy_initialization(thread, region, access.address, 4);
      } else {
        tags = 0x01010101u * writer_;
        std::memcpy(writers, &tags, 4);
      }
    }
    return true;
  }
  if (reads && !(access.range && access.write)) {
    if (std::all_of(writers, writers + access.size, [](WriterTag w) { return w == kNeverWritten; }))
      note_uninitialized(thread, access, region, access.address);
    read_by_writer_[writers[0]] += access.size;
    if (writers[0] == kHostCopy || writers[access.size - 1] == kHostCopy)
      note_host_words(region, access.address, access.size);
  }
  if (access.write) {
    if (access.range)
      copy_initialization(thread, region, access.address, access.size);
    else
      std::fill(writers, writers + access.size, writer_);
  }
  return true;
}

bool LaunchChecker::access(ThreadContext& thread, const Access& access) {
  ++thread.accesses;
  const std::uintptr_t address = access.address;
  // Kernel parameters: the launch's own copy, read-only to kernel code.
  if (address - call_begin_ < call_bytes_) return !access.write || fail_parameter_write(thread, access);
  Region* region = region_of(address, access.size);
  if (!region) return fail_fault(thread, access);
  if (region->kind == RegionKind::constants) return !access.write || fail_fault(thread, access);

  // Its shadow is far from the last one more often than not: load it while
  // the requests are noted.
  if (region->shadow) __builtin_prefetch(&region->shadow[(address - region->begin) >> 2], 1);
  const bool shared = region->kind == RegionKind::shared;
  const Operation operation = access.strength == Strength::atomic && access.write ? Operation::atomic
                              : access.write                                      ? Operation::store
                              : access.asynchronous                               ? Operation::async_load
                                                                                  : Operation::load;
  WarpRequests& warp = warps_[thread.linear / kWarpSize];
  if (!access.counted) {
    // an ldmatrix row (its instruction counts itself) or a cp.async as it is issued
  } else if (access.size <= 16) {
    warp.add(thread, access.pc, shared ? Space::shared : Space::global, operation, address, access.size);
  } else {
    // A copy longer than a vector load is counted as the loop of 16-byte
    // accesses a GPU would run for it.
    for (unsigned piece = 0; piece < access.size; piece += 16)
      warp.add(thread, access.pc, shared ? Space::shared : Space::global, operation, address + piece,
               std::min(16u, access.size - piece));
  }
  if (warp.pending() > WarpRequests::kMaxPending) warp.count_into(counters_, instructions_);
  if (!shared) {
    region->touch_sectors(address, access.size, access.write);
    if (access.strength == Strength::atomic && access.write) region->touch_sectors(address, access.size, false);
  }
  if (access.write && access.lands) ++writes_;
  if (region->kind == RegionKind::buffer && !device_bytes(thread, *region, access)) return false;

  const std::uint32_t owner = shared ? block_serial_ : buffer_owner_;
  const Later later{address, access.pc, access.write, access.strength};
  const std::uintptr_t offset = address & 3;
  if (!shared && offset + access.size <= 4) {  // one word of device memory, as most are: fewer steps
    if (!check_word(region->word(address - offset, owner), byte_mask(address, address + access.size), later, thread,
                    *region))
      return false;
    synchronize(thread, access);
    return true;
  }
  const bool reads = !access.write || access.strength == Strength::atomic;
  const std::uintptr_t end = address + access.size;
  bool any_initialized = false;
  std::uintptr_t unwritten = 0;
  for (std::uintptr_t word_address = address - offset; word_address < end; word_address += 4) {
    const std::uintptr_t first = std::max(word_address, address), last = std::min(word_address + 4, end);
    const std::uint8_t bytes = byte_mask(first, last);
    Word& word = region->word(word_address, owner);
    if (shared && reads && !(access.range && access.write)) {
      if ((word.initialized & bytes) != bytes && !unwritten)
        unwritten =
            word_address + static_cast<unsigned>(std::countr_zero(static_cast<unsigned>(bytes & ~word.initialized)));
      any_initialized = any_initialized || (word.initialized & bytes);
    }
    if (!check_word(word, bytes, later, thread, *region)) return false;
    if (shared && access.write && !access.range && access.lands) word.initialized |= bytes;
  }
  if (unwritten && !any_initialized) note_uninitialized(thread, access, *region, unwritten);
  if (shared && access.write && access.range) copy_initialization(thread, *region, address, access.size);
  synchronize(thread, access);
  return true;
}

void LaunchChecker::synchronize(ThreadContext& thread, const Access& access) {
  if (!access.synchronizes || access.strength == Strength::plain) return;
  if (access.write)
    release(thread, access.address);
  else
    acquire(thread, access.address);
}

bool LaunchChecker::shared_word_access(ThreadContext& thread, std::uintptr_t address, unsigned size, bool write,
                                       const void* pc) {
  ++thread.accesses;
  WarpRequests& warp = warps_[thread.linear / kWarpSize];
  warp.add(thread, pc, Space::shared, write ? Operation::store : Operation::load, address, size);
  if (warp.pending() > WarpRequests::kMaxPending) warp.count_into(counters_, instructions_);
  if (write) ++writes_;
  const std::uint8_t bytes = byte_mask(address, address + size);
  Word& word = shared_region_->word(address & ~std::uintptr_t{3}, block_serial_);
  if (!write && !(word.initialized & bytes)) {
    Access access;
    access.address = address;
    access.size = size;
    access.pc = pc;
    note_uninitialized(thread, access, *shared_region_,
                       (address & ~std::uintptr_t{3}) +
                           static_cast<unsigned>(std::countr_zero(static_cast<unsigned>(bytes & ~word.initialized))));
  }
  if (!check_word(word, bytes, {address, pc, write, Strength::plain}, thread, *shared_region_)) return false;
  if (write) word.initialized |= bytes;
  return true;
}

void LaunchChecker::check(ThreadContext& thread, std::uintptr_t address, unsigned size, unsigned flags,
                          const void* pc) {
  const RuntimeScope inside(&thread);
  // A GPU faults on an access its size does not divide the address of (a
  // copy's ranges go byte by byte, where the size is no alignment).
  if (!(flags & kRange) && (address & (size - 1)) != 0) fail_misaligned(thread, address, size, flags, pc);
  if (async_.any_in_flight() && !(flags & kAsyncIssue)) [[unlikely]]
    check_in_flight(thread, address, size, flags, pc);
  // Most accesses: a plain load or store of one word of shared memory (which
  // the kernel's parameters never overlap), what access() does for it.
  const std::size_t live = dynamic_bytes_ + static_bytes_;
  if (!(flags & (kAtomic | kVolatile | kRange | kUncounted | kAsyncIssue)) && (address & 3) + size <= 4 &&
      lies_within(address, size, shared_begin_, live)) {
    if (!shared_word_access(thread, address, size, flags & kWrite, pc)) abandon();
    return;
  }
  check_elsewhere(thread, address, size, flags, pc);
}

void LaunchChecker::check_elsewhere(ThreadContext& thread, std::uintptr_t address, unsigned size, unsigned flags,
                                    const void* pc) {
  const Access access = access_of(address, size, flags, pc);
  // Before the access is checked and counted: another thread may act first;
  // always between a volatile read and a volatile write of the same word (an
  // update made of two accesses), where on a GPU another thread's update is
  // lost.
  if (access.strength == Strength::relaxed) {
    const std::uintptr_t word = address & ~std::uintptr_t{3};
    const bool update = access.write && thread.relaxed_read == word;
    thread.relaxed_read = access.write ? 0 : word;
    switch_point(update);
  } else if (access.strength == Strength::atomic) {
    switch_point(false);
  }
  if (!this->access(thread, access)) abandon();
  if (access.strength != Strength::plain && !access.write) note_spin_read(thread, address);
}

void LaunchChecker::copy(ThreadContext& thread, std::uintptr_t to, std::uintptr_t from, std::size_t bytes,
                         const void* pc) {
  const auto own_stack = [&](std::uintptr_t address) {
    return address - thread.stack_low < thread.stack_high - thread.stack_low;
  };
  constexpr std::size_t kPiece = std::size_t{1} << 30;  // check() takes sizes as 32 bits
  for (std::size_t done = 0; done < bytes && !own_stack(from); done += kPiece)
    check(thread, from + done, static_cast<unsigned>(std::min(kPiece, bytes - done)), kRange, pc);
  for (std::size_t done = 0; done < bytes && !own_stack(to); done += kPiece) {
    thread.copy_source = from + done;
    check(thread, to + done, static_cast<unsigned>(std::min(kPiece, bytes - done)), kRange | kWrite, pc);
  }
  thread.copy_source = 0;
}

void LaunchChecker::abandon() {
  // A race explains an earlier uninitialized read (the writer came later);
  // anything else happened with the uninitialized value in hand.
  if (!uninitialized_.empty() && problem_.find(": race on ") == std::string::npos)
    problem_ = uninitialized_ + ". With what it read, then: " + problem_;
  abandon_thread(problem_);
}

void LaunchChecker::finish() {
  if (!uninitialized_.empty()) throw KernelError(uninitialized_);
}

void LaunchChecker::fence(ThreadContext& thread, bool every_block) {
  const unsigned lane = thread.linear % kWarpSize;
  thread.fence_tick = ++thread.clock[lane];  // what it did before has smaller ticks
  thread.fence_reaches_every_block = every_block;
}

void LaunchChecker::release(ThreadContext& thread, std::uintptr_t address) {
  if (!thread.fence_tick) return;  // a relaxed write without a fence before it publishes nothing
  const std::uintptr_t word = address & ~std::uintptr_t{3};
  Release& release = releases_[word];
  if (release.clocks.empty()) release.clocks.assign(block_.count(), 0);
  // What this thread acquired travels on (a release sequence), then its own
  // accesses before its fence.
  if (!thread.acquired.empty())
    for (std::size_t t = 0; t < release.clocks.size(); ++t)
      release.clocks[t] = std::max(release.clocks[t], thread.acquired[t]);
  release.clocks[thread.linear] = std::max(release.clocks[thread.linear], thread.fence_tick);
  ++release.version;
  if (!thread.fence_reaches_every_block) return;
  // To other blocks: this block's intervals before this one (a barrier
  // ordered them before the fence), this thread's accesses before its fence,
  // and what it and its block acquired before.
  DeviceRelease& published = device_releases_[word];
  published.knowledge.learn(block_knowledge_);
  published.knowledge.learn(thread.other_blocks);
  published.knowledge.learn_intervals(block_linear_, interval_);
  published.knowledge.learn_thread(block_linear_, static_cast<std::uint16_t>(thread.linear), thread.fence_tick);
  // The lanes of its warp it is ordered after (a __syncwarp, a shuffle).
  const unsigned lane = thread.linear % kWarpSize, warp_base = thread.linear - lane;
  for (unsigned other = 0; other < kWarpSize; ++other)
    if (other != lane && thread.clock[other] > 0)
      published.knowledge.learn_thread(block_linear_, static_cast<std::uint16_t>(warp_base + other),
                                       thread.clock[other]);
  for (std::size_t t = 0; t < thread.acquired.size(); ++t)
    if (thread.acquired[t])
      published.knowledge.learn_thread(block_linear_, static_cast<std::uint16_t>(t), thread.acquired[t]);
  ++published.version;
}

void LaunchChecker::acquire(ThreadContext& thread, std::uintptr_t address) {
  const std::uintptr_t word = address & ~std::uintptr_t{3};
  if (const auto found = releases_.find(word); found != releases_.end()) {
    std::uint64_t& seen = thread.seen_releases[word];
    if (seen != found->second.version) {  // else nothing new (a spin-wait's usual read)
      seen = found->second.version;
      if (thread.acquired.empty()) thread.acquired.assign(block_.count(), 0);
      for (std::size_t t = 0; t < thread.acquired.size(); ++t)
        thread.acquired[t] = std::max(thread.acquired[t], found->second.clocks[t]);
    }
  }
  if (device_releases_.empty()) return;
  if (const auto found = device_releases_.find(word); found != device_releases_.end()) {
    std::uint64_t& seen = thread.seen_releases[word | 1];  // bit 0: the launch-wide release
    if (seen == found->second.version) return;
    seen = found->second.version;
    thread.other_blocks.learn(found->second.knowledge);
  }
}

MemoryCounters LaunchChecker::counters() {
  for (WarpRequests& warp : warps_) warp.count_into(counters_, instructions_);
  note_heaviest_warp();
  MemoryCounters result = counters_;
  result.dram_read_bytes = result.dram_write_bytes = 0;
  for (const auto& region : buffers_) {
    result.dram_read_bytes += 32 * region->sectors(false);
    result.dram_write_bytes += 32 * region->sectors(true);
  }
  result.dram_read_bytes += 32 * statics_region_->sectors(false);
  result.dram_write_bytes += 32 * statics_region_->sectors(true);
  return result;
}

std::vector<InstructionCounters> LaunchChecker::instructions() const {
  std::vector<InstructionCounters> by_instruction;
  by_instruction.reserve(instructions_.size());
  for (const auto& [pc, counted] : instructions_) by_instruction.push_back(counted);
  std::sort(by_instruction.begin(), by_instruction.end(), [](const auto& a, const auto& b) {
    return a.requests != b.requests ? a.requests > b.requests : a.pc < b.pc;
  });
  return by_instruction;
}

std::vector<std::pair<std::string, std::uint64_t>> LaunchChecker::bytes_read_by_writer() const {
  std::vector<std::pair<std::string, std::uint64_t>> read;
  for (std::size_t tag = 0; tag < read_by_writer_.size(); ++tag)
    if (read_by_writer_[tag]) read.emplace_back(writer_name(static_cast<WriterTag>(tag)), read_by_writer_[tag]);
  return read;
}

std::vector<std::uint32_t> LaunchChecker::host_words_read() {
  std::vector<std::uint32_t> words = std::move(host_words_);
  std::sort(words.begin(), words.end());
  words.erase(std::unique(words.begin(), words.end()), words.end());
  return words;
}

}  // namespace rooflab::cuda_cpu::detail
