#include "pipeline/gpu_cross_check.hpp"

#include <iostream>

#include "build/build_step.hpp"
#include "run/run_tests.hpp"
#include "text/text.hpp"

namespace rooflab {
namespace fs = std::filesystem;
namespace {

bool ran(TestStatus status) { return status != TestStatus::skipped; }
bool passed(TestStatus status) { return status == TestStatus::passed; }

// "A, B and 3 more": the names a note lists.
std::string some_names(const std::vector<std::string>& names) {
  constexpr std::size_t kListed = 2;
  std::string listed;
  for (std::size_t i = 0; i < names.size() && i < kListed; ++i) listed += (i ? ", " : "") + names[i];
  if (names.size() > kListed) listed += " and " + std::to_string(names.size() - kListed) + " more";
  return listed;
}

std::string tests_word(std::size_t count) { return std::to_string(count) + (count == 1 ? " test" : " tests"); }

}  // namespace

std::vector<std::string> compare_with_gpu(std::vector<GradedTest>& tests, const std::vector<TestOutcome>& on_gpu) {
  std::size_t agreed = 0, runtime_only = 0;
  std::vector<std::string> rejected_by_gpu, passed_on_gpu, failed_on_gpu_only;
  for (std::size_t i = 0; i < tests.size() && i < on_gpu.size(); ++i) {
    const TestOutcome& here = tests[i].outcome;
    const TestOutcome& there = on_gpu[i];
    if (!ran(there.status)) {
      if (ran(here.status)) ++runtime_only;
      continue;
    }
    if (!ran(here.status)) {  // not scored anywhere (the Thrust CUDA backend, say): reported only where it fails
      if (!passed(there.status)) failed_on_gpu_only.push_back(here.name);
      continue;
    }
    if (passed(here.status) == passed(there.status)) {
      ++agreed;
      continue;
    }
    tests[i].gpu_verdict = "on this machine's GPU this test " + std::string(to_string(there.status)) +
                           (there.message.empty() ? std::string() : ": " + text::first_lines(there.message, 6));
    (passed(here.status) ? rejected_by_gpu : passed_on_gpu).push_back(here.name);
  }
  // Each note fits a report line (report/report_text.hpp's kLineCap): the
  // tests' own output names the GPU's verdict, test by test.
  std::vector<std::string> notes;
  notes.push_back(
      "GPU cross-check: the tests ran again on this machine's GPU: " + std::to_string(agreed) +
      " agreed with the CPU runtime" +
      (runtime_only ? ", " + std::to_string(runtime_only) + " ran in the runtime only (its counters)" : std::string()) +
      ". The score is the CPU runtime's, the same on every machine.");
  if (!rejected_by_gpu.empty())
    notes.push_back("GPU cross-check: " + tests_word(rejected_by_gpu.size()) +
                    " passed in the CPU runtime and not on the GPU (each one's output says what the GPU said): a "
                    "gap in the course's runtime; please tell the instructors.");
  if (!passed_on_gpu.empty())
    notes.push_back("GPU cross-check: " + tests_word(passed_on_gpu.size()) +
                    " failed in the CPU runtime and passed on the GPU: the runtime sees what a GPU runs through, "
                    "such as a race that came out right or a read of memory never written.");
  if (!failed_on_gpu_only.empty())
    notes.push_back("GPU cross-check: " + tests_word(failed_on_gpu_only.size()) +
                    " that only a GPU runs (not scored) did not pass there: " + some_names(failed_on_gpu_only) + ".");
  return notes;
}

std::optional<GradedBinaries> run_gpu_cross_check(const Grading& grading, AssignmentResult& assignment,
                                                  const AssignmentInfo& info, const GradedBinaries& in_cpu_runtime,
                                                  const std::vector<std::string>& names,
                                                  const std::vector<TestLimits>& limits) {
  const BuildTree& tree = *grading.gpu_build;
  std::cout << "[" << info.name << "] building for the GPU (the cross-check)\n" << std::flush;
  const std::string step = info.name + ".gpu.build";
  const ProcessResult built = build_target(grading, tree, Manifest::worker_target(info), step);
  if (!built.succeeded()) {
    assignment.notes.push_back(
        "GPU cross-check: your code built for the CPU runtime but not with nvcc for this machine's GPU (" +
        built.describe(kBuildTimeout_s) + "; logs/" + step +
        ".log). A GPU toolchain rejects what the CPU runtime's build accepted: the score is the CPU runtime's, "
        "and the instructors should hear about it (docs/grading.md).");
    return std::nullopt;
  }
  GradedBinaries on_gpu = in_cpu_runtime;
  on_gpu.worker = Manifest::worker_binary(tree.dir, info);
  on_gpu.worker_build_dir = tree.dir;
  on_gpu.gpu = true;
  std::cout << "[" << info.name << "] running " << names.size() << " tests on the GPU\n";
  const std::vector<TestOutcome> outcomes =
      run_tests_in_parallel(grading, on_gpu, names, limits, grading.scratch / ("run-gpu-" + info.name));
  for (std::string& note : compare_with_gpu(assignment.tests, outcomes)) assignment.notes.push_back(std::move(note));
  return on_gpu;
}

}  // namespace rooflab
