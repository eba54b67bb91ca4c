// A tiny Thrust computation that proves the Thrust wiring on every backend:
// the same source runs on the CPU (OpenMP device system) and, where CUDA is
// compiled in, on the GPU.
#pragma once

#include <vector>

#include "rooflab/backend.hpp"

namespace rooflab {

// Sum of `values` computed by thrust::reduce on `backend` (thrust or cuda).
// Throws std::invalid_argument for Backend::cpu and std::runtime_error when the
// backend cannot run here (see unavailable_reason()).
double thrust_sum(const std::vector<double>& values, Backend backend);

// One implementation per device system; each lives in its own object file.
double thrust_sum_omp(const std::vector<double>& values);
double thrust_sum_cuda(const std::vector<double>& values);

}  // namespace rooflab
