// What the CPU CUDA runtime keeps between calls: the last error, and the
// device buffers cudaMalloc handed out and cudaFree took back (the memory
// checker classifies addresses by them).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "rooflab/cuda_cpu.hpp"

namespace rooflab::cuda_cpu::detail {

void record_error(cudaError_t error, const std::string& message);

// One device buffer: [begin, begin + bytes).
struct BufferRange {
  std::uintptr_t begin = 0;
  std::size_t bytes = 0;
};
// Every live cudaMalloc buffer, sorted by address.
std::vector<BufferRange> live_buffers();
// The buffers cudaFree took back most recently (the newest last).
std::vector<BufferRange> freed_buffers();

}  // namespace rooflab::cuda_cpu::detail
