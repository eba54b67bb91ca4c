// The one way the grader's integration and adversarial tests grade a
// submission: the real `rooflab grade` program, as an instructor runs it, with
// this build's manifest, two jobs and a log beside the report folder.
#pragma once

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "os/process.hpp"

namespace rooflab::testing {

struct Graded {
  ProcessResult process;     // the grader's exit, and what it printed
  nlohmann::json results;    // results.json, or null when it wrote none
  std::string report;        // report.md, or "" when it wrote none
  std::string results_text;  // results.json as written
};

// Grades `submission` into `out` (`rooflab grade SUBMISSION --out OUT -j 2`
// and `extra` flags); the grader's output goes to `log` as well. `options`
// start the grader (an environment of its own, cgroups a test watches it in).
Graded grade_with_rooflab(const std::filesystem::path& submission, const std::filesystem::path& out,
                          const std::vector<std::string>& extra, const std::filesystem::path& log,
                          const SpawnOptions& options = {});

}  // namespace rooflab::testing
