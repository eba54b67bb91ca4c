#include "grade_command.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <iostream>
#include <memory>
#include <mutex>
#include <random>
#include <stdexcept>
#include <thread>

#include "checks.hpp"
#include "manifest.hpp"
#include "memory_cgroup.hpp"
#include "process.hpp"
#include "rooflab/backend.hpp"
#include "rubric.hpp"
#include "scaling_plots.hpp"
#include "scoring.hpp"
#include "scratch_space.hpp"
#include "submission.hpp"
#include "test_runner.hpp"
#include "text.hpp"

namespace rooflab {
namespace fs = std::filesystem;
namespace {

constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;
constexpr std::uint64_t kGiB = std::uint64_t{1} << 30;
constexpr double kConfigureTimeout_s = 300;
constexpr double kBuildTimeout_s = 900;
constexpr std::uint64_t kBuildMemory = 8 * kGiB;  // a build step's cgroup: compilers and what they write
constexpr std::size_t kBuildAddressSpace = 16 * kGiB;
constexpr std::uint64_t kBuildFileSize = kGiB;
constexpr double kProfileTimeout_s = 120;
constexpr std::uint64_t kProfileMemory = 4 * kGiB;
constexpr std::size_t kLogCap = kMiB;  // what of a step's log reaches the report folder

// What every step of one grading shares.
struct Grading {
  const GradeOptions& options;
  const Manifest& manifest;
  const Sandbox& sandbox;
  const MemoryCgroups& cgroups;
  fs::path scratch;
  fs::path build;  // the staged course's build folder
  bool gpu = false;

  // A memory cgroup for one step, or none where the machine has none to give.
  std::unique_ptr<MemoryCgroup> cgroup(const std::string& step, std::uint64_t bytes) const {
    static std::atomic<int> counter{0};
    if (!cgroups.available()) return nullptr;
    return cgroups.create(step + "-" + std::to_string(counter++), bytes);
  }
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

std::vector<TestOutcome> run_tests_in_parallel(const Grading& grading, const GradedBinaries& binaries,
                                               const std::vector<std::string>& names,
                                               const std::vector<TestLimits>& limits, const fs::path& scratch) {
  std::vector<TestOutcome> outcomes(names.size());
  std::atomic<std::size_t> next{0};
  std::mutex print;
  std::size_t done = 0;
  const auto worker = [&] {
    for (std::size_t i = next++; i < names.size(); i = next++) {
      try {
        outcomes[i] = run_test(binaries, grading.sandbox, grading.cgroups, names[i], limits[i],
                               scratch / ("test-" + std::to_string(i)));
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
  for (int j = 0; j < std::max(1, grading.options.jobs); ++j) threads.emplace_back(worker);
  for (auto& thread : threads) thread.join();
  return outcomes;
}

// A sandboxed step of the build: cmake and the compiler read the submission.
// It runs in a memory cgroup, writes only to the build folder (its temporary
// files too) and its log goes to the report folder capped.
ProcessResult run_build_step(const Grading& grading, const std::vector<std::string>& argv, const std::string& step,
                             double timeout_s) {
  ProcessLimits limits = ProcessLimits::timeout(timeout_s);
  limits.output_cap_bytes = 200000;
  limits.address_space_bytes = kBuildAddressSpace;
  limits.file_size_bytes = kBuildFileSize;
  limits.max_processes = grading.sandbox.process_limit();
  limits.open_files = 1024;
  const fs::path temporary = grading.build / ".tmp";
  grading.sandbox.hand_over(temporary);
  const auto cgroup = grading.cgroup("build", kBuildMemory);
  SandboxView view;
  view.read_only = {grading.scratch / "stage"};
  view.writable = {grading.build};
  view.cwd = grading.build;
  view.gpu = grading.gpu;
  view.env = {"TMPDIR=" + temporary.string()};
  view.cgroup_procs_fd = cgroup ? cgroup->procs_fd() : -1;
  const fs::path log = grading.scratch / "logs" / (step + ".log");
  ProcessResult result = grading.sandbox.run(argv, view, grading.build, log, limits);
  if (cgroup && cgroup->oom_killed())
    result.output += "\n[the build passed its memory limit of " + std::to_string(kBuildMemory / kMiB) +
                     " MiB and the kernel stopped it]\n";
  text::write_file(grading.options.out / "logs" / (step + ".log"), text::untrusted(result.output, kLogCap));
  return result;
}

std::vector<std::string> rejected_symbols(const Grading& grading, const AssignmentInfo& info) {
  std::vector<fs::path> objects;
  for (const fs::path& folder : Manifest::student_objects(grading.build, info))
    for (const auto& entry : fs::recursive_directory_iterator(folder))
      if (entry.path().extension() == ".o") objects.push_back(entry.path());
  // nm and objdump read what the student's code compiled to: in the sandbox.
  const ToolRunner run = [&](const std::vector<std::string>& argv) {
    SandboxView view;
    view.read_only = {grading.build};
    ProcessLimits limits = ProcessLimits::timeout(120);
    limits.output_cap_bytes = 64u << 20;
    const ProcessResult ran = grading.sandbox.run(argv, view, grading.scratch,
                                                  grading.scratch / (argv[0] + "-" + info.name + ".log"), limits);
    if (!ran.succeeded()) throw std::runtime_error(argv[0] + " failed (" + ran.describe(120) + ")");
    return ran.output;
  };
  try {
    return check_objects(objects, run);
  } catch (const std::exception& error) {
    return {std::string("cannot read the symbols of the compiled student files: ") + error.what()};
  }
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
void add_scaling_plots(const Grading& grading, AssignmentResult& assignment, const AssignmentInfo& info) {
  std::cout << "[" << info.name << "] profiling at growing N for the scaling plots\n" << std::flush;
  const ProcessResult built = run_build_step(grading,
                                             {"cmake", "--build", grading.build.string(), "--target",
                                              info.name + "_profile", "-j", std::to_string(grading.options.jobs)},
                                             info.name + ".profile.build", kBuildTimeout_s);
  // Profiles run one at a time, each with every core, and the same OpenMP
  // settings for the submission's and the reference's.
  const int cores = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  const fs::path& scratch = grading.scratch;
  std::vector<ProfileRow> submission;
  if (!built.succeeded()) {
    assignment.plot_notes.push_back("the profile did not build with your code (" + built.describe(kBuildTimeout_s) +
                                    "): only the reference is drawn");
  } else {
    ProcessLimits limits = ProcessLimits::timeout(kProfileTimeout_s);
    limits.address_space_bytes = kProfileMemory - kDefaultTmpBytes;
    const auto cgroup = grading.cgroup("profile", kProfileMemory);
    SandboxView view;
    view.read_only = {grading.build};
    view.env = openmp_environment(cores);
    view.cgroup_procs_fd = cgroup ? cgroup->procs_fd() : -1;
    const ProcessResult ran = grading.sandbox.run({Manifest::profile_binary(grading.build, info).string()}, view,
                                                  scratch, scratch / (info.name + ".profile.log"), limits);
    std::vector<std::string> messages;
    submission = parse_profile(ran.output, messages);
    constexpr std::size_t kShown = 20;
    for (std::size_t i = 0; i < std::min(messages.size(), kShown); ++i)
      assignment.plot_notes.push_back("your profile: " + messages[i]);
    if (messages.size() > kShown)
      assignment.plot_notes.push_back("your profile printed " + std::to_string(messages.size() - kShown) +
                                      " more lines that are not CSV rows (not shown)");
    if (!ran.succeeded()) assignment.plot_notes.push_back("your profile " + ran.describe(kProfileTimeout_s));
  }
  std::vector<std::string> ignored;
  SpawnOptions reference_options;
  reference_options.env = openmp_environment(cores);
  const ProcessResult reference = run_process({Manifest::profile_binary(grading.manifest.binary_dir, info).string()},
                                              scratch, scratch / (info.name + ".reference-profile.log"),
                                              ProcessLimits::timeout(kProfileTimeout_s), reference_options);
  const ScalingFigures figures = render_scaling_plots(info.name, submission, parse_profile(reference.output, ignored),
                                                      grading.options.out, scratch);
  assignment.plots = figures.images;
  assignment.plot_data = figures.csv;
  assignment.plot_notes.insert(assignment.plot_notes.end(), figures.notes.begin(), figures.notes.end());
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

  if (info.rubric.empty())
    throw std::runtime_error(info.name + " has no grading/rubric.toml in the reference course: nothing to grade it by");
  const Rubric rubric = Rubric::load(info.rubric);
  GradedBinaries binaries;
  binaries.verdict = grading.manifest.verdict_binary(info);
  binaries.worker = Manifest::worker_binary(grading.build, info);
  binaries.worker_build_dir = grading.build;
  binaries.gpu = grading.gpu;
  binaries.seed = seed;
  binaries.openmp_threads = std::max(1, static_cast<int>(std::thread::hardware_concurrency()) / grading.options.jobs);
  const std::vector<std::string> expected = list_tests(binaries.verdict, grading.scratch);
  const std::vector<std::size_t> owner = rubric.assign(expected);

  std::vector<std::string> rejections = rejected_sources(staged, info);
  if (rejections.empty()) {
    std::cout << "[" << info.name << "] building\n" << std::flush;
    const ProcessResult built =
        run_build_step(grading,
                       {"cmake", "--build", grading.build.string(), "--target", Manifest::worker_target(info), "-j",
                        std::to_string(grading.options.jobs)},
                       info.name + ".build", kBuildTimeout_s);
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
  if (assignment.built) {
    std::vector<TestLimits> limits;
    for (const std::size_t g : owner) limits.push_back({rubric.groups[g].timeout_s, rubric.groups[g].memory_limit_mb});
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
  if (info.has_profile && assignment.built) add_scaling_plots(grading, assignment, info);
  return assignment;
}

std::string mib(std::uint64_t bytes) { return std::to_string((bytes + kMiB / 2) / kMiB) + " MiB"; }

// How this grading capped memory, temporary files and scratch space, and the
// peaks it reached: the report's "containment" lines.
std::vector<std::string> containment(const Grading& grading, const ScratchSpace& scratch) {
  std::vector<std::string> lines;
  if (grading.cgroups.available()) {
    const auto peak = grading.cgroups.peak_bytes();
    lines.push_back("Memory: every sandboxed step ran in a memory cgroup (" + grading.cgroups.mechanism() +
                    ") counting its heap, page cache and /tmp together: each test's worker at its rubric group's "
                    "memory_limit_mb, builds at " +
                    mib(kBuildMemory) + ", profiles at " + mib(kProfileMemory) +
                    "; the kernel stops a step that passes its limit. Peak of all steps together: " +
                    (peak ? mib(*peak) : std::string("not kept by this kernel")) + ".");
  } else {
    lines.push_back("Memory: no memory cgroup could be created here (" + grading.cgroups.why_not() +
                    "), so each worker's address space (RLIMIT_AS) was its group's memory_limit_mb minus its /tmp; "
                    "tests that measure the worker's memory from outside were skipped (0 of 0 points).");
  }
  if (!grading.sandbox.isolated()) {
    lines.push_back("/tmp: no sandbox, so no private /tmp: student code could write wherever the grader can.");
  } else if (grading.sandbox.sized_tmp()) {
    lines.push_back("/tmp: each sandboxed step had a private tmpfs (" + mib(kDefaultTmpBytes) +
                    ", and an eighth of the memory limit for tests below 512 MiB), counted in its memory limit.");
  } else {
    lines.push_back(
        "/tmp: read-only in every sandboxed step (this bubblewrap cannot size a tmpfs); builds wrote "
        "their temporary files into the build folder.");
  }
  lines.push_back(scratch.describe());
  return lines;
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
  const MemoryCgroups cgroups = MemoryCgroups::probe(unique_name());
  // CUDA is compiled for a submission only where its GPU tests can also run.
  Grading grading{options,
                  manifest,
                  sandbox,
                  cgroups,
                  scratch.path(),
                  scratch.path() / "build",
                  manifest.with_cuda && gpu_count() > 0};
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

  sandbox.hand_over(grading.build);
  std::cout << "configuring the staged course (CUDA " << (grading.gpu ? "on" : "off") << ", "
            << (sandbox.isolated() ? "sandboxed" : "NOT sandboxed") << ", memory "
            << (cgroups.available() ? cgroups.mechanism() : "rlimits only: " + cgroups.why_not()) << ")\n";
  const ProcessResult configure = run_build_step(
      grading,
      {"cmake", "-S", staged.root.string(), "-B", grading.build.string(), "-DCMAKE_BUILD_TYPE=Release",
       "-DROOFLAB_COURSE_DIR=" + (staged.root / "assignments").string(),
       "-DROOFLAB_GRADING_KIT_DIR=" + (staged.root / "kit").string(), "-DThrust_DIR=" + manifest.thrust_dir.string(),
       "-DROOFLAB_BUILD_TOOLS=OFF", std::string("-DROOFLAB_ENABLE_CUDA=") + (grading.gpu ? "ON" : "OFF")},
      "configure", kConfigureTimeout_s);
  if (!configure.succeeded())
    throw std::runtime_error("the staged course does not configure (a course problem, not the student's); see " +
                             (options.out / "logs" / "configure.log").string() + "\n" + configure.output);

  for (const AssignmentInfo& info : assignments)
    result.assignments.push_back(grade_assignment(grading, staged, info, result.seed));
}

}  // namespace

GradeResult run_grade(const GradeOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  const Manifest manifest = Manifest::load(options.manifest);
  const std::vector<AssignmentInfo> assignments = selected_assignments(manifest, options.only);
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
