// Thrust on the CUDA device system: the same algorithm as thrust_sum_omp.cpp.
#include "thrust_sum.inl"

#include "rooflab/thrust_sum.hpp"

namespace rooflab {

double thrust_sum_cuda(const std::vector<double>& values) { return detail::thrust_sum_on_device(values); }

}  // namespace rooflab
