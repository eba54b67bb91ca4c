// Helpers for the course's .cu files, the same under nvcc (whose
// cuda_runtime.h every .cu file sees) and in the CPU runtime (whose
// rooflab/cuda_cpu.hpp the build puts first in the CPU twin of a .cu file):
// this header uses only the runtime API both declare.
//
//   ROOFLAB_CUDA_CHECK(cudaMemcpy(...));          throws, naming file:line and the call
//   rooflab::cuda::DeviceBuffer<float> q(values); cudaMalloc + copy in; freed on scope exit
//   kernel<<<rooflab::cuda::ceil_div(n, 128), 128>>>(...);
//   rooflab::cuda::require_shared_memory(bytes, "block_rows");
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "rooflab/cuda_limits.hpp"
#include "rooflab/device_buffer_bytes.hpp"

namespace rooflab::cuda {

// Throws std::runtime_error("file:line: call failed: reason"): a failed CUDA
// call becomes a failed test, never an exit() that takes the grader's worker.
inline void check(cudaError_t error, const char* call, const char* file, int line) {
  if (error == cudaSuccess) return;
  throw std::runtime_error(std::string(file) + ":" + std::to_string(line) + ": " + call +
                           " failed: " + cudaGetErrorString(error));
}

// The number of blocks of `size` that cover `count` items.
template <class T>
constexpr T ceil_div(T count, T size) {
  return (count + size - 1) / size;
}

// Throws std::invalid_argument naming `option` (the setting that decides the
// size, e.g. "block_rows") when a launch would need more shared memory than a
// block may have: a clear message instead of a failed launch.
inline void require_shared_memory(std::size_t bytes, const char* option) {
  if (bytes <= kSharedMemoryPerBlock) return;
  throw std::invalid_argument(std::string(option) + ": the kernel would need " + std::to_string(bytes) +
                              " bytes of shared memory per block, more than the " +
                              std::to_string(kSharedMemoryPerBlock) + " a block may use");
}

// Device memory for `count` values of T, freed when it goes out of scope.
template <class T>
class DeviceBuffer {
 public:
  explicit DeviceBuffer(std::size_t count) : count_(count) {
    check(cudaMalloc(reinterpret_cast<void**>(&data_), bytes()), "cudaMalloc", __FILE__, __LINE__);
    detail::count_buffer(bytes());
  }
  explicit DeviceBuffer(const std::vector<T>& host) : DeviceBuffer(host.size()) {
    check(cudaMemcpy(data_, host.data(), bytes(), cudaMemcpyHostToDevice), "cudaMemcpy", __FILE__, __LINE__);
  }
  ~DeviceBuffer() {
    cudaFree(data_);
    detail::buffer_bytes -= bytes();
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  T* get() const { return data_; }
  std::size_t size() const { return count_; }
  std::size_t bytes() const { return count_ * sizeof(T); }

  std::vector<T> to_host() const {
    std::vector<T> host(count_);
    check(cudaMemcpy(host.data(), data_, bytes(), cudaMemcpyDeviceToHost), "cudaMemcpy", __FILE__, __LINE__);
    return host;
  }

 private:
  T* data_ = nullptr;
  std::size_t count_ = 0;
};

}  // namespace rooflab::cuda

#define ROOFLAB_CUDA_CHECK(call) ::rooflab::cuda::check((call), #call, __FILE__, __LINE__)
