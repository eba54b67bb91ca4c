// The build stage: the staged course configured and each assignment's worker
// built, sandboxed (cmake and the compiler read the submission), then the
// courtesy source checks and the symbol checks of what it compiled to.
#pragma once

#include <string>
#include <vector>

#include "os/process.hpp"
#include "pipeline/grading.hpp"
#include "stage/submission.hpp"

namespace rooflab {

// A sandboxed step of the build, in its own memory cgroup, writing only to
// `tree`'s folder (and seeing the GPU where `tree` is the GPU's); its log goes
// to the report folder as <step>.log, capped.
ProcessResult run_build_step(const Grading& grading, const BuildTree& tree, const std::vector<std::string>& argv,
                             const std::string& step, double timeout_s);

// `cmake --build` of one target in `tree`, at the grading's -j.
ProcessResult build_target(const Grading& grading, const BuildTree& tree, const std::string& target,
                           const std::string& step);

// Configures the staged course for this submission in `tree`: the CPU
// runtime's build (CUDA off, kernels in the CPU runtime, as on a machine
// without a GPU) or the GPU's (CUDA on, kernels on the GPU). The log is
// configure.log, or configure-gpu.log.
ProcessResult configure_staged_course(const Grading& grading, const StagedSubmission& staged, const BuildTree& tree);

// What the checks refuse in the assignment's compiled student objects (of the
// CPU runtime's build), and in its taken source files (build/checks.hpp).
std::vector<std::string> rejected_symbols(const Grading& grading, const AssignmentInfo& info);
std::vector<std::string> rejected_sources(const StagedSubmission& staged, const AssignmentInfo& info);

}  // namespace rooflab
