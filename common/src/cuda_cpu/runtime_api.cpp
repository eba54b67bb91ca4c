// The CUDA runtime API on the CPU: "device" memory is host memory, every call
// is synchronous, and errors are kept for cudaGetLastError as on a GPU.
#include <atomic>
#include <chrono>
#include <cstdlib>
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
std::map<void*, std::size_t> buffers;

cudaError_t last_error = cudaSuccess;
std::string last_message;

cudaError_t invalid(const std::string& message) {
  detail::record_error(cudaErrorInvalidValue, message);
  return cudaErrorInvalidValue;
}

}  // namespace

namespace detail {

void record_error(cudaError_t error, const std::string& message) {
  const std::lock_guard lock(state_lock);
  last_error = error;
  last_message = message;
}

std::map<void*, std::size_t> allocations() {
  const std::lock_guard lock(state_lock);
  return buffers;
}

}  // namespace detail

std::string last_error_message() {
  const std::lock_guard lock(state_lock);
  return last_message;
}

namespace {
// Set while compare_orders runs its launches: each of them then runs once.
thread_local bool comparing_orders = false;

bool race_check_from_environment() {
  const char* setting = std::getenv("ROOFLAB_CUDA_CPU_RACE_CHECK");
  return !(setting && std::string(setting) == "0");
}
std::atomic<bool> race_check_on{race_check_from_environment()};
}  // namespace

void set_race_check(bool on) { race_check_on = on; }

bool race_check() { return race_check_on && !comparing_orders; }

std::string compare_orders(const std::function<void()>& launches, std::uint64_t seed) {
  struct Comparing {
    bool outer = comparing_orders;
    Comparing() { comparing_orders = true; }
    ~Comparing() { comparing_orders = outer; }
  } comparing;
  const auto live = detail::allocations();
  std::map<void*, std::vector<unsigned char>> before;
  for (const auto& [pointer, bytes] : live) {
    const auto* data = static_cast<const unsigned char*>(pointer);
    before[pointer].assign(data, data + bytes);
  }
  const auto restore = [&] {
    for (const auto& [pointer, bytes] : before) std::memcpy(pointer, bytes.data(), bytes.size());
  };
  const Order previous = current_order();
  std::map<void*, std::vector<unsigned char>> forward;
  std::string difference;
  for (const Order order : {Order::forward, Order::reverse, Order::shuffled}) {
    restore();
    set_order(order, seed);
    try {
      launches();
    } catch (...) {
      set_order(previous, seed);
      throw;
    }
    for (const auto& [pointer, bytes] : live) {
      const auto* data = static_cast<const unsigned char*>(pointer);
      if (order == Order::forward) {
        forward[pointer].assign(data, data + bytes);
      } else if (difference.empty() && std::memcmp(forward[pointer].data(), data, bytes) != 0) {
        std::size_t at = 0;
        while (forward[pointer][at] == data[at]) ++at;
        difference = std::string("threads run in ") + (order == Order::reverse ? "reverse" : "shuffled") +
                     " order left a different result than in forward order (a " + std::to_string(bytes) +
                     "-byte buffer differs from byte " + std::to_string(at) +
                     "): the kernel reads shared or global memory another thread writes without a barrier between";
      }
    }
  }
  set_order(previous, seed);
  for (const auto& [pointer, bytes] : forward) std::memcpy(pointer, bytes.data(), bytes.size());
  return difference;
}

}  // namespace rooflab::cuda_cpu

using rooflab::cuda_cpu::invalid;

cudaError_t cudaMalloc(void** pointer, std::size_t bytes) {
  if (!pointer) return invalid("cudaMalloc: the pointer to set is null");
  *pointer = std::calloc(bytes ? bytes : 1, 1);
  if (!*pointer) {
    rooflab::cuda_cpu::detail::record_error(cudaErrorMemoryAllocation,
                                            "cudaMalloc: out of memory for " + std::to_string(bytes) + " bytes");
    return cudaErrorMemoryAllocation;
  }
  const std::lock_guard lock(rooflab::cuda_cpu::state_lock);
  rooflab::cuda_cpu::buffers[*pointer] = bytes;
  return cudaSuccess;
}

cudaError_t cudaFree(void* pointer) {
  if (!pointer) return cudaSuccess;
  bool known = false;
  {
    const std::lock_guard lock(rooflab::cuda_cpu::state_lock);
    known = rooflab::cuda_cpu::buffers.erase(pointer) == 1;
  }
  if (!known) return invalid("cudaFree: the pointer did not come from cudaMalloc");
  std::free(pointer);
  return cudaSuccess;
}

cudaError_t cudaMemcpy(void* to, const void* from, std::size_t bytes, cudaMemcpyKind) {
  if (bytes && (!to || !from)) return invalid("cudaMemcpy: a null pointer");
  if (bytes) std::memmove(to, from, bytes);
  return cudaSuccess;
}

cudaError_t cudaMemset(void* pointer, int value, std::size_t bytes) {
  if (bytes && !pointer) return invalid("cudaMemset: a null pointer");
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
