// The algorithm behind rooflab::thrust_sum, written once against Thrust.
// Included by one translation unit per device system; THRUST_DEVICE_SYSTEM
// (set by the build target) decides where device_vector lives.
#include <thrust/device_vector.h>
#include <thrust/reduce.h>

#include <vector>

namespace rooflab::detail {

inline double thrust_sum_on_device(const std::vector<double>& values) {
  const thrust::device_vector<double> on_device(values.begin(), values.end());
  return thrust::reduce(on_device.begin(), on_device.end(), 0.0);
}

}  // namespace rooflab::detail
