// The grading pipeline, stage by stage in the order autograder/README.md
// describes them: stage the submission (stage/), build it and check it
// (build/), run each test as a verdict and worker pair (run/, verdict/), score
// the outcomes (score/), draw the scaling plots (plots/) and write the
// reports, one file per format (report/).
#include "pipeline/grade_command.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <random>
#include <stdexcept>
#include <thread>

#include "build/build_step.hpp"
#include "os/cpu_cgroup.hpp"
#include "os/memory_cgroup.hpp"
#include "os/pids_cgroup.hpp"
#include "os/scratch_space.hpp"
#include "os/stop_signals.hpp"
#include "pipeline/gpu_cross_check.hpp"
#include "pipeline/grading.hpp"
#include "plots/profile_plots.hpp"
#include "report/containment.hpp"
#include "rooflab/backend.hpp"
#include "rooflab/machine_load.hpp"
#include "run/leaderboard_run.hpp"
#include "run/run_tests.hpp"
#include "score/rubric.hpp"
#include "score/scoring.hpp"
#include "stage/submission.hpp"

namespace rooflab {
namespace fs = std::filesystem;
namespace {

// Never loses an earlier report: the folder must be new or empty, or --force.
void prepare_output(const GradeOptions& options) {
  if (fs::exists(options.out) && !fs::is_directory(options.out))
    throw std::runtime_error("--out " + options.out.string() + " exists and is not a folder");
  if (fs::exists(options.out) && !fs::is_empty(options.out) && !options.force)
    throw std::runtime_error("--out " + options.out.string() +
                             " already holds a report; choose a new folder or pass --force to overwrite it");
  fs::create_directories(options.out);
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

// The leaderboard test (rubric [leaderboard]), alone, beside the reference:
// `binaries` are the GPU's where the cross-check built them, else the CPU runtime's.
void measure_leaderboard(const Grading& grading, AssignmentResult& assignment, const AssignmentInfo& info,
                         const Rubric& rubric, const GradedBinaries& binaries) {
  std::cout << "[" << info.name << "] timing the leaderboard test beside the reference\n" << std::flush;
  std::string why_not;
  const std::optional<GradedBinaries> reference = reference_worker(grading, info, binaries, why_not);
  const LoadWatch watch;  // a time says little when other processes took the cores meanwhile
  assignment.leaderboard = run_leaderboard(grading, binaries, reference, *rubric.leaderboard,
                                           {rubric.leaderboard->timeout_s, rubric.memory_limit_mb},
                                           grading.scratch / ("leaderboard-" + info.name));
  assignment.leaderboard->busy = watch.warning(binaries.openmp_threads);
  if (!reference) assignment.leaderboard->note = why_not;
}

// Builds, checks, runs and scores one assignment.
AssignmentResult grade_assignment(const Grading& grading, const StagedSubmission& staged, const AssignmentInfo& info,
                                  std::uint64_t seed) {
  AssignmentResult assignment;
  assignment.name = info.name;
  for (const auto& file : staged.missing.count(info.name) ? staged.missing.at(info.name) : std::vector<std::string>{})
    assignment.notes.push_back("not submitted: " + file + " (graded as the template's stub)");
  for (const auto& why : staged.rejected.count(info.name) ? staged.rejected.at(info.name) : std::vector<std::string>{})
    assignment.notes.push_back("refused: " + why + " (graded as the template's stub)");

  if (!info.cuda_files.empty())
    assignment.notes.push_back(
        "CUDA kernels ran in the CPU runtime, which grades them on every machine alike: a launch that races, "
        "reads memory a GPU would fault on or that was never written, or has a __syncthreads some threads never "
        "reach fails, naming the kernel; its counters grade the structure rungs. Tests that need a GPU: 0 of 0.");
  if (info.rubric.empty())
    throw std::runtime_error(info.name + " has no grading/rubric.toml in the reference course: nothing to grade it by");
  const Rubric rubric = Rubric::load(info.rubric);
  GradedBinaries binaries;
  binaries.verdict = grading.manifest.verdict_binary(info);
  binaries.worker = Manifest::worker_binary(grading.build.dir, info);
  binaries.worker_build_dir = grading.build.dir;
  binaries.gpu = false;
  binaries.seed = seed;
  binaries.openmp_threads = std::max(1, static_cast<int>(std::thread::hardware_concurrency()) / grading.options.jobs);
  std::vector<std::string> expected = list_tests(binaries.verdict, grading.scratch);
  std::vector<std::size_t> owner = rubric.assign(expected);
  // The leaderboard test is never scored: it runs on its own, after the others.
  for (std::size_t i = expected.size(); i-- > 0;)
    if (owner[i] == Rubric::kLeaderboardTest) {
      expected.erase(expected.begin() + static_cast<std::ptrdiff_t>(i));
      owner.erase(owner.begin() + static_cast<std::ptrdiff_t>(i));
    }

  std::vector<std::string> rejections = rejected_sources(staged, info);
  if (rejections.empty()) {
    std::cout << "[" << info.name << "] building\n" << std::flush;
    const ProcessResult built =
        build_target(grading, grading.build, Manifest::worker_target(info), info.name + ".build");
    assignment.built = built.succeeded();
    if (!assignment.built) assignment.build_log = built.output;
    if (assignment.built) rejections = rejected_symbols(grading, info);
  }
  if (!rejections.empty()) {
    assignment.built = false;
    assignment.rejected = true;
    assignment.build_log = "The submission was refused before running:\n";
    for (const auto& why : rejections) assignment.build_log += "  " + why + "\n";
  }

  std::vector<TestOutcome> outcomes(expected.size());
  std::vector<TestLimits> limits;
  for (const std::size_t g : owner) limits.push_back({rubric.groups[g].timeout_s, rubric.groups[g].memory_limit_mb});
  if (assignment.built) {
    std::cout << "[" << info.name << "] running " << expected.size() << " tests\n";
    outcomes = run_tests_in_parallel(grading, binaries, expected, limits, grading.scratch / ("run-" + info.name));
  } else {
    const std::string why = assignment.rejected ? "refused: " + rejections.front() : "the assignment did not compile";
    std::cout << "[" << info.name << "] " << why << ": every test scores 0 (see the report)\n";
    for (std::size_t i = 0; i < expected.size(); ++i) outcomes[i] = {expected[i], TestStatus::not_built, why, 0};
  }
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const RubricGroup& group = rubric.groups[owner[i]];
    GradedTest test;
    test.assignment = info.name;
    test.group = group.name;
    test.visibility = group.visibility;
    test.outcome = outcomes[i];
    assignment.tests.push_back(std::move(test));
  }
  score(assignment, rubric, owner);
  std::optional<GradedBinaries> on_gpu;
  if (grading.gpu_build && info.runs_on_gpu() && assignment.built)
    on_gpu = run_gpu_cross_check(grading, assignment, info, binaries, expected, limits);
  // Timed on the GPU where one is (not under --gpu-check on without one: nothing would run there).
  if (rubric.leaderboard && assignment.built)
    measure_leaderboard(grading, assignment, info, rubric, on_gpu && gpu_count() > 0 ? *on_gpu : binaries);
  if (info.has_profile && assignment.built) {
    if (grading.options.plots)
      add_scaling_plots(grading, assignment, info);
    else
      assignment.plot_notes.push_back("not drawn: graded with --no-plots");
  }
  return assignment;
}

// Whether this grading also runs the CUDA and Thrust labs' tests on a GPU
// (pipeline/gpu_cross_check.hpp).
bool gpu_check_wanted(const GradeOptions& options, const Manifest& manifest,
                      const std::vector<AssignmentInfo>& assignments) {
  if (options.gpu_check == GpuCheck::off) return false;
  if (std::none_of(assignments.begin(), assignments.end(),
                   [](const AssignmentInfo& info) { return info.runs_on_gpu(); }))
    return false;
  return manifest.with_cuda && (options.gpu_check == GpuCheck::on || gpu_count() > 0);
}

std::uint64_t draw_seed() {
  std::random_device random;
  return (static_cast<std::uint64_t>(random()) << 32) ^ random();
}

std::string unique_name() {
  std::random_device random;
  return "rooflab-grade-" + std::to_string(::getpid()) + "-" + std::to_string(random() % 1000000);
}

void write_reports(const GradeResult& result, const fs::path& out) {
  write_gradescope_json(result, out / "results.json");
  write_markdown_report(result, out / "report.md");
  write_junit_xml(result, out / "junit.xml");
}

// Everything after the report folder is ready: what can fail here still ends
// in a report (GradeResult::error), so Gradescope always gets results.json.
void grade_into(GradeResult& result, const GradeOptions& options, const Manifest& manifest,
                const std::vector<AssignmentInfo>& assignments) {
  // First, while the grader has no other thread: it may enter a mount namespace of its own.
  const ScratchSpace scratch(options.scratch_mb * kMiB);
  const Sandbox sandbox(options.sandbox);
  // Named by this grader's pid: gradings beside this one have cgroups of their own.
  const std::string name = unique_name();
  const MemoryCgroups cgroups = MemoryCgroups::probe(name);
  const PidsCgroups pids = PidsCgroups::probe(name, cgroups);
  const CpuCgroups cpu = options.cpu_cgroups ? CpuCgroups::probe(name, cgroups, pids, options.jobs)
                                             : CpuCgroups::none("rooflab grade --no-cpu-cgroups");
  Grading grading{options,     manifest, sandbox, cgroups, pids, cpu, scratch.path(), {scratch.path() / "build", false},
                  std::nullopt};
  result.sandboxed = sandbox.isolated();
  if (!sandbox.isolated()) {
    result.notes.push_back("WARNING: the submission's code ran WITHOUT the sandbox: " + sandbox.weakness() +
                           ". Only rlimits" + (sandbox.run_as() ? " and an unprivileged user" : std::string()) +
                           " protected this machine, and the submission could read files the grader can read. "
                           "See docs/autograder_security.md.");
    std::cout << "WARNING: no sandbox: " << sandbox.weakness() << "\n";
  }
  std::cout << "grading " << result.submission << " (seed " << result.seed << ")\n";
  // However this ends, the report says how the grading was contained.
  struct Containment {
    GradeResult& result;
    const Grading& grading;
    const ScratchSpace& scratch;
    ~Containment() {
      try {
        result.containment = containment(grading, scratch);
      } catch (const std::exception&) {  // a report without these lines beats none
      }
    }
  } noted{result, grading, scratch};

  const UnpackedSubmission unpacked = unpack_submission(options.submission, scratch.path(), sandbox);
  const StagedSubmission staged = stage_submission(manifest, unpacked.files, scratch.path() / "stage");
  result.ignored_files = staged.ignored;
  for (const auto& why : unpacked.refused) result.notes.push_back("refused: " + why);
  for (const auto& why : staged.unreadable) result.notes.push_back("could not read: " + why);

  const ProcessResult configured = configure_staged_course(grading, staged, grading.build);
  if (!configured.succeeded())
    throw std::runtime_error("the staged course does not configure (a course problem, not the student's); see " +
                             (options.out / "logs" / "configure.log").string() + "\n" + configured.output);
  if (gpu_check_wanted(options, manifest, assignments)) {
    const BuildTree gpu{scratch.path() / "build-gpu", true};
    if (configure_staged_course(grading, staged, gpu).succeeded())
      grading.gpu_build = gpu;
    else
      result.notes.push_back(
          "GPU cross-check: not run, the staged course did not configure for this machine's GPU (a course "
          "problem, not the student's; logs/configure-gpu.log). The score is the CPU runtime's, as on every "
          "machine.");
  }

  for (const AssignmentInfo& info : assignments)
    result.assignments.push_back(grade_assignment(grading, staged, info, result.seed));
  // A stop that a step took for its own failure (a figure not drawn, say)
  // still ends the grading without a score.
  throw_if_stopped();
}

}  // namespace

GradeResult run_grade(const GradeOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  const Manifest manifest = Manifest::load(options.manifest);
  const std::vector<AssignmentInfo> assignments = selected_assignments(manifest, options.only);
  if (options.gpu_check == GpuCheck::on && !manifest.with_cuda)
    throw std::runtime_error("--gpu-check on: the reference build (" + options.manifest.string() +
                             ") has no CUDA compiled in (no nvcc when it was configured): nothing to build for a GPU");
  prepare_output(options);
  GradeResult result;
  result.submission = fs::absolute(options.submission).lexically_normal().string();
  result.seed = options.seed ? *options.seed : draw_seed();
  try {
    grade_into(result, options, manifest, assignments);
  } catch (const std::exception& error) {
    result.error = error.what();
    result.assignments.clear();  // nothing half-graded is reported as a score
    result.execution_time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    write_reports(result, options.out);
    throw;
  }
  result.execution_time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  write_reports(result, options.out);
  return result;
}

}  // namespace rooflab
