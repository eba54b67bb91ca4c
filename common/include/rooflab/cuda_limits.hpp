// What one CUDA block may use, without opting in to more: the limits the CPU
// runtime enforces (rooflab/cuda_cpu.hpp) and the helpers check before a
// launch (rooflab/cuda_helpers.hpp). C++17, so that nvcc reads it too.
#pragma once

#include <cstddef>

namespace rooflab::cuda {

inline constexpr unsigned kWarpSize = 32;
inline constexpr unsigned kMaxThreadsPerBlock = 1024;
inline constexpr std::size_t kSharedMemoryPerBlock = 48 * 1024;  // without cudaFuncSetAttribute
// The most a block may use after cudaFuncSetAttribute(kernel,
// cudaFuncAttributeMaxDynamicSharedMemorySize, bytes) on the GPU the CPU
// runtime models, an H100 (sm_90): 227 KiB.
inline constexpr std::size_t kSharedMemoryPerBlockOptIn = 227 * 1024;
inline constexpr const char* kModelledGpu = "H100";
inline constexpr unsigned kModelledGpuMultiprocessors = 132;  // the H100 SXM's SMs

}  // namespace rooflab::cuda
