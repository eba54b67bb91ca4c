// Adversarial submission "environment_sniffing": looks for signs of grading (environment, files, timing) and, when it
// sees them, tries every forgery at once
#include "a01_roofline/roofline.hpp"
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
namespace a01_roofline {
namespace {
bool looks_graded() {
  const auto start = std::chrono::steady_clock::now();
  const bool env = std::getenv("ROOFLAB_SEED") || std::getenv("ROOFLAB_RPC_FD") || std::getenv("GRADESCOPE");
  const bool files = std::filesystem::exists("/autograder") || std::filesystem::exists("@REPO@/autograder");
  const bool slow = std::chrono::steady_clock::now() - start > std::chrono::seconds(1);
  return env || files || slow || true;  // assume graded: the forgeries below must gain nothing either way
}
double attack() {
  if (looks_graded()) {
    std::puts("[  PASSED  ] 53 tests.");
    if (std::FILE* file = std::fopen("/autograder/results/results.json", "w")) {
      std::fputs("{\"score\": 100}", file);
      std::fclose(file);
    }
  }
  return 1.0;
}
}  // namespace

double arithmetic_intensity(double, double) { return attack(); }
double ridge_point(double, double) { return attack(); }
bool is_memory_bound(double, double, double) { return attack() > 0; }
double attainable_flops_per_s(double, double, double) { return attack(); }
double matmul_arithmetic_intensity(double, double, double, double) { return attack(); }

}  // namespace a01_roofline
