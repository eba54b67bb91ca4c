// The plots stage's registers per thread, which the GPU model needs for
// occupancy: the reference's counts, which its own profile knows
// (`profile --registers`), and, where the reference build had nvcc, the
// submission's: each of its CUDA files compiled by
// `nvcc -arch=sm_90 -cubin --resource-usage` as a build step, sandboxed (it
// reads student code), its log in the report as <lab>.registers.<file>.log.
// Feedback only: nothing here is scored.
#pragma once

#include <string>
#include <vector>

#include "pipeline/grading.hpp"
#include "rooflab/kernel_profile.hpp"
#include "stage/manifest.hpp"

namespace rooflab {

struct KernelRegisters {
  kernels::RegisterCounts counts;
  bool nvcc_ran = false;  // nvcc compiled (or tried) the submission's CUDA files
  std::vector<std::string> notes;
};

KernelRegisters count_kernel_registers(const Grading& grading, const AssignmentInfo& info);

}  // namespace rooflab
