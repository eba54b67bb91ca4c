// The `grade` subcommand: stage, build, run, score and report one submission.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "os/sandbox.hpp"
#include "report/results.hpp"

namespace rooflab {

// Whether the grader also builds the CUDA and Thrust labs for a GPU and runs
// their tests there, beside the CPU runtime's (which alone decide the score):
// automatic where this machine has a GPU and the reference build has CUDA;
// on, also where no GPU is seen (its tests then fail there: for checking the
// grader itself); off, never.
enum class GpuCheck { automatic, on, off };

struct GradeOptions {
  std::filesystem::path submission;
  std::filesystem::path manifest;  // rooflab_manifest.json of the reference build
  std::filesystem::path out;       // report folder; must be new or empty unless force
  bool force = false;
  int jobs = 2;  // tests run in parallel, and build parallelism
  SandboxMode sandbox = SandboxMode::automatic;
  std::optional<std::uint64_t> seed;  // hidden tests' inputs; drawn at random when absent
  std::vector<std::string> only;      // grade just these assignments (all when empty)
  std::uint64_t scratch_mb = 4096;    // the cap on the grading's working folder (stage, build, logs)
  bool plots = true;                  // the profiles' scaling runs and figures (informational, never scored)
  // Where false, no cpu cgroups, as on a machine whose grader cannot create
  // them: each test's time limit then counts CPU time (run/test_runner.hpp).
  bool cpu_cgroups = true;
  GpuCheck gpu_check = GpuCheck::automatic;
};

// Grades and writes results.json, report.md and junit.xml into options.out.
// Throws std::runtime_error (bad input, unusable output folder); a submission
// that fails to build or crashes is a result, not an error.
GradeResult run_grade(const GradeOptions& options);

}  // namespace rooflab
