// a01_roofline, part 2: arithmetic intensity and the roofline.
#include "a01_roofline/roofline.hpp"

#include <algorithm>

#include "rooflab/not_implemented.hpp"
#include "rooflab/validate.hpp"  // keep: rooflab::require_positive

namespace a01_roofline {

double arithmetic_intensity(double flops, double bytes) {
  // BEGIN SOLUTION
  rooflab::require_positive(flops, "flops");
  rooflab::require_positive(bytes, "bytes");
  return flops / bytes;
  // END SOLUTION
}

double ridge_point(double peak_flops_per_s, double bandwidth_bytes_per_s) {
  // BEGIN SOLUTION
  rooflab::require_positive(peak_flops_per_s, "peak_flops_per_s");
  rooflab::require_positive(bandwidth_bytes_per_s, "bandwidth_bytes_per_s");
  // The intensity at which bandwidth × intensity first reaches the compute peak.
  return peak_flops_per_s / bandwidth_bytes_per_s;
  // END SOLUTION
}

bool is_memory_bound(double intensity, double peak_flops_per_s, double bandwidth_bytes_per_s) {
  // BEGIN SOLUTION
  rooflab::require_positive(intensity, "intensity");
  return intensity < ridge_point(peak_flops_per_s, bandwidth_bytes_per_s);
  // END SOLUTION
}

double attainable_flops_per_s(double intensity, double peak_flops_per_s, double bandwidth_bytes_per_s) {
  // BEGIN SOLUTION
  rooflab::require_positive(intensity, "intensity");
  rooflab::require_positive(peak_flops_per_s, "peak_flops_per_s");
  rooflab::require_positive(bandwidth_bytes_per_s, "bandwidth_bytes_per_s");
  // The roof: a slanted memory line that meets a flat compute ceiling at the ridge.
  return std::min(peak_flops_per_s, bandwidth_bytes_per_s * intensity);
  // END SOLUTION
}

double matmul_arithmetic_intensity(double m, double k, double n, double bytes_per_element) {
  // BEGIN SOLUTION
  rooflab::require_positive(m, "m");
  rooflab::require_positive(k, "k");
  rooflab::require_positive(n, "n");
  rooflab::require_positive(bytes_per_element, "bytes_per_element");
  const double flops = 2.0 * m * k * n;                              // one multiply-add per (i, j, l)
  const double bytes = bytes_per_element * (m * k + k * n + m * n);  // read A, read B, write C
  return flops / bytes;
  // END SOLUTION
}

}  // namespace a01_roofline
