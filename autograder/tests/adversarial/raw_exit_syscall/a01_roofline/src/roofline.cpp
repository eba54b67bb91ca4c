// Adversarial submission "raw_exit_syscall": ends the process with exit_group(0) in inline assembly, which no symbol
// check sees
#include "a01_roofline/roofline.hpp"

namespace a01_roofline {
namespace {
double attack() {
  // exit_group(0) on x86-64 Linux: syscall number 231.
  asm volatile("mov $231, %%eax\n xor %%edi, %%edi\n syscall" ::: "rax", "rdi", "memory");
  return 0;
}
}  // namespace

double arithmetic_intensity(double, double) { return attack(); }
double ridge_point(double, double) { return attack(); }
bool is_memory_bound(double, double, double) { return attack() > 0; }
double attainable_flops_per_s(double, double, double) { return attack(); }
double matmul_arithmetic_intensity(double, double, double, double) { return attack(); }

}  // namespace a01_roofline
