// Helpers for the CPU CUDA runtime's tests: device copies of host vectors,
// and the message of the KernelError a launch throws.
#pragma once

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "rooflab/cuda_cpu.hpp"

namespace rooflab::cuda_cpu::testing {

template <class T>
T* device_copy(const std::vector<T>& host) {
  T* device = nullptr;
  EXPECT_EQ(cudaMalloc(&device, host.size() * sizeof(T)), cudaSuccess);
  EXPECT_EQ(cudaMemcpy(device, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice), cudaSuccess);
  return device;
}

template <class T>
std::vector<T> host_copy(const T* device, std::size_t count) {
  std::vector<T> host(count);
  EXPECT_EQ(cudaMemcpy(host.data(), device, count * sizeof(T), cudaMemcpyDeviceToHost), cudaSuccess);
  return host;
}

// What `launches` threw as a KernelError, or "" when it threw nothing.
inline std::string kernel_error(const std::function<void()>& launches) {
  try {
    launches();
  } catch (const KernelError& error) {
    cudaGetLastError();
    return error.what();
  }
  return "";
}

}  // namespace rooflab::cuda_cpu::testing
