// The run stage: every test of an assignment, each as a verdict and worker
// pair (run/test_runner.hpp), -j at a time, with a progress line.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "pipeline/grading.hpp"
#include "run/test_runner.hpp"

namespace rooflab {

// One outcome per name, in order; a test the grader itself could not run fails.
std::vector<TestOutcome> run_tests_in_parallel(const Grading& grading, const GradedBinaries& binaries,
                                               const std::vector<std::string>& names,
                                               const std::vector<TestLimits>& limits,
                                               const std::filesystem::path& scratch);

}  // namespace rooflab
