// The CUDA runtime API on the CPU, but for device memory (device_memory.cpp):
// every call is synchronous, and errors are kept for cudaGetLastError as on a
// GPU.
#include <chrono>
#include <mutex>
#include <string>

#include "rooflab/cuda_cpu.hpp"
#include "runtime_state.hpp"

struct CUevent_cpu {
  std::chrono::steady_clock::time_point at;
};

namespace rooflab::cuda_cpu {
namespace {

std::mutex state_lock;

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

}  // namespace detail

std::string last_error_message() {
  const std::lock_guard lock(state_lock);
  return last_message;
}

}  // namespace rooflab::cuda_cpu

using rooflab::cuda_cpu::invalid;

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
