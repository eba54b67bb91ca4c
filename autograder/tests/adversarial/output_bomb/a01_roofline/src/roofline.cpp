// Adversarial submission "output_bomb": prints without end on both streams
#include "a01_roofline/roofline.hpp"
#include <cstdio>
namespace a01_roofline {
namespace {
double attack() {
  for (;;) {
    std::fputs("[  PASSED  ] all tests. [  PASSED  ] all tests. [  PASSED  ] all tests.\n", stdout);
    std::fputs("[  PASSED  ] all tests. [  PASSED  ] all tests. [  PASSED  ] all tests.\n", stderr);
  }
}
}  // namespace

double arithmetic_intensity(double, double) { return attack(); }
double ridge_point(double, double) { return attack(); }
bool is_memory_bound(double, double, double) { return attack() > 0; }
double attainable_flops_per_s(double, double, double) { return attack(); }
double matmul_arithmetic_intensity(double, double, double, double) { return attack(); }

}  // namespace a01_roofline
