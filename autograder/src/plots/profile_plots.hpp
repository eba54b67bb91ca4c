// The plots stage: the assignment's profile run with the submission
// (sandboxed) and with the reference, drawn side by side in the report.
#pragma once

#include "pipeline/grading.hpp"
#include "report/results.hpp"

namespace rooflab {

// Adds the figures and their notes to `assignment`. Nothing here is scored,
// and nothing here can fail the grading run.
void add_scaling_plots(const Grading& grading, AssignmentResult& assignment, const AssignmentInfo& info);

}  // namespace rooflab
