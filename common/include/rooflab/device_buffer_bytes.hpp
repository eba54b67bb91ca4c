// The device memory the course's DeviceBuffer (rooflab/cuda_helpers.hpp)
// holds: now, and the most at once since reset_device_buffer_peak(). It is a
// launcher's device memory, counted the same on a GPU and in the CPU runtime
// (the docs quote it for the reference's launchers). A header of its own so
// that plain C++ can read the count without the CUDA runtime's declarations.
#pragma once

#include <atomic>
#include <cstddef>

namespace rooflab::cuda {

namespace detail {
inline std::atomic<std::size_t> buffer_bytes{0};
inline std::atomic<std::size_t> buffer_peak{0};
inline void count_buffer(std::size_t bytes) {
  const std::size_t now = buffer_bytes += bytes;
  std::size_t peak = buffer_peak;
  while (now > peak && !buffer_peak.compare_exchange_weak(peak, now)) {
  }
}
}  // namespace detail
inline std::size_t device_buffer_bytes() { return detail::buffer_bytes; }
inline std::size_t device_buffer_peak() { return detail::buffer_peak; }
inline void reset_device_buffer_peak() { detail::buffer_peak = detail::buffer_bytes.load(); }

}  // namespace rooflab::cuda
