// cudaMalloc, cudaFree, cudaMemcpy and cudaMemset on the CPU, and what the
// memory checker knows of device memory (device_memory.hpp).
#include "device_memory.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <new>

#include "launch_records.hpp"
#include "runtime_state.hpp"

namespace rooflab::cuda_cpu::detail {
namespace {

// A buffer's mapping: [begin − guard, begin + reserved + guard), of which
// [begin, begin + reserved) is readable and writable.
struct Mapping {
  std::size_t bytes = 0;     // what cudaMalloc was asked for
  std::size_t reserved = 0;  // rounded up to whole pages
  std::size_t guard = 0;
  std::unique_ptr<WriterTag[]> writers;

  BufferRange range(std::uintptr_t begin) const { return {begin, bytes, reserved, guard, writers.get()}; }
};

std::mutex lock;
std::map<std::uintptr_t, Mapping> buffers;  // by begin
// Freed buffers stay mapped a while (a quarantine, as AddressSanitizer keeps
// one), so that a kernel reading one is told "use after free" and never reads
// memory the host has reused. The most recent last.
std::deque<std::pair<std::uintptr_t, Mapping>> freed;
std::size_t freed_bytes = 0;
constexpr std::size_t kQuarantineBuffers = 256, kQuarantineBytes = 32 << 20;
std::uint64_t allocations = 0;

std::vector<DeviceVariable>& variables() {
  static std::vector<DeviceVariable> registered;  // registered before main: no lock needed then, taken anyway
  return registered;
}

std::vector<std::string>& kernel_names() {
  static std::vector<std::string> names;
  return names;
}

std::size_t page_size() {
  static const auto bytes = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  return bytes;
}

// Guards as large as the buffer (at least a page, at most 16 MiB): an index
// off by up to a whole buffer still lands in the right one's guard.
std::size_t guard_for(std::size_t reserved) {
  return std::clamp<std::size_t>(reserved, page_size(), std::size_t{16} << 20);
}

void unmap(std::uintptr_t begin, const Mapping& mapping) {
  munmap(reinterpret_cast<void*>(begin - mapping.guard), mapping.reserved + 2 * mapping.guard);
}

// A byte that is never 0: memory a kernel reads before anyone wrote it holds
// something other than what a zeroing allocator would give.
unsigned char pattern_byte(std::uint64_t serial) {
  const std::uint64_t mixed = (serial + 1) * 0x9e3779b97f4a7c15ull;
  return static_cast<unsigned char>(0x80 | (mixed >> 57));
}

}  // namespace

WriterTag kernel_writer_tag(const char* name) {
  const std::lock_guard guard(lock);
  std::vector<std::string>& names = kernel_names();
  const auto found = std::find(names.begin(), names.end(), name);
  if (found != names.end()) return static_cast<WriterTag>(kFirstKernelTag + (found - names.begin()));
  if (kFirstKernelTag + names.size() == kAnotherKernel) return kAnotherKernel;
  names.emplace_back(name);
  return static_cast<WriterTag>(kFirstKernelTag + names.size() - 1);
}

std::string writer_name(WriterTag tag) {
  switch (tag) {
    case kNeverWritten:
      return "never written";
    case kHostCopy:
      return "cudaMemcpy from the host";
    case kMemset:
      return "cudaMemset";
    case kAnotherKernel:
      return "another kernel";
    default:
      break;
  }
  const std::lock_guard guard(lock);
  const std::size_t index = tag - kFirstKernelTag;
  return index < kernel_names().size() ? kernel_names()[index] : "another kernel";
}

std::vector<BufferRange> live_buffers() {
  const std::lock_guard guard(lock);
  std::vector<BufferRange> live;
  live.reserve(buffers.size());
  for (const auto& [begin, mapping] : buffers) live.push_back(mapping.range(begin));
  return live;
}

std::vector<BufferRange> freed_buffers() {
  const std::lock_guard guard(lock);
  std::vector<BufferRange> list;
  for (const auto& [begin, mapping] : freed) list.push_back(mapping.range(begin));
  return list;
}

std::vector<DeviceVariable> device_variables() {
  const std::lock_guard guard(lock);
  std::vector<DeviceVariable> sorted = variables();
  std::sort(sorted.begin(), sorted.end(),
            [](const DeviceVariable& a, const DeviceVariable& b) { return a.begin < b.begin; });
  return sorted;
}

}  // namespace rooflab::cuda_cpu::detail

namespace rooflab::cuda_cpu {

bool register_device_variable(const void* address, std::size_t bytes, const char* name) {
  const std::lock_guard guard(detail::lock);
  detail::variables().push_back({reinterpret_cast<std::uintptr_t>(address), bytes, name});
  return true;
}

}  // namespace rooflab::cuda_cpu

namespace {

namespace detail = rooflab::cuda_cpu::detail;

cudaError_t invalid(const std::string& message) {
  detail::record_error(cudaErrorInvalidValue, message);
  return cudaErrorInvalidValue;
}

// The live buffer holding [address, address + bytes), or null (under the lock).
std::pair<const std::uintptr_t, detail::Mapping>* holding(const void* pointer, std::size_t bytes) {
  const auto address = reinterpret_cast<std::uintptr_t>(pointer);
  auto after = detail::buffers.upper_bound(address);
  if (after == detail::buffers.begin()) return nullptr;
  --after;
  const std::size_t offset = address - after->first;
  if (offset > after->second.bytes || bytes > after->second.bytes - offset) return nullptr;
  return &*after;
}

}  // namespace

cudaError_t cudaMalloc(void** pointer, std::size_t bytes) {
  if (!pointer) return invalid("cudaMalloc: the pointer to set is null");
  const std::size_t page = detail::page_size();
  const std::size_t reserved = (std::max<std::size_t>(bytes, 1) + page - 1) / page * page;
  const std::size_t guard = detail::guard_for(reserved);
  void* mapped = mmap(nullptr, reserved + 2 * guard, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  auto* begin = static_cast<unsigned char*>(mapped) + guard;
  if (mapped == MAP_FAILED || mprotect(begin, reserved, PROT_READ | PROT_WRITE) != 0) {
    if (mapped != MAP_FAILED) munmap(mapped, reserved + 2 * guard);
    *pointer = nullptr;
    detail::record_error(cudaErrorMemoryAllocation,
                         "cudaMalloc: out of memory for " + std::to_string(bytes) + " bytes");
    return cudaErrorMemoryAllocation;
  }
  detail::Mapping mapping{bytes, reserved, guard, nullptr};
  try {
    mapping.writers.reset(new detail::WriterTag[std::max<std::size_t>(bytes, 1)]());  // kNeverWritten
  } catch (const std::bad_alloc&) {
    munmap(mapped, reserved + 2 * guard);
    *pointer = nullptr;
    detail::record_error(cudaErrorMemoryAllocation,
                         "cudaMalloc: out of memory for " + std::to_string(bytes) + " bytes");
    return cudaErrorMemoryAllocation;
  }
  const std::lock_guard lock(detail::lock);
  std::memset(begin, detail::pattern_byte(detail::allocations++), reserved);
  detail::buffers.emplace(reinterpret_cast<std::uintptr_t>(begin), std::move(mapping));
  *pointer = begin;
  return cudaSuccess;
}

cudaError_t cudaFree(void* pointer) {
  if (!pointer) return cudaSuccess;
  const std::lock_guard lock(detail::lock);
  const auto found = detail::buffers.find(reinterpret_cast<std::uintptr_t>(pointer));
  if (found == detail::buffers.end())
    return invalid("cudaFree: the pointer did not come from cudaMalloc, or was freed already");
  detail::freed_bytes += found->second.bytes;
  detail::freed.emplace_back(found->first, std::move(found->second));
  detail::buffers.erase(found);
  while (detail::freed.size() > detail::kQuarantineBuffers || detail::freed_bytes > detail::kQuarantineBytes) {
    detail::unmap(detail::freed.front().first, detail::freed.front().second);
    detail::freed_bytes -= detail::freed.front().second.bytes;
    detail::freed.pop_front();
  }
  return cudaSuccess;
}

cudaError_t cudaMemcpy(void* to, const void* from, std::size_t bytes, cudaMemcpyKind kind) {
  if (bytes && (!to || !from)) return invalid("cudaMemcpy: a null pointer");
  if (kind == cudaMemcpyDefault) {  // the pointers say which way, as with unified addressing
    const std::lock_guard lock(detail::lock);
    const bool to_device = holding(to, 0) != nullptr, from_device = holding(from, 0) != nullptr;
    kind = to_device ? (from_device ? cudaMemcpyDeviceToDevice : cudaMemcpyHostToDevice)
                     : (from_device ? cudaMemcpyDeviceToHost : cudaMemcpyHostToHost);
  }
  if (!bytes) return cudaSuccess;
  const std::lock_guard lock(detail::lock);
  // What a GPU checks: the device side of the copy is a live cudaMalloc buffer, large enough.
  const bool to_device = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
  const bool from_device = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
  auto* destination = to_device ? holding(to, bytes) : nullptr;
  auto* source = from_device ? holding(from, bytes) : nullptr;
  if (to_device && !destination)
    return invalid("cudaMemcpy: the destination of " + std::to_string(bytes) +
                   " bytes is not inside one live cudaMalloc buffer (cudaMemcpy" +
                   (kind == cudaMemcpyHostToDevice ? "HostToDevice" : "DeviceToDevice") + ")");
  if (from_device && !source)
    return invalid("cudaMemcpy: the source of " + std::to_string(bytes) +
                   " bytes is not inside one live cudaMalloc buffer (cudaMemcpy" +
                   (kind == cudaMemcpyDeviceToHost ? "DeviceToHost" : "DeviceToDevice") + ")");
  const auto offset = [](const void* pointer, const auto* buffer) {
    return reinterpret_cast<std::uintptr_t>(pointer) - buffer->first;
  };
  if (source && !destination)  // what the host gets back, by who wrote it
    detail::record_device_to_host(static_cast<const unsigned char*>(from),
                                  source->second.writers.get() + offset(from, source), bytes);
  std::memmove(to, from, bytes);
  if (destination) {
    detail::WriterTag* writers = destination->second.writers.get() + offset(to, destination);
    if (source)  // a copy within the device keeps who wrote each byte
      std::memmove(writers, source->second.writers.get() + offset(from, source), bytes);
    else
      std::memset(writers, detail::kHostCopy, bytes);
  }
  return cudaSuccess;
}

cudaError_t cudaMemset(void* pointer, int value, std::size_t bytes) {
  if (bytes && !pointer) return invalid("cudaMemset: a null pointer");
  if (!bytes) return cudaSuccess;
  const std::lock_guard lock(detail::lock);
  auto* buffer = holding(pointer, bytes);
  if (!buffer)
    return invalid("cudaMemset: " + std::to_string(bytes) + " bytes that are not inside one live cudaMalloc buffer");
  std::memset(pointer, value, bytes);
  std::memset(buffer->second.writers.get() + (reinterpret_cast<std::uintptr_t>(pointer) - buffer->first),
              detail::kMemset, bytes);
  return cudaSuccess;
}
