// a01_roofline, part 2: arithmetic intensity and the roofline.
#include "a01_roofline/roofline.hpp"

#include "rooflab/not_implemented.hpp"
#include "rooflab/validate.hpp"  // keep: rooflab::require_positive

namespace a01_roofline {

double arithmetic_intensity(double flops, double bytes) {
  // YOUR CODE HERE
  rooflab::todo("a01_roofline::arithmetic_intensity", flops, bytes);
}

double ridge_point(double peak_flops_per_s, double bandwidth_bytes_per_s) {
  // YOUR CODE HERE
  rooflab::todo("a01_roofline::ridge_point", peak_flops_per_s, bandwidth_bytes_per_s);
}

bool is_memory_bound(double intensity, double peak_flops_per_s, double bandwidth_bytes_per_s) {
  // YOUR CODE HERE
  rooflab::todo("a01_roofline::is_memory_bound", intensity, peak_flops_per_s, bandwidth_bytes_per_s);
}

double attainable_flops_per_s(double intensity, double peak_flops_per_s, double bandwidth_bytes_per_s) {
  // YOUR CODE HERE
  rooflab::todo("a01_roofline::attainable_flops_per_s", intensity, peak_flops_per_s, bandwidth_bytes_per_s);
}

double matmul_arithmetic_intensity(double m, double k, double n, double bytes_per_element) {
  // YOUR CODE HERE
  rooflab::todo("a01_roofline::matmul_arithmetic_intensity", m, k, n, bytes_per_element);
}

}  // namespace a01_roofline
