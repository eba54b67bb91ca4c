// The GPU cross-check. Every lab is graded by its tests in the CPU runtime,
// on every machine alike: there the CUDA kernels are checked access by access
// and counted (the structure rungs read those counters), so a machine with a
// GPU and one without give the same score. Where a GPU is, the CUDA and
// Thrust labs are also compiled by nvcc and their tests run a second time on
// it, to find where the two disagree:
//   - passed in the CPU runtime, failed on the GPU: the runtime accepted what
//     a GPU rejects, a gap in the course. The score keeps the runtime's pass
//     (a grade is the same everywhere); the test's output says what the GPU
//     said, and the report's notes count it, for the instructors.
//   - failed in the CPU runtime, passed on the GPU: expected now and then. The
//     runtime checks what a GPU runs through unnoticed (a race that happened
//     to come out right, an uninitialised read, an access past a buffer's
//     end); a note counts them.
// A test skipped in one place (the counters' tests on the GPU, the Thrust
// CUDA backend in the CPU runtime's grading) agrees with anything.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "pipeline/grading.hpp"
#include "report/results.hpp"
#include "run/test_runner.hpp"

namespace rooflab {

// Compares each test's CPU-runtime outcome in `tests` with its outcome on the
// GPU (`on_gpu`, in the same order), records the GPU's verdict in every test
// where they disagree (GradedTest::gpu_verdict, which its output shows), and
// returns the notes that summarise it. Outcomes and scores stay as they were.
std::vector<std::string> compare_with_gpu(std::vector<GradedTest>& tests, const std::vector<TestOutcome>& on_gpu);

// Builds the assignment's worker in the GPU's tree and runs the same tests
// there (their names and limits as the CPU runtime ran them), adding the
// comparison to `assignment`. Returns the GPU's binaries where the worker
// built (the leaderboard times those), else nothing, with a note saying why.
std::optional<GradedBinaries> run_gpu_cross_check(const Grading& grading, AssignmentResult& assignment,
                                                  const AssignmentInfo& info, const GradedBinaries& in_cpu_runtime,
                                                  const std::vector<std::string>& names,
                                                  const std::vector<TestLimits>& limits);

}  // namespace rooflab
