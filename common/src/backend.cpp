#include "rooflab/backend.hpp"

namespace rooflab {

const char* to_string(Backend backend) {
  switch (backend) {
    case Backend::cpu:
      return "cpu";
    case Backend::thrust:
      return "thrust";
    case Backend::cuda:
      return "cuda";
  }
  return "unknown";
}

std::vector<Backend> compiled_backends() {
  std::vector<Backend> backends{Backend::cpu, Backend::thrust};
  if (cuda_compiled()) backends.push_back(Backend::cuda);
  return backends;
}

std::string unavailable_reason(Backend backend) {
  if (backend != Backend::cuda) return {};
  if (!cuda_compiled()) return "CUDA backend not compiled (no nvcc at configure time)";
  if (gpu_count() == 0) return "no CUDA GPU on this machine";
  return {};
}

}  // namespace rooflab
