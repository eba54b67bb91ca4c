// The leaderboard's measurement (rubric [leaderboard], autograder/README.md):
// the assignment's leaderboard test run alone, alternately with the
// reference's worker and the submission's, in the same sandbox and limits.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "report/results.hpp"
#include "run/test_runner.hpp"
#include "score/rubric.hpp"
#include "stage/manifest.hpp"

namespace rooflab {

// The reference build's worker for `info` (solutions/ linked with the same
// dispatch), with everything else as in `submission`; or nullopt, with the
// reason in `why_not`, where it cannot be compared like with like: no such
// binary, or CUDA kernels that run on a GPU in one and in the CPU runtime in
// the other (the reference's where its build found a GPU, the submission's
// where `submission` is the GPU cross-check's build).
std::optional<GradedBinaries> reference_worker(const Grading& grading, const AssignmentInfo& info,
                                               const GradedBinaries& submission, std::string& why_not);

// Runs the leaderboard test `rounds` times with each worker, reference first
// in each round, one run at a time (after the graded tests, so that nothing
// of the grading runs beside it). Every run is held to `limits`, so a slow
// submission costs at most rounds × limits.timeout_s; a submission run that
// fails ends the measurement with no time: a wrong answer gets no place.
// Each round draws new inputs (seed + round), the same for both workers.
LeaderboardResult run_leaderboard(const Grading& grading, const GradedBinaries& submission,
                                  const std::optional<GradedBinaries>& reference, const RubricLeaderboard& leaderboard,
                                  const TestLimits& limits, const std::filesystem::path& scratch, int rounds = 2);

// What the report says of a reference run that recorded no time: how it ended
// and, on one line, the first lines of why ("the reference's run failed on
// this machine: …"), so that a grader can tell an overloaded machine from a
// broken reference build.
std::string reference_failure_note(const TestOutcome& ran);

}  // namespace rooflab
