// Adversarial submission "quick_exit_in_test": ends the process with std::quick_exit
#include "a01_roofline/roofline.hpp"
#include <cstdlib>
namespace a01_roofline {
namespace {
double attack() { std::quick_exit(0); }
}  // namespace

double arithmetic_intensity(double, double) { return attack(); }
double ridge_point(double, double) { return attack(); }
bool is_memory_bound(double, double, double) { return attack() > 0; }
double attainable_flops_per_s(double, double, double) { return attack(); }
double matmul_arithmetic_intensity(double, double, double, double) { return attack(); }

}  // namespace a01_roofline
