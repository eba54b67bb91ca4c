// Linked only into builds without CUDA (see common/CMakeLists.txt).
#include <stdexcept>

#include "rooflab/backend.hpp"
#include "rooflab/thrust_sum.hpp"

namespace rooflab {

bool cuda_compiled() { return false; }

int gpu_count() { return 0; }

double thrust_sum_cuda(const std::vector<double>& /*values*/) {
  throw std::runtime_error("thrust_sum_cuda: the CUDA backend is not compiled into this build");
}

}  // namespace rooflab
