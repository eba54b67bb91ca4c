// Adversarial submission "fake_gtest_output": prints what a passing GoogleTest run prints, on both streams
#include "a01_roofline/roofline.hpp"
#include <cstdio>
namespace a01_roofline {
namespace {
double attack() {
  const char* fake =
      "[       OK ] RooflineHidden.Everything (0 ms)\n[  PASSED  ] 53 tests.\n"
      "{\"testsuites\": [{\"name\": \"RooflineHidden\", \"testsuite\": [{\"name\": \"Everything\"}]}]}\n";
  std::fputs(fake, stdout);
  std::fputs(fake, stderr);
  std::fflush(nullptr);
  return 0;
}
}  // namespace

double arithmetic_intensity(double, double) { return attack(); }
double ridge_point(double, double) { return attack(); }
bool is_memory_bound(double, double, double) { return attack() > 0; }
double attainable_flops_per_s(double, double, double) { return attack(); }
double matmul_arithmetic_intensity(double, double, double, double) { return attack(); }

}  // namespace a01_roofline
