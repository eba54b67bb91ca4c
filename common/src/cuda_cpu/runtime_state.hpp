// What the CPU CUDA runtime keeps between calls besides device memory
// (device_memory.hpp): the last error, for cudaGetLastError. Internal.
#pragma once

#include <string>

#include "rooflab/cuda_cpu.hpp"

namespace rooflab::cuda_cpu::detail {

void record_error(cudaError_t error, const std::string& message);

}  // namespace rooflab::cuda_cpu::detail
