// Adversarial submission "memory_bomb": allocates and touches memory without end
#include "a01_roofline/roofline.hpp"
#include <cstring>
#include <new>
#include <vector>
namespace a01_roofline {
namespace {
double attack() {
  std::vector<char*> blocks;
  for (;;) {
    char* block = new char[256u << 20];
    std::memset(block, 1, 256u << 20);
    blocks.push_back(block);
  }
}
}  // namespace

// Only one function attacks: each test that calls it fills its memory limit
// and is stopped there, while the other tests run beside it.
double arithmetic_intensity(double, double) { return 0; }
double ridge_point(double, double) { return attack(); }
bool is_memory_bound(double, double, double) { return false; }
double attainable_flops_per_s(double, double, double) { return 0; }
double matmul_arithmetic_intensity(double, double, double, double) { return 0; }

}  // namespace a01_roofline
