#include "rooflab/thrust_sum.hpp"

#include <stdexcept>
#include <string>

namespace rooflab {

double thrust_sum(const std::vector<double>& values, Backend backend) {
  if (backend == Backend::cpu) throw std::invalid_argument("thrust_sum: backend must be thrust or cuda");
  if (const std::string why = unavailable_reason(backend); !why.empty()) throw std::runtime_error(why);
  return backend == Backend::cuda ? thrust_sum_cuda(values) : thrust_sum_omp(values);
}

}  // namespace rooflab
