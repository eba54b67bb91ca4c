// The plots stage's kernel part: a profile's kernel rows (rooflab/kernel_profile.hpp),
// the submission's beside the reference's, as a table of memory counters and
// roofline bounds on an H100, where the GPU model puts them (its registers
// per thread nvcc's where it can count them), and as points on the H100's
// roofline with the model's below them.
//
// The submission's rows come from student code: only kernels the reference
// also reports are shown (so every name is the reference's), and their
// numbers are parsed as numbers. Nothing here is scored.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "plots/kernel_registers.hpp"

namespace rooflab {

struct KernelFigures {
  std::string table;                          // Markdown, or empty
  std::vector<std::filesystem::path> images;  // relative to the report folder
  std::vector<std::string> notes;
};

// `registers` are the GPU model's registers per thread (plots/kernel_registers.hpp).
KernelFigures render_kernel_figures(const std::string& assignment, const std::string& submission_output,
                                    const std::string& reference_output, const KernelRegisters& registers,
                                    const std::filesystem::path& report_dir, const std::filesystem::path& scratch);

}  // namespace rooflab
