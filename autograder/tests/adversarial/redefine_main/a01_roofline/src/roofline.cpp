// Adversarial submission "redefine_main": defines main(), replacing the worker loop with one that claims success
#include "a01_roofline/roofline.hpp"
#include <cstdio>
namespace a01_roofline {
namespace {
double attack() { return 0; }
}  // namespace
}  // namespace a01_roofline
int main() {
  std::puts("[  PASSED  ] 53 tests.");
  return 0;
}
namespace a01_roofline {
namespace {}  // namespace

double arithmetic_intensity(double, double) { return attack(); }
double ridge_point(double, double) { return attack(); }
bool is_memory_bound(double, double, double) { return attack() > 0; }
double attainable_flops_per_s(double, double, double) { return attack(); }
double matmul_arithmetic_intensity(double, double, double, double) { return attack(); }

}  // namespace a01_roofline
