// a05's profile, which the grader runs with the submission and with the
// reference and `lab profile a05` prints as a table: every kernel of
// standard, flash, tensor-core and mma.sync flash attention at one shape, as the CPU
// runtime counted it (global requests and sectors, shared-memory bank
// conflicts, DRAM bytes, tensor-core FLOPs), with the FLOPs of chapter 6's
// formulas, placed on a GPU's roofline and by the GPU model
// (profile/kernel_counts.hpp). Without a GPU only: on a GPU nothing counts
// them (Nsight Compute does, there).
//
// Provided code: students may run it too (target a05_cuda_attention_profile).
#include "kernel_counts.hpp"

int main(int argc, char** argv) {
  // The flash kernels' graded limit (a05_cuda_attention.hpp): the tables mark a figure past it.
  using a05_cuda_attention::kMaxBankConflictsPerRequest;
  return rooflab::kernels::report_kernels(
      a05_cuda_attention::profile::count_kernels, argc, argv,
      {{"flash_forward", kMaxBankConflictsPerRequest},
       {"flash_forward_tensor_core", kMaxBankConflictsPerRequest},
       {"flash_forward_mma_sync", kMaxBankConflictsPerRequest}},
      a05_cuda_attention::profile::reference_registers(a05_cuda_attention::profile::kHeadDim),
      a05_cuda_attention::profile::kHeadDim);
}
