// Linked only into builds with CUDA (see common/CMakeLists.txt): answers the
// backend queries by asking the CUDA runtime.
#include <cuda_runtime.h>

#include "rooflab/backend.hpp"

namespace rooflab {

bool cuda_compiled() { return true; }

int gpu_count() {
  int count = 0;
  // No driver or no device is not an error for the course: it means "no GPU".
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    (void)cudaGetLastError();  // clear the sticky error state
    return 0;
  }
  return count;
}

}  // namespace rooflab
