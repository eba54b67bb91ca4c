// What the runtime keeps for tests to read, besides each launch's check:
// the launches themselves (LaunchRecord, with their counters and what they
// read), and the words the host copied back from device memory, by who wrote
// them. Internal; rooflab/cuda_cpu.hpp's take_* functions read them.
#pragma once

#include <cstddef>

#include "device_memory.hpp"
#include "rooflab/cuda_cpu.hpp"

namespace rooflab::cuda_cpu::detail {

void record_launch(LaunchRecord record);

// A cudaMemcpy to the host of `bytes` bytes from `source`, whose bytes were
// last written by `writers[i]`: each 4-byte word whose four bytes share a
// writer is kept under that writer.
void record_device_to_host(const unsigned char* source, const WriterTag* writers, std::size_t bytes);

// At most this many words are kept per report (the oldest go first): a
// test's result is the latest thing copied back.
inline constexpr std::size_t kMaxDeviceToHostWords = std::size_t{1} << 22;

}  // namespace rooflab::cuda_cpu::detail
