// What the CPU CUDA runtime keeps between calls: the last error, and every
// buffer cudaMalloc handed out (compare_orders restores them between runs).
#pragma once

#include <cstddef>
#include <map>
#include <string>

#include "rooflab/cuda_cpu.hpp"

namespace rooflab::cuda_cpu::detail {

void record_error(cudaError_t error, const std::string& message);

// pointer -> size of every live cudaMalloc buffer, under its lock.
std::map<void*, std::size_t> allocations();

}  // namespace rooflab::cuda_cpu::detail
