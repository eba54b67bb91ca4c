#include "memory_checker.hpp"

#include <link.h>
#include <sys/mman.h>

#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstdlib>
#include <unordered_set>

#include "runtime_state.hpp"
#include "scheduler_internal.hpp"

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
}  // namespace

// One access as the shadow keeps it: who, between which barriers, at which
// tick of its clock, which bytes of the word, from which instruction.
struct LaunchChecker::Stamp {
  std::uint32_t block = 0;
  std::uint32_t interval = 0;  // beside block: both are one 8-byte epoch()
  std::uint16_t thread = 0;
  std::uint8_t bytes = 0;  // a mask of the word's 4 bytes; 0: no access
  std::uint8_t atomic = 0;
  std::uint32_t clock = 0;
  std::int32_t pc = 0;  // code_offset()

  std::uint64_t epoch() const { return epoch_of(block, interval); }
};

// The shadow of one 4-byte word: its last write, and up to two reads since.
struct alignas(64) LaunchChecker::Word {
  std::uint32_t owner = 0;  // shared memory: the block serial it belongs to
  Stamp write;
  Stamp reads[2];
};

enum class RegionKind { buffer, shared, statics };

struct LaunchChecker::Region {
  RegionKind kind = RegionKind::buffer;
  std::uintptr_t begin = 0;
  std::size_t bytes = 0;
  int argument = 0;        // the first pointer argument that points into it, or 0
  Word* shadow = nullptr;  // mapped on first use: zeroed pages, each paid for when a kernel touches it
  std::size_t shadow_bytes = 0;
  std::unordered_map<std::uintptr_t, Word> sparse;           // statics: by word address
  std::vector<std::uint64_t> read_sectors, written_sectors;  // DRAM: one bit a 32-byte sector
  std::unordered_set<std::uintptr_t> sparse_read, sparse_written;

  Region() = default;
  Region(const Region&) = delete;
  Region& operator=(const Region&) = delete;
  ~Region() {
    if (shadow) munmap(shadow, shadow_bytes);
  }

  // The shadow of the word at `address`, which `owner` now owns (shared
  // memory's words start afresh in each block).
  Word& word(std::uintptr_t address, std::uint32_t owner) {
    Word& word = kind == RegionKind::statics ? sparse[address >> 2] : shadow_word(address);
    if (word.owner != owner) {
      word = {};
      word.owner = owner;
    }
    return word;
  }
  Word& shadow_word(std::uintptr_t address) {
    if (!shadow) map_shadow();
    return shadow[(address - begin) >> 2];
  }
  [[gnu::noinline]] void map_shadow() {
    shadow_bytes = ((bytes + 3) / 4 + 1) * sizeof(Word);
    void* mapped =
        mmap(nullptr, shadow_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (mapped == MAP_FAILED) throw std::bad_alloc();
    shadow = static_cast<Word*>(mapped);
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

// Every loaded object's segments: static variables (__device__ and
// __constant__ ones among them), string literals and tables.
std::vector<std::pair<std::uintptr_t, std::uintptr_t>> loaded_segments() {
  std::vector<std::pair<std::uintptr_t, std::uintptr_t>> segments;
  dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* out) {
        auto& list = *static_cast<std::vector<std::pair<std::uintptr_t, std::uintptr_t>>*>(out);
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr)& header = info->dlpi_phdr[i];
          if (header.p_type != PT_LOAD) continue;
          const std::uintptr_t begin = info->dlpi_addr + header.p_vaddr;
          list.emplace_back(begin, begin + header.p_memsz);
        }
        return 0;
      },
      &segments);
  std::sort(segments.begin(), segments.end());
  return segments;
}

const char* kind_of(const Access& access) {
  if (access.atomic) return access.write ? "atomic update" : "atomic read";
  return access.write ? "write" : "read";
}

}  // namespace

constinit thread_local LaunchChecker* running_checker = nullptr;
void set_current_checker(LaunchChecker* checker) { running_checker = checker; }

LaunchChecker::LaunchChecker(const KernelCall& call, dim3 grid, dim3 block, std::size_t dynamic_shared_bytes)
    : call_(call),
      grid_(grid),
      block_(block),
      dynamic_bytes_(dynamic_shared_bytes),
      arena_(static_cast<unsigned char*>(std::aligned_alloc(128, kSharedMemoryPerBlock))),
      warps_((block.count() + kWarpSize - 1) / kWarpSize) {
  static const auto segments = loaded_segments();
  static_segments_ = segments;
  for (const BufferRange& range : live_buffers()) {
    auto region = std::make_unique<Region>();
    region->begin = range.begin;
    region->bytes = range.bytes;
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
  shared_region_->bytes = kSharedMemoryPerBlock;
  statics_region_ = std::make_unique<Region>();
  statics_region_->kind = RegionKind::statics;
}

LaunchChecker::~LaunchChecker() { std::free(arena_.release()); }

void LaunchChecker::begin_block(unsigned linear) {
  releases_.clear();
  block_linear_ = linear;
  ++block_serial_;
  interval_ = 0;
  epoch_ = epoch_of(block_linear_, interval_);
  std::memset(arena_.get(), 0, std::min(kSharedMemoryPerBlock, dynamic_bytes_ + static_bytes_ + 128));
}

void LaunchChecker::barrier() {
  ++interval_;
  epoch_ = epoch_of(block_linear_, interval_);
  for (WarpRequests& warp : warps_) warp.count_into(counters_);
}

void* LaunchChecker::shared_array(const char* name, int line, std::size_t bytes, std::size_t alignment,
                                  std::string& error) {
  for (const SharedArray& array : shared_arrays_)
    if (array.name == name && array.line == line) return arena_.get() + array.offset;
  const std::size_t start = dynamic_bytes_ + static_bytes_;
  const std::size_t offset = (start + alignment - 1) / alignment * alignment;
  if (offset + bytes > kSharedMemoryPerBlock) {
    error = std::string("kernel ") + call_.name + ": __shared__ " + name + " (line " + std::to_string(line) +
            ") needs " + std::to_string(bytes) + " bytes, which makes the block's shared memory " +
            std::to_string(offset + bytes) + " bytes (" + std::to_string(dynamic_bytes_) + " dynamic): more than the " +
            std::to_string(kSharedMemoryPerBlock) + " a block may have";
    return nullptr;
  }
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
  if (region.kind == RegionKind::statics) return "a __device__ (static) variable at " + hex(address);
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
    text += ", in another block of the same launch: blocks run in no order a kernel can rely on";
  else
    text += " with no __syncthreads between (nor a __syncwarp both took part in)";
  return text + "; on a GPU the result depends on timing";
}

bool LaunchChecker::ordered(const Stamp& earlier, const ThreadContext& thread) const {
  // Another block: never; another interval of this block: always.
  if (earlier.epoch() != epoch_) return earlier.block == block_linear_;
  if (earlier.thread == thread.linear) return true;
  if (earlier.thread / kWarpSize == thread.linear / kWarpSize &&
      thread.clock[earlier.thread % kWarpSize] > earlier.clock)
    return true;
  return !thread.acquired.empty() && thread.acquired[earlier.thread] > earlier.clock;
}

bool LaunchChecker::conflicts(const Stamp& earlier, std::uint8_t bytes, bool atomic,
                              const ThreadContext& thread) const {
  return (earlier.bytes & bytes) && !(earlier.atomic && atomic) && !ordered(earlier, thread);
}

bool LaunchChecker::check_word(Word& word, std::uint8_t bytes, const Later& later, const ThreadContext& thread,
                               const Region& region) {
  if (conflicts(word.write, bytes, later.atomic, thread)) return fail_race(word.write, later, thread, region, true);
  const unsigned lane = thread.linear % kWarpSize;
  const Stamp now{block_linear_,
                  interval_,
                  static_cast<std::uint16_t>(thread.linear),
                  bytes,
                  static_cast<std::uint8_t>(later.atomic),
                  thread.clock[lane],
                  code_offset(later.pc)};
  if (later.write) {
    for (Stamp& read : word.reads) {
      if (conflicts(read, bytes, later.atomic, thread)) return fail_race(read, later, thread, region, false);
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
  problem_ = race(earlier, {later.address, 0, later.write, later.atomic, later.pc}, thread, region, earlier_wrote);
  return false;
}

bool LaunchChecker::fail_fault(const ThreadContext& thread, const Access& access) {
  problem_ = fault(thread, access);
  return false;
}

bool LaunchChecker::fail_parameter_write(const ThreadContext& thread, const Access& access) {
  problem_ = std::string("kernel ") + call_.name + ": " + who(block_linear_, thread.linear) +
             " writes the kernel's parameters at " + source_line(access.pc);
  return false;
}

std::string LaunchChecker::fault(const ThreadContext& thread, const Access& access) const {
  const std::uintptr_t address = access.address;
  std::string where;
  // cudaFree keeps freed buffers in quarantine (runtime_api.cpp): the host
  // cannot have reused their memory yet.
  for (const BufferRange& freed : freed_buffers())
    if (address >= freed.begin && address < freed.begin + freed.bytes)
      where = "inside a " + std::to_string(freed.bytes) + "-byte device buffer that cudaFree released (use after free)";
  if (where.empty() && address >= shared_region_->begin && address < shared_region_->begin + kSharedMemoryPerBlock)
    where = "past the end of the block's " + std::to_string(dynamic_bytes_ + static_bytes_) + " bytes of shared memory";
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
  if (where.empty()) {
    // Just outside a buffer: an index off by a little.
    for (const auto& region : buffers_) {
      const std::uintptr_t end = region->begin + region->bytes;
      const std::size_t slack = std::max<std::size_t>(region->bytes, 4096);
      if (address >= end && address < end + slack) {
        where = describe(*region, address) + ": past its end";
        break;
      }
      if (address < region->begin && address + slack >= region->begin) {
        where = std::to_string(region->begin - address) + " bytes before the start of a " +
                describe(*region, region->begin);
        where.resize(where.size() - std::string(", byte 0").size());
        break;
      }
    }
  }
  if (where.empty())
    where = "host memory, not a device buffer, the block's shared memory, the thread's stack or a __device__ variable";
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
  const auto segment =
      std::upper_bound(static_segments_.begin(), static_segments_.end(), std::make_pair(address, ~std::uintptr_t{0}));
  if (segment != static_segments_.begin() && address < std::prev(segment)->second) return statics_region_.get();
  return nullptr;
}

bool LaunchChecker::access(ThreadContext& thread, const Access& access) {
  ++thread.accesses;
  const std::uintptr_t address = access.address;
  // Kernel parameters: the launch's own copy, read-only to kernel code.
  if (address - call_begin_ < call_bytes_) return !access.write || fail_parameter_write(thread, access);
  Region* region = region_of(address, access.size);
  if (!region) return fail_fault(thread, access);

  // Its shadow is far from the last one more often than not: load it while
  // the requests are noted.
  if (region->shadow) __builtin_prefetch(&region->shadow[(address - region->begin) >> 2], 1);
  const bool shared = region->kind == RegionKind::shared;
  const Operation operation = access.atomic && access.write ? Operation::atomic
                              : access.write                ? Operation::store
                                                            : Operation::load;
  WarpRequests& warp = warps_[thread.linear / kWarpSize];
  warp.add(thread, access.pc, shared ? Space::shared : Space::global, operation, address, access.size);
  if (warp.pending() > WarpRequests::kMaxPending) warp.count_into(counters_);
  if (!shared) {
    region->touch_sectors(address, access.size, access.write);
    if (access.atomic && access.write) region->touch_sectors(address, access.size, false);
  }
  if (access.write) ++writes_;

  const std::uint32_t owner = shared ? block_serial_ : 1;
  const Later later{address, access.pc, access.write, access.atomic};
  const std::uintptr_t offset = address & 3;
  if (offset + access.size <= 4) {  // one word, as most accesses
    const auto bytes = static_cast<std::uint8_t>(((1u << access.size) - 1) << offset);
    if (!check_word(region->word(address - offset, owner), bytes, later, thread, *region)) return false;
  } else {
    for (std::uintptr_t word_address = address - offset; word_address < address + access.size; word_address += 4) {
      const std::uintptr_t first = std::max(word_address, address);
      const std::uintptr_t last = std::min(word_address + 4, address + access.size);
      const auto bytes = static_cast<std::uint8_t>(((1u << (last - first)) - 1) << (first - word_address));
      if (!check_word(region->word(word_address, owner), bytes, later, thread, *region)) return false;
    }
  }
  if (access.atomic && access.synchronizes) {
    if (access.write)
      release(thread, address);
    else
      acquire(thread, address);
  }
  return true;
}

bool LaunchChecker::shared_word_access(ThreadContext& thread, std::uintptr_t address, unsigned size, bool write,
                                       const void* pc) {
  ++thread.accesses;
  WarpRequests& warp = warps_[thread.linear / kWarpSize];
  warp.add(thread, pc, Space::shared, write ? Operation::store : Operation::load, address, size);
  if (warp.pending() > WarpRequests::kMaxPending) warp.count_into(counters_);
  if (write) ++writes_;
  const std::uintptr_t offset = address & 3;
  const auto bytes = static_cast<std::uint8_t>(((1u << size) - 1) << offset);
  return check_word(shared_region_->word(address - offset, block_serial_), bytes, {address, pc, write, false}, thread,
                    *shared_region_);
}

void LaunchChecker::check(ThreadContext& thread, std::uintptr_t address, unsigned size, unsigned flags,
                          const void* pc) {
  const RuntimeScope inside(&thread);
  // Most accesses: a plain load or store of one word of shared memory (which
  // the kernel's parameters never overlap), what access() does for it.
  const std::size_t live = dynamic_bytes_ + static_bytes_;
  if (!(flags & kAtomic) && (address & 3) + size <= 4 && lies_within(address, size, shared_begin_, live)) {
    if (!shared_word_access(thread, address, size, flags & kWrite, pc)) abandon();
    return;
  }
  check_elsewhere(thread, address, size, flags, pc);
}

void LaunchChecker::check_elsewhere(ThreadContext& thread, std::uintptr_t address, unsigned size, unsigned flags,
                                    const void* pc) {
  const bool write = flags & kWrite, atomic = flags & kAtomic;
  if (!access(thread, {address, size, write, atomic, pc, (flags & kSynchronizes) != 0})) abandon();
  if (atomic && !write) note_spin_read(thread, address);
}

void LaunchChecker::abandon() { abandon_thread(problem_); }

void LaunchChecker::release(ThreadContext& thread, std::uintptr_t address) {
  Release& release = releases_[address & ~std::uintptr_t{3}];
  if (release.clocks.empty()) release.clocks.assign(block_.count(), 0);
  // What this thread acquired travels on (a release sequence), then its own
  // accesses so far: every tick up to its current one.
  if (!thread.acquired.empty())
    for (std::size_t t = 0; t < release.clocks.size(); ++t)
      release.clocks[t] = std::max(release.clocks[t], thread.acquired[t]);
  const unsigned lane = thread.linear % kWarpSize;
  release.clocks[thread.linear] = std::max(release.clocks[thread.linear], thread.clock[lane] + 1);
  ++thread.clock[lane];  // what it does next is not published yet
  ++release.version;
}

void LaunchChecker::acquire(ThreadContext& thread, std::uintptr_t address) {
  const auto found = releases_.find(address & ~std::uintptr_t{3});
  if (found == releases_.end()) return;
  std::uint64_t& seen = thread.seen_releases[found->first];
  if (seen == found->second.version) return;  // nothing new (a spin-wait's usual read)
  seen = found->second.version;
  if (thread.acquired.empty()) thread.acquired.assign(block_.count(), 0);
  for (std::size_t t = 0; t < thread.acquired.size(); ++t)
    thread.acquired[t] = std::max(thread.acquired[t], found->second.clocks[t]);
}

MemoryCounters LaunchChecker::counters() {
  for (WarpRequests& warp : warps_) warp.count_into(counters_);
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

}  // namespace rooflab::cuda_cpu::detail
