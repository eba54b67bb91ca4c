// Adversarial submission "results_file_write": writes passing Gradescope results, reports and JUnit files wherever a
// grader might look
#include "a01_roofline/roofline.hpp"
#include <cstdio>
#include <string>
namespace a01_roofline {
namespace {
double attack() {
  const char* passing = "{\"score\": 100, \"tests\": []}";
  for (const char* dir : {".", "..", "/tmp", "/autograder/results", "@OUT@", "@OUT@/logs", "@REPO@"}) {
    for (const char* name : {"/results.json", "/report.md", "/junit.xml"}) {
      if (std::FILE* file = std::fopen((std::string(dir) + name).c_str(), "w")) {
        std::fputs(passing, file);
        std::fclose(file);
      }
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
