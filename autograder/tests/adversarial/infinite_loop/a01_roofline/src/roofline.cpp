// Adversarial submission "infinite_loop": never returns
#include "a01_roofline/roofline.hpp"

namespace a01_roofline {
namespace {
double attack() {
  volatile bool forever = true;
  while (forever) {
  }
  return 0;
}
}  // namespace

// Only one function attacks: every test that calls it waits out its time limit.
double arithmetic_intensity(double, double) { return 0; }
double ridge_point(double, double) { return 0; }
bool is_memory_bound(double, double, double) { return false; }
double attainable_flops_per_s(double, double, double) { return 0; }
double matmul_arithmetic_intensity(double, double, double, double) { return attack(); }

}  // namespace a01_roofline
