// Adversarial submission "object_file_bomb": compiles to a 300 MB object file
// (the assembler fills a data section), to fill the grading machine's disk or
// memory through the build folder.
#include "a01_roofline/roofline.hpp"

asm(".section .data\n.globl rooflab_bomb\nrooflab_bomb:\n.fill 300000000, 1, 7\n.text\n");

namespace a01_roofline {

double arithmetic_intensity(double flops, double bytes) { return flops / bytes; }
double ridge_point(double peak_flops_per_s, double bandwidth_bytes_per_s) {
  return peak_flops_per_s / bandwidth_bytes_per_s;
}
bool is_memory_bound(double intensity, double peak_flops_per_s, double bandwidth_bytes_per_s) {
  return intensity < peak_flops_per_s / bandwidth_bytes_per_s;
}
double attainable_flops_per_s(double intensity, double peak_flops_per_s, double bandwidth_bytes_per_s) {
  return intensity * bandwidth_bytes_per_s < peak_flops_per_s ? intensity * bandwidth_bytes_per_s : peak_flops_per_s;
}
double matmul_arithmetic_intensity(double, double, double, double) { return 0; }

}  // namespace a01_roofline
