// The CUDA runtime API on the CPU: "device" memory is host memory that the
// runtime keeps a list of (kernels may touch nothing else), every call is
// synchronous, and errors are kept for cudaGetLastError as on a GPU.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <deque>
#include <map>
#include <mutex>
#include <vector>

#include "rooflab/cuda_cpu.hpp"
#include "runtime_state.hpp"

struct CUevent_cpu {
  std::chrono::steady_clock::time_point at;
};

namespace rooflab::cuda_cpu {
namespace {

std::mutex state_lock;
std::map<std::uintptr_t, std::size_t> buffers;  // begin -> bytes
// Freed buffers stay allocated a while (a quarantine, as AddressSanitizer
// keeps one), so that a kernel reading one is told "use after free", never
// reads memory the host has reused. The most recent last.
std::deque<detail::BufferRange> freed;
std::size_t freed_bytes = 0;
constexpr std::size_t kQuarantineBuffers = 256, kQuarantineBytes = 32 << 20;

cudaError_t last_error = cudaSuccess;
std::string last_message;

cudaError_t invalid(const std::string& message) {
  detail::record_error(cudaErrorInvalidValue, message);
  return cudaErrorInvalidValue;
}

// Whether [pointer, pointer + bytes) lies in one live device buffer.
bool on_device(const void* pointer, std::size_t bytes) {
  const auto address = reinterpret_cast<std::uintptr_t>(pointer);
  const std::lock_guard lock(state_lock);
  auto after = buffers.upper_bound(address);
  if (after == buffers.begin()) return false;
  --after;
  return address - after->first <= after->second && bytes <= after->second - (address - after->first);
}

}  // namespace

namespace detail {

void record_error(cudaError_t error, const std::string& message) {
  const std::lock_guard lock(state_lock);
  last_error = error;
  last_message = message;
}

std::vector<BufferRange> live_buffers() {
  const std::lock_guard lock(state_lock);
  std::vector<BufferRange> live;
  for (const auto& [begin, bytes] : buffers) live.push_back({begin, bytes});
  return live;
}

std::vector<BufferRange> freed_buffers() {
  const std::lock_guard lock(state_lock);
  return {freed.begin(), freed.end()};
}

}  // namespace detail

std::string last_error_message() {
  const std::lock_guard lock(state_lock);
  return last_message;
}

}  // namespace rooflab::cuda_cpu

using rooflab::cuda_cpu::invalid;

cudaError_t cudaMalloc(void** pointer, std::size_t bytes) {
  if (!pointer) return invalid("cudaMalloc: the pointer to set is null");
  // 256-byte aligned, as cudaMalloc's: the sector counts assume it.
  const std::size_t rounded = (std::max<std::size_t>(bytes, 1) + 255) / 256 * 256;
  *pointer = std::aligned_alloc(256, rounded);
  if (*pointer) std::memset(*pointer, 0, rounded);
  if (!*pointer) {
    rooflab::cuda_cpu::detail::record_error(cudaErrorMemoryAllocation,
                                            "cudaMalloc: out of memory for " + std::to_string(bytes) + " bytes");
    return cudaErrorMemoryAllocation;
  }
  const std::lock_guard lock(rooflab::cuda_cpu::state_lock);
  rooflab::cuda_cpu::buffers[reinterpret_cast<std::uintptr_t>(*pointer)] = bytes;
  return cudaSuccess;
}

cudaError_t cudaFree(void* pointer) {
  if (!pointer) return cudaSuccess;
  {
    const std::lock_guard lock(rooflab::cuda_cpu::state_lock);
    const auto found = rooflab::cuda_cpu::buffers.find(reinterpret_cast<std::uintptr_t>(pointer));
    if (found == rooflab::cuda_cpu::buffers.end()) {
      rooflab::cuda_cpu::last_error = cudaErrorInvalidValue;
      rooflab::cuda_cpu::last_message = "cudaFree: the pointer did not come from cudaMalloc, or was freed already";
      return cudaErrorInvalidValue;
    }
    namespace state = rooflab::cuda_cpu;
    state::freed.push_back({found->first, found->second});
    state::freed_bytes += found->second;
    while (state::freed.size() > state::kQuarantineBuffers || state::freed_bytes > state::kQuarantineBytes) {
      std::free(reinterpret_cast<void*>(state::freed.front().begin));
      state::freed_bytes -= state::freed.front().bytes;
      state::freed.pop_front();
    }
    rooflab::cuda_cpu::buffers.erase(found);
  }
  return cudaSuccess;
}

cudaError_t cudaMemcpy(void* to, const void* from, std::size_t bytes, cudaMemcpyKind kind) {
  using rooflab::cuda_cpu::on_device;
  if (bytes && (!to || !from)) return invalid("cudaMemcpy: a null pointer");
  // What a GPU checks: the device side of the copy is a live cudaMalloc buffer, large enough.
  const bool to_device = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
  const bool from_device = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
  if (bytes && to_device && !on_device(to, bytes))
    return invalid("cudaMemcpy: the destination of " + std::to_string(bytes) +
                   " bytes is not inside one live cudaMalloc buffer (cudaMemcpy" +
                   (kind == cudaMemcpyHostToDevice ? "HostToDevice" : "DeviceToDevice") + ")");
  if (bytes && from_device && !on_device(from, bytes))
    return invalid("cudaMemcpy: the source of " + std::to_string(bytes) +
                   " bytes is not inside one live cudaMalloc buffer (cudaMemcpy" +
                   (kind == cudaMemcpyDeviceToHost ? "DeviceToHost" : "DeviceToDevice") + ")");
  if (bytes) std::memmove(to, from, bytes);
  return cudaSuccess;
}

cudaError_t cudaMemset(void* pointer, int value, std::size_t bytes) {
  if (bytes && !pointer) return invalid("cudaMemset: a null pointer");
  if (bytes && !rooflab::cuda_cpu::on_device(pointer, bytes))
    return invalid("cudaMemset: " + std::to_string(bytes) + " bytes that are not inside one live cudaMalloc buffer");
  if (bytes) std::memset(pointer, value, bytes);
  return cudaSuccess;
}

cudaError_t cudaDeviceSynchronize() { return cudaSuccess; }

cudaError_t cudaPeekAtLastError() {
  const std::lock_guard lock(rooflab::cuda_cpu::state_lock);
  return rooflab::cuda_cpu::last_error;
}

cudaError_t cudaGetLastError() {
  const std::lock_guard lock(rooflab::cuda_cpu::state_lock);
  const cudaError_t error = rooflab::cuda_cpu::last_error;
  rooflab::cuda_cpu::last_error = cudaSuccess;
  return error;
}

const char* cudaGetErrorString(cudaError_t error) {
  switch (error) {
    case cudaSuccess:
      return "no error";
    case cudaErrorInvalidValue:
      return "invalid argument";
    case cudaErrorMemoryAllocation:
      return "out of memory";
    case cudaErrorLaunchFailure:
      return "unspecified launch failure";
  }
  return "unknown error";
}

cudaError_t cudaEventCreate(cudaEvent_t* event) {
  if (!event) return invalid("cudaEventCreate: the event to set is null");
  *event = new CUevent_cpu{};
  return cudaSuccess;
}

cudaError_t cudaEventRecord(cudaEvent_t event, int) {
  if (!event) return invalid("cudaEventRecord: a null event");
  event->at = std::chrono::steady_clock::now();
  return cudaSuccess;
}

cudaError_t cudaEventSynchronize(cudaEvent_t event) { return event ? cudaSuccess : invalid("a null event"); }

cudaError_t cudaEventElapsedTime(float* milliseconds, cudaEvent_t start, cudaEvent_t end) {
  if (!milliseconds || !start || !end) return invalid("cudaEventElapsedTime: a null argument");
  *milliseconds = std::chrono::duration<float, std::milli>(end->at - start->at).count();
  return cudaSuccess;
}

cudaError_t cudaEventDestroy(cudaEvent_t event) {
  delete event;
  return cudaSuccess;
}
