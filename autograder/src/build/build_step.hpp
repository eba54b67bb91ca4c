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

// A sandboxed step of the build, in its own memory cgroup, writing only to the
// build folder; its log goes to the report folder, capped.
ProcessResult run_build_step(const Grading& grading, const std::vector<std::string>& argv, const std::string& step,
                             double timeout_s);

// Configures the staged course for this submission (CUDA only where its GPU
// tests can run); throws when the course itself does not configure.
void configure_staged_course(const Grading& grading, const StagedSubmission& staged);

// What the checks refuse in the assignment's compiled student objects, and in
// its taken source files (build/checks.hpp).
std::vector<std::string> rejected_symbols(const Grading& grading, const AssignmentInfo& info);
std::vector<std::string> rejected_sources(const StagedSubmission& staged, const AssignmentInfo& info);

}  // namespace rooflab
