// Thrust on the OpenMP device system: builds with the host compiler, no CUDA.
#include "thrust_sum.inl"

#include "rooflab/thrust_sum.hpp"

namespace rooflab {

double thrust_sum_omp(const std::vector<double>& values) { return detail::thrust_sum_on_device(values); }

}  // namespace rooflab
