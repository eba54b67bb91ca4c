// Device memory on the CPU, as the runtime API hands it out and a GPU tool
// sees it (runtime_api.cpp calls this; the memory checker reads it). Internal.
//
//   - Each cudaMalloc buffer is a mapping of its own between two stretches
//     of reserved, unmapped address space (its guards): an index that runs
//     past one buffer's end lands in that buffer's guard, never in the next
//     buffer, and the error names the buffer the index belongs to.
//   - Its bytes start as a pattern drawn per allocation, never zeros, as a
//     GPU's memory holds whatever was there before.
//   - Each byte carries who last wrote it (a WriterTag): nobody since
//     cudaMalloc (compute-sanitizer's initcheck calls reading it an
//     uninitialized access), a copy from the host, cudaMemset, or a kernel by
//     name. Tests read these to ask whether a result was a kernel's work.
//   - __device__ and __constant__ variables are known by the address the
//     build registered for each (cmake/cuda_cpu_rewrite.cmake), not by
//     "any static memory": a host global handed to a kernel is host memory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "rooflab/cuda_cpu.hpp"

namespace rooflab::cuda_cpu::detail {

// Who last wrote a byte of device memory.
using WriterTag = std::uint8_t;
inline constexpr WriterTag kNeverWritten = 0, kHostCopy = 1, kMemset = 2, kFirstKernelTag = 3, kAnotherKernel = 255;
// The tag of the writes of kernel `name`: one per name (the 253rd name and
// every later one share kAnotherKernel).
WriterTag kernel_writer_tag(const char* name);
// "flash_forward", "cudaMemcpy from the host", "cudaMemset", "never written".
std::string writer_name(WriterTag tag);

// One device buffer: [begin, begin + bytes), its guards either side, and the
// writer of each of its bytes.
struct BufferRange {
  std::uintptr_t begin = 0;
  std::size_t bytes = 0;     // what cudaMalloc was asked for
  std::size_t reserved = 0;  // mapped: bytes rounded up to whole pages
  std::size_t guard = 0;     // unmapped address space below begin and past begin + reserved
  WriterTag* writers = nullptr;
};

// Every live cudaMalloc buffer, sorted by address.
std::vector<BufferRange> live_buffers();
// The buffers cudaFree took back most recently (the newest last).
std::vector<BufferRange> freed_buffers();

// A __device__ or __constant__ variable: [begin, begin + bytes).
struct DeviceVariable {
  std::uintptr_t begin = 0;
  std::size_t bytes = 0;
  const char* name = "";
};
// Every registered one, sorted by address.
std::vector<DeviceVariable> device_variables();

}  // namespace rooflab::cuda_cpu::detail
