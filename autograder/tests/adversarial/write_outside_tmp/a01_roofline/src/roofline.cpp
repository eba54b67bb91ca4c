// Adversarial submission "write_outside_tmp": writes into the course repository, the submission, HOME and /tmp
#include "a01_roofline/roofline.hpp"
#include <cstdio>
#include <cstdlib>
#include <string>
namespace a01_roofline {
namespace {
double attack() {
  const char* home = std::getenv("HOME");
  for (const std::string& path :
       {std::string("@REPO@/solutions/a01_roofline/grading/tests/hidden_memory_test.cpp"),
        std::string("@REPO@/escaped-marker"), std::string("@SUBMISSION@/escaped-marker"),
        std::string(home ? home : "/root") + "/rooflab-escaped-marker", std::string("@MARKER@")}) {
    if (std::FILE* file = std::fopen(path.c_str(), "w")) {
      std::fputs("escaped", file);
      std::fclose(file);
    }
  }
  return 0;
}
}  // namespace

double arithmetic_intensity(double, double) { return attack(); }
double ridge_point(double, double) { return attack(); }
bool is_memory_bound(double, double, double) { return attack() > 0; }
double attainable_flops_per_s(double, double, double) { return attack(); }
double matmul_arithmetic_intensity(double, double, double, double) { return attack(); }

}  // namespace a01_roofline
