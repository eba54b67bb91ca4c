#include "grade_command.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <iostream>
#include <mutex>
#include <random>
#include <stdexcept>
#include <thread>

#include "checks.hpp"
#include "manifest.hpp"
#include "process.hpp"
#include "rooflab/backend.hpp"
#include "rubric.hpp"
#include "scaling_plots.hpp"
#include "submission.hpp"
#include "test_runner.hpp"
#include "text.hpp"

namespace rooflab {
namespace fs = std::filesystem;
namespace {

constexpr double kConfigureTimeout_s = 300;
constexpr double kBuildTimeout_s = 900;
constexpr std::size_t kBuildAddressSpace = std::size_t{16} << 30;
constexpr double kProfileTimeout_s = 120;
constexpr std::size_t kProfileAddressSpace = std::size_t{4} << 30;
constexpr std::uint64_t kBuildFileSize = std::uint64_t{1} << 30;

// The grader's private working folder, removed however grading ends.
struct Scratch {
  Scratch() {
    std::random_device random;
    path = fs::temp_directory_path() /
           ("rooflab-grade-" + std::to_string(::getpid()) + "-" + std::to_string(random() % 1000000));
    fs::create_directories(path);
  }
  ~Scratch() {
    kill_processes_mentioning(path.string(), 30);  // nothing started for this grading outlives it
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  fs::path path;
};

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

std::vector<TestOutcome> run_tests_in_parallel(const GradedBinaries& binaries, const Sandbox& sandbox,
                                               const std::vector<std::string>& names,
                                               const std::vector<TestLimits>& limits, const fs::path& scratch,
                                               int jobs) {
  std::vector<TestOutcome> outcomes(names.size());
  std::atomic<std::size_t> next{0};
  std::mutex print;
  std::size_t done = 0;
  const auto worker = [&] {
    for (std::size_t i = next++; i < names.size(); i = next++) {
      try {
        outcomes[i] = run_test(binaries, sandbox, names[i], limits[i], scratch / ("test-" + std::to_string(i)));
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

// A group's points are shared by its tests that ran. A test skipped because its
// backend cannot run on this grading machine (a GPU test without a GPU; the
// verdict process decides, not student code) is worth nothing either way, and a
// group whose every test skipped leaves the maximum score.
void score(AssignmentResult& assignment, const Rubric& rubric, const std::vector<std::size_t>& owner) {
  assignment.groups.assign(rubric.groups.size(), {});
  for (std::size_t g = 0; g < rubric.groups.size(); ++g) {
    assignment.groups[g].name = rubric.groups[g].name;
    assignment.groups[g].max_score = rubric.groups[g].points;
  }
  const auto skipped = [&](std::size_t t) { return assignment.tests[t].outcome.status == TestStatus::skipped; };
  for (std::size_t t = 0; t < assignment.tests.size(); ++t) {
    if (skipped(t)) continue;
    GroupSummary& group = assignment.groups[owner[t]];
    ++group.total;
    group.passed += assignment.tests[t].outcome.status == TestStatus::passed;
  }
  for (std::size_t t = 0; t < assignment.tests.size(); ++t) {
    GradedTest& test = assignment.tests[t];
    const RubricGroup& rule = rubric.groups[owner[t]];
    const GroupSummary& group = assignment.groups[owner[t]];
    test.max_score = skipped(t) ? 0.0 : rule.points / group.total;
    const bool group_complete = group.passed == group.total;
    test.score =
        test.outcome.status == TestStatus::passed && (!rule.all_or_nothing || group_complete) ? test.max_score : 0.0;
  }
  for (std::size_t t = 0; t < assignment.tests.size(); ++t)
    assignment.groups[owner[t]].score += assignment.tests[t].score;
  assignment.max_score = 0;
  assignment.score = 0;
  for (auto& group : assignment.groups) {
    if (group.total == 0) group.max_score = 0;
    assignment.max_score += group.max_score;
    assignment.score += group.score;
  }
}

// A sandboxed step of the build: cmake and the compiler read the submission.
ProcessResult run_build_step(const Sandbox& sandbox, const std::vector<std::string>& argv,
                             const StagedSubmission& staged, const fs::path& build, const fs::path& log,
                             double timeout_s, bool gpu) {
  ProcessLimits limits = ProcessLimits::timeout(timeout_s);
  limits.output_cap_bytes = 200000;
  limits.address_space_bytes = kBuildAddressSpace;
  limits.file_size_bytes = kBuildFileSize;
  limits.max_processes = sandbox.process_limit();
  limits.open_files = 1024;
  SandboxView view;
  view.read_only = {staged.root};
  view.writable = {build};
  view.cwd = build;
  view.gpu = gpu;
  return sandbox.run(argv, view, build, log, limits);
}

std::vector<std::string> rejected_symbols(const Sandbox& sandbox, const fs::path& build, const AssignmentInfo& info,
                                          const fs::path& scratch) {
  std::vector<std::string> argv{"nm", "-A"};
  for (const fs::path& objects : Manifest::student_objects(build, info))
    for (const auto& entry : fs::recursive_directory_iterator(objects))
      if (entry.path().extension() == ".o") argv.push_back(entry.path().string());
  SandboxView view;
  view.read_only = {build};
  ProcessLimits limits = ProcessLimits::timeout(120);
  limits.output_cap_bytes = 64u << 20;
  const ProcessResult listed = sandbox.run(argv, view, scratch, scratch / ("nm-" + info.name + ".log"), limits);
  if (!listed.succeeded())
    return {"cannot list the symbols of the compiled student files (" + listed.describe(120) + ")"};
  return check_symbols(listed.output);
}

std::vector<std::string> rejected_sources(const StagedSubmission& staged, const AssignmentInfo& info) {
  std::vector<std::string> problems;
  if (!staged.taken.count(info.name)) return problems;
  for (const std::string& file : staged.taken.at(info.name)) {
    const auto found = check_source(staged.root / "assignments" / info.dir / file, info.name + "/" + file);
    problems.insert(problems.end(), found.begin(), found.end());
  }
  return problems;
}

// The manifest's assignments named in `only` (all of them when it is empty), in
// course order; an unknown name is an error that lists the known ones.
std::vector<AssignmentInfo> selected_assignments(const Manifest& manifest, const std::vector<std::string>& only) {
  std::vector<AssignmentInfo> selected;
  for (const AssignmentInfo& info : manifest.assignments)
    if (only.empty() || std::find(only.begin(), only.end(), info.name) != only.end()) selected.push_back(info);
  for (const std::string& name : only) {
    const bool known = std::any_of(manifest.assignments.begin(), manifest.assignments.end(),
                                   [&](const AssignmentInfo& info) { return info.name == name; });
    if (known) continue;
    std::string names;
    for (const AssignmentInfo& info : manifest.assignments) names += (names.empty() ? "" : ", ") + info.name;
    throw std::runtime_error("--assignment " + name + ": no such assignment in this course; known: " + names);
  }
  return selected;
}

// Runs the assignment's profile built with the submission (sandboxed: it is
// student code) and with the reference, and draws them side by side. Nothing
// here is scored, and nothing here can fail the grading run.
void add_scaling_plots(AssignmentResult& assignment, const AssignmentInfo& info, const Manifest& manifest,
                       const Sandbox& sandbox, const StagedSubmission& staged, const fs::path& build,
                       const GradeOptions& options, const fs::path& scratch) {
  std::cout << "[" << info.name << "] profiling at growing N for the scaling plots\n" << std::flush;
  const fs::path logs = options.out / "logs";
  const ProcessResult built = run_build_step(
      sandbox,
      {"cmake", "--build", build.string(), "--target", info.name + "_profile", "-j", std::to_string(options.jobs)},
      staged, build, logs / (info.name + ".profile.build.log"), kBuildTimeout_s, false);
  // Profiles run one at a time, each with every core, and the same OpenMP
  // settings for the submission's and the reference's.
  const int cores = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  std::vector<ProfileRow> submission;
  if (!built.succeeded()) {
    assignment.plot_notes.push_back("the profile did not build with your code (" + built.describe(kBuildTimeout_s) +
                                    "): only the reference is drawn");
  } else {
    ProcessLimits limits = ProcessLimits::timeout(kProfileTimeout_s);
    limits.address_space_bytes = kProfileAddressSpace;
    SandboxView view;
    view.read_only = {build};
    view.env = openmp_environment(cores);
    const ProcessResult ran = sandbox.run({Manifest::profile_binary(build, info).string()}, view, scratch,
                                          scratch / (info.name + ".profile.log"), limits);
    std::vector<std::string> messages;
    submission = parse_profile(ran.output, messages);
    for (const auto& message : messages) assignment.plot_notes.push_back("your profile: " + message);
    if (!ran.succeeded()) assignment.plot_notes.push_back("your profile " + ran.describe(kProfileTimeout_s));
  }
  std::vector<std::string> ignored;
  SpawnOptions reference_options;
  reference_options.env = openmp_environment(cores);
  const ProcessResult reference = run_process({Manifest::profile_binary(manifest.binary_dir, info).string()}, scratch,
                                              scratch / (info.name + ".reference-profile.log"),
                                              ProcessLimits::timeout(kProfileTimeout_s), reference_options);
  const ScalingFigures figures =
      render_scaling_plots(info.name, submission, parse_profile(reference.output, ignored), options.out, scratch);
  assignment.plots = figures.images;
  assignment.plot_data = figures.csv;
  assignment.plot_notes.insert(assignment.plot_notes.end(), figures.notes.begin(), figures.notes.end());
}

std::uint64_t draw_seed() {
  std::random_device random;
  return (static_cast<std::uint64_t>(random()) << 32) ^ random();
}

}  // namespace

GradeResult run_grade(const GradeOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  const Manifest manifest = Manifest::load(options.manifest);
  const std::vector<AssignmentInfo> assignments = selected_assignments(manifest, options.only);
  prepare_output(options);
  const Sandbox sandbox(options.sandbox);
  const Scratch scratch_dir;
  const fs::path& scratch = scratch_dir.path;
  const fs::path logs = options.out / "logs";

  GradeResult result;
  result.submission = fs::absolute(options.submission).lexically_normal().string();
  result.seed = options.seed ? *options.seed : draw_seed();
  result.sandboxed = sandbox.isolated();
  if (!sandbox.isolated()) {
    result.notes.push_back("WARNING: the submission's code ran WITHOUT the sandbox: " + sandbox.weakness() +
                           ". Only rlimits" + (sandbox.run_as() ? " and an unprivileged user" : std::string()) +
                           " protected this machine, and the submission could read files the grader can read. "
                           "See docs/autograder_security.md.");
    std::cout << "WARNING: no sandbox: " << sandbox.weakness() << "\n";
  }
  std::cout << "grading " << result.submission << " (seed " << result.seed << ")\n";

  const fs::path files = unpack_submission(options.submission, scratch, sandbox);
  const StagedSubmission staged = stage_submission(manifest, files, scratch / "stage");
  result.ignored_files = staged.ignored;

  // CUDA is compiled for a submission only where its GPU tests can also run.
  const bool use_cuda = manifest.with_cuda && gpu_count() > 0;
  const fs::path build = scratch / "build";
  sandbox.hand_over(build);
  std::cout << "configuring the staged course (CUDA " << (use_cuda ? "on" : "off") << ", "
            << (sandbox.isolated() ? "sandboxed" : "NOT sandboxed") << ")\n";
  const ProcessResult configure = run_build_step(
      sandbox,
      {"cmake", "-S", staged.root.string(), "-B", build.string(), "-DCMAKE_BUILD_TYPE=Release",
       "-DROOFLAB_COURSE_DIR=" + (staged.root / "assignments").string(),
       "-DROOFLAB_GRADING_KIT_DIR=" + (staged.root / "kit").string(), "-DThrust_DIR=" + manifest.thrust_dir.string(),
       "-DROOFLAB_BUILD_TOOLS=OFF", std::string("-DROOFLAB_ENABLE_CUDA=") + (use_cuda ? "ON" : "OFF")},
      staged, build, logs / "configure.log", kConfigureTimeout_s, use_cuda);
  if (!configure.succeeded())
    throw std::runtime_error("the staged course does not configure (a course problem, not the student's); see " +
                             (logs / "configure.log").string() + "\n" + configure.output);

  for (const AssignmentInfo& info : assignments) {
    AssignmentResult assignment;
    assignment.name = info.name;
    for (const auto& file : staged.missing.count(info.name) ? staged.missing.at(info.name) : std::vector<std::string>{})
      assignment.notes.push_back("not submitted: " + file + " (graded as the template's stub)");
    for (const auto& why :
         staged.rejected.count(info.name) ? staged.rejected.at(info.name) : std::vector<std::string>{})
      assignment.notes.push_back("refused: " + why + " (graded as the template's stub)");

    const Rubric rubric = Rubric::load(manifest.source_dir / "autograder" / info.name / "rubric.toml");
    GradedBinaries binaries;
    binaries.verdict = manifest.verdict_binary(info);
    binaries.worker = Manifest::worker_binary(build, info);
    binaries.worker_build_dir = build;
    binaries.gpu = use_cuda;
    binaries.seed = result.seed;
    binaries.openmp_threads = std::max(1, static_cast<int>(std::thread::hardware_concurrency()) / options.jobs);
    const std::vector<std::string> expected = list_tests(binaries.verdict, scratch);
    const std::vector<std::size_t> owner = rubric.assign(expected);

    std::vector<std::string> rejections = rejected_sources(staged, info);
    if (rejections.empty()) {
      std::cout << "[" << info.name << "] building\n" << std::flush;
      const ProcessResult built =
          run_build_step(sandbox,
                         {"cmake", "--build", build.string(), "--target", Manifest::worker_target(info), "-j",
                          std::to_string(options.jobs)},
                         staged, build, logs / (info.name + ".build.log"), kBuildTimeout_s, use_cuda);
      assignment.built = built.succeeded();
      if (!assignment.built) assignment.build_log = built.output;
      if (assignment.built) rejections = rejected_symbols(sandbox, build, info, scratch);
    }
    if (!rejections.empty()) {
      assignment.built = false;
      assignment.rejected = true;
      assignment.build_log = "The submission was refused before running:\n";
      for (const auto& why : rejections) assignment.build_log += "  " + why + "\n";
    }

    std::vector<TestOutcome> outcomes(expected.size());
    if (assignment.built) {
      std::vector<TestLimits> limits;
      for (const std::size_t g : owner)
        limits.push_back({rubric.groups[g].timeout_s, rubric.groups[g].memory_limit_mb});
      std::cout << "[" << info.name << "] running " << expected.size() << " tests\n";
      outcomes =
          run_tests_in_parallel(binaries, sandbox, expected, limits, scratch / ("run-" + info.name), options.jobs);
    } else {
      const std::string why = assignment.rejected ? "refused: " + rejections.front() : "the assignment did not compile";
      std::cout << "[" << info.name << "] " << why << ": every test scores 0 (see the report)\n";
      for (std::size_t i = 0; i < expected.size(); ++i) outcomes[i] = {expected[i], TestStatus::not_built, why, 0};
    }
    for (std::size_t i = 0; i < expected.size(); ++i) {
      const RubricGroup& group = rubric.groups[owner[i]];
      assignment.tests.push_back({info.name, group.name, group.visibility, outcomes[i], 0, 0});
    }
    score(assignment, rubric, owner);
    if (info.has_profile && assignment.built)
      add_scaling_plots(assignment, info, manifest, sandbox, staged, build, options, scratch);
    result.assignments.push_back(std::move(assignment));
  }

  result.execution_time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  write_gradescope_json(result, options.out / "results.json");
  write_markdown_report(result, options.out / "report.md");
  write_junit_xml(result, options.out / "junit.xml");
  return result;
}

}  // namespace rooflab
