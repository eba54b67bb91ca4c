// The CUDA runtime API on the CPU, but for device memory (device_memory.cpp):
// every call is synchronous, and errors are kept for cudaGetLastError as on a
// GPU.
#include <mutex>
#include <string>

#include "rooflab/cuda_cpu.hpp"
#include "runtime_state.hpp"

struct CUevent_cpu {
  bool recorded = false;
};
struct CUstream_cpu {};

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
    case cudaErrorNotSupported:
      return "operation not supported";
  }
  return "unknown error";
}

// Streams: every call is synchronous, so a stream only has to exist.
cudaError_t cudaStreamCreate(cudaStream_t* stream) { return cudaStreamCreateWithFlags(stream, cudaStreamDefault); }

cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned flags) {
  if (!stream) return invalid("cudaStreamCreate: the stream to set is null");
  if (flags > cudaStreamNonBlocking) return invalid("cudaStreamCreateWithFlags: unknown flags");
  *stream = new CUstream_cpu{};
  return cudaSuccess;
}

cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  if (!stream) return invalid("cudaStreamDestroy: a null stream (the default stream is not destroyed)");
  delete stream;
  return cudaSuccess;
}

cudaError_t cudaStreamSynchronize(cudaStream_t) { return cudaSuccess; }

cudaError_t cudaStreamWaitEvent(cudaStream_t, cudaEvent_t event, unsigned) {
  return event ? cudaSuccess : invalid("cudaStreamWaitEvent: a null event");
}

cudaError_t cudaMemcpyAsync(void* to, const void* from, std::size_t bytes, cudaMemcpyKind kind, cudaStream_t) {
  return cudaMemcpy(to, from, bytes, kind);
}

cudaError_t cudaMemsetAsync(void* pointer, int value, std::size_t bytes, cudaStream_t) {
  return cudaMemset(pointer, value, bytes);
}

cudaError_t cudaEventCreate(cudaEvent_t* event) { return cudaEventCreateWithFlags(event, cudaEventDefault); }

cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned) {
  if (!event) return invalid("cudaEventCreate: the event to set is null");
  *event = new CUevent_cpu{};
  return cudaSuccess;
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t) {
  if (!event) return invalid("cudaEventRecord: a null event");
  event->recorded = true;
  return cudaSuccess;
}

cudaError_t cudaEventSynchronize(cudaEvent_t event) { return event ? cudaSuccess : invalid("a null event"); }

// No made-up time: the kernels ran on the CPU, under the checker, and how
// long that took says nothing of a GPU.
cudaError_t cudaEventElapsedTime(float* milliseconds, cudaEvent_t start, cudaEvent_t end) {
  if (!milliseconds || !start || !end) return invalid("cudaEventElapsedTime: a null argument");
  if (!start->recorded || !end->recorded) return invalid("cudaEventElapsedTime: an event that was never recorded");
  rooflab::cuda_cpu::detail::record_error(
      cudaErrorNotSupported,
      "cudaEventElapsedTime: the CPU runtime times nothing (its kernels run on the CPU, checked, and their time "
      "says nothing of a GPU's); time kernels on a GPU");
  return cudaErrorNotSupported;
}

cudaError_t cudaEventDestroy(cudaEvent_t event) {
  delete event;
  return cudaSuccess;
}
