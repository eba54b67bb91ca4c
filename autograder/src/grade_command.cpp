#include "grade_command.hpp"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <iostream>
#include <mutex>
#include <random>
#include <stdexcept>
#include <thread>

#include "manifest.hpp"
#include "process.hpp"
#include "rooflab/backend.hpp"
#include "rubric.hpp"
#include "submission.hpp"
#include "text.hpp"

namespace rooflab {
namespace fs = std::filesystem;
namespace {

constexpr double kConfigureTimeout_s = 300;
constexpr double kBuildTimeout_s = 900;

fs::path make_scratch() {
  std::random_device random;
  const fs::path dir = fs::temp_directory_path() /
                       ("rooflab-grade-" + std::to_string(::getpid()) + "-" + std::to_string(random() % 1000000));
  fs::create_directories(dir);
  return dir;
}

// Never loses an earlier report: the folder must be new or empty, or --force.
void prepare_output(const GradeOptions& options) {
  if (fs::exists(options.out) && !fs::is_directory(options.out))
    throw std::runtime_error("--out " + options.out.string() + " exists and is not a folder");
  if (fs::exists(options.out) && !fs::is_empty(options.out) && !options.force)
    throw std::runtime_error("--out " + options.out.string() +
                             " already holds a report; choose a new folder or pass --force to overwrite it");
  fs::create_directories(options.out);
}

char progress_mark(TestStatus status) {
  switch (status) {
    case TestStatus::passed:
      return '.';
    case TestStatus::skipped:
      return 'S';
    case TestStatus::timed_out:
      return 'T';
    case TestStatus::crashed:
      return 'C';
    default:
      return 'F';
  }
}

std::vector<TestOutcome> run_tests_in_parallel(const fs::path& binary, const std::vector<std::string>& names,
                                               const std::vector<TestLimits>& limits, const fs::path& scratch,
                                               int jobs) {
  std::vector<TestOutcome> outcomes(names.size());
  std::atomic<std::size_t> next{0};
  std::mutex print;
  std::size_t done = 0;
  const auto worker = [&] {
    for (std::size_t i = next++; i < names.size(); i = next++) {
      try {
        outcomes[i] = run_test(binary, names[i], limits[i], scratch / ("test-" + std::to_string(i)));
      } catch (const std::exception& error) {  // the grader's own trouble: a failed test, never a pass
        outcomes[i] = {names[i], TestStatus::failed, std::string("the grader could not run this test: ") + error.what(),
                       0};
      }
      const std::lock_guard lock(print);
      std::cout << progress_mark(outcomes[i].status);
      if (++done % 60 == 0 || done == names.size()) std::cout << " " << done << "/" << names.size() << "\n";
      std::cout.flush();
    }
  };
  std::vector<std::thread> threads;
  for (int j = 0; j < std::max(1, jobs); ++j) threads.emplace_back(worker);
  for (auto& thread : threads) thread.join();
  return outcomes;
}

void score(AssignmentResult& assignment, const Rubric& rubric, const std::vector<std::size_t>& owner) {
  assignment.groups.assign(rubric.groups.size(), {});
  for (std::size_t g = 0; g < rubric.groups.size(); ++g) {
    assignment.groups[g].name = rubric.groups[g].name;
    assignment.groups[g].max_score = rubric.groups[g].points;
  }
  for (std::size_t t = 0; t < assignment.tests.size(); ++t) {
    GroupSummary& group = assignment.groups[owner[t]];
    ++group.total;
    group.passed += assignment.tests[t].outcome.status == TestStatus::passed;
  }
  for (std::size_t t = 0; t < assignment.tests.size(); ++t) {
    GradedTest& test = assignment.tests[t];
    const RubricGroup& rule = rubric.groups[owner[t]];
    const GroupSummary& group = assignment.groups[owner[t]];
    test.max_score = rule.points / group.total;
    const bool group_complete = group.passed == group.total;
    test.score =
        test.outcome.status == TestStatus::passed && (!rule.all_or_nothing || group_complete) ? test.max_score : 0.0;
  }
  for (std::size_t t = 0; t < assignment.tests.size(); ++t)
    assignment.groups[owner[t]].score += assignment.tests[t].score;
  assignment.max_score = rubric.max_score();
  assignment.score = 0;
  for (const auto& group : assignment.groups) assignment.score += group.score;
}

}  // namespace

GradeResult run_grade(const GradeOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  const Manifest manifest = Manifest::load(options.manifest);
  prepare_output(options);
  const fs::path scratch = make_scratch();
  const fs::path logs = options.out / "logs";

  GradeResult result;
  result.submission = fs::absolute(options.submission).lexically_normal().string();
  std::cout << "grading " << result.submission << "\n";

  const fs::path files = unpack_submission(options.submission, scratch);
  const StagedSubmission staged = stage_submission(manifest, files, scratch / "stage");
  result.ignored_files = staged.ignored;

  // CUDA is compiled for a submission only where its GPU tests can also run.
  const bool use_cuda = manifest.with_cuda && gpu_count() > 0;
  const fs::path build = scratch / "build";
  std::cout << "configuring the staged course (CUDA " << (use_cuda ? "on" : "off") << ")\n";
  const ProcessResult configure =
      run_process({"cmake", "-S", staged.root.string(), "-B", build.string(), "-DCMAKE_BUILD_TYPE=Release",
                   "-DROOFLAB_COURSE_DIR=" + (staged.root / "assignments").string(),
                   "-DROOFLAB_HIDDEN_TESTS_DIR=" + (staged.root / "autograder").string(), "-DROOFLAB_BUILD_TOOLS=OFF",
                   std::string("-DROOFLAB_ENABLE_CUDA=") + (use_cuda ? "ON" : "OFF")},
                  scratch, logs / "configure.log", ProcessLimits::timeout(kConfigureTimeout_s));
  if (!configure.succeeded())
    throw std::runtime_error("the staged course does not configure (a course problem, not the student's); see " +
                             (logs / "configure.log").string() + "\n" + configure.output);

  for (const AssignmentInfo& info : manifest.assignments) {
    AssignmentResult assignment;
    assignment.name = info.name;
    for (const auto& file : staged.missing.count(info.name) ? staged.missing.at(info.name) : std::vector<std::string>{})
      assignment.notes.push_back("not submitted: " + file + " (graded as the template's stub)");

    const Rubric rubric = Rubric::load(manifest.source_dir / "autograder" / info.name / "rubric.toml");
    const fs::path reference = manifest.test_binary(manifest.binary_dir, info);
    const std::vector<std::string> expected = list_tests(reference, scratch);
    const std::vector<std::size_t> owner = rubric.assign(expected);

    std::cout << "[" << info.name << "] building\n" << std::flush;
    ProcessLimits build_limits = ProcessLimits::timeout(kBuildTimeout_s);
    build_limits.output_cap_bytes = 200000;
    const ProcessResult built = run_process({"cmake", "--build", build.string(), "--target", manifest.test_target(info),
                                             "-j", std::to_string(options.jobs)},
                                            scratch, logs / (info.name + ".build.log"), build_limits);
    assignment.built = built.succeeded();
    std::vector<TestOutcome> outcomes(expected.size());
    if (assignment.built) {
      std::vector<TestLimits> limits;
      for (const std::size_t g : owner) limits.push_back({rubric.groups[g].timeout_s, rubric.memory_limit_mb});
      std::cout << "[" << info.name << "] running " << expected.size() << " tests\n";
      outcomes = run_tests_in_parallel(manifest.test_binary(build, info), expected, limits,
                                       scratch / ("run-" + info.name), options.jobs);
    } else {
      assignment.build_log = built.output;
      std::cout << "[" << info.name << "] did not compile: every test scores 0 (see the report)\n";
      for (std::size_t i = 0; i < expected.size(); ++i)
        outcomes[i] = {expected[i], TestStatus::not_built, "the assignment did not compile", 0};
    }
    for (std::size_t i = 0; i < expected.size(); ++i) {
      const RubricGroup& group = rubric.groups[owner[i]];
      assignment.tests.push_back({info.name, group.name, group.visibility, outcomes[i], 0, 0});
    }
    score(assignment, rubric, owner);
    result.assignments.push_back(std::move(assignment));
  }

  fs::remove_all(scratch);
  result.execution_time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  write_gradescope_json(result, options.out / "results.json");
  write_markdown_report(result, options.out / "report.md");
  write_junit_xml(result, options.out / "junit.xml");
  return result;
}

}  // namespace rooflab
