// `rooflab grade SUBMISSION`: grade one submission (autograder/README.md).
#include <chrono>
#include <ctime>
#include <iostream>

#include "commands.hpp"
#include "os/stop_signals.hpp"
#include "pipeline/grade_command.hpp"

namespace rooflab::cli {
namespace {

// grades/<submission name>-<YYYYmmdd-HHMMSS>: a new folder per run by default.
std::filesystem::path default_out(const std::filesystem::path& submission) {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", std::localtime(&now));
  std::string stem = std::filesystem::absolute(submission).lexically_normal().filename().stem().string();
  if (stem.empty()) stem = "submission";
  return std::filesystem::path("grades") / (stem + "-" + stamp);
}

struct GradeFlags {
  GradeOptions options;
  bool require_sandbox = false, no_sandbox = false, no_plots = false, no_cpu_cgroups = false;
  std::uint64_t seed = 0;
  CLI::Option* seed_option = nullptr;
  std::string gpu_check = "auto";
};

}  // namespace

void add_grade(CLI::App& app, int& exit_code) {
  auto flags = std::make_shared<GradeFlags>();
  GradeOptions& grade = flags->options;
  grade.submission = kSourceDir / "examples" / "submissions" / "partial";
  grade.manifest = kBinaryDir / "rooflab_manifest.json";
  CLI::App* command = app.add_subcommand("grade", "Grade one submission: build it, run the hidden tests, report");
  command->add_option("submission", grade.submission,
                      "folder, .zip or git repository (default: the bundled example examples/submissions/partial)");
  command
      ->add_option("--manifest", grade.manifest, "rooflab_manifest.json of the reference build (default: this build's)")
      ->check(CLI::ExistingFile);
  command->add_option("--out", grade.out, "report folder (default: grades/<name>-<time>)");
  command->add_flag("--force", grade.force, "Overwrite a report already in --out");
  command->add_option("-j,--jobs", grade.jobs, "parallel test processes")
      ->check(CLI::PositiveNumber)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);  // `lab grade` passes its -j first
  auto* require_flag =
      command->add_flag("--require-sandbox", flags->require_sandbox, "Refuse to grade where bubblewrap cannot run");
  command->add_flag("--no-sandbox", flags->no_sandbox, "Run student code with rlimits only (the report says so)")
      ->excludes(require_flag);
  command->add_option("--assignment", grade.only, "grade only this assignment (repeatable; default: all)");
  command
      ->add_option("--scratch-mb", grade.scratch_mb,
                   "cap on the grading's working folder: stage, build and logs (default 4096)")
      ->check(CLI::PositiveNumber);
  flags->seed_option = command->add_option("--seed", flags->seed, "seed of the hidden tests' inputs (default: random)");
  command->add_flag("--no-plots", flags->no_plots,
                    "Skip the profiles' scaling runs and figures (informational, never scored): a quicker grading");
  command->add_flag("--no-cpu-cgroups", flags->no_cpu_cgroups,
                    "Give the steps no cpu cgroups, as on a machine where the grader cannot create them: each "
                    "test's time limit then counts its processes' CPU time, with a wall-clock backstop");
  command
      ->add_option("--gpu-check", flags->gpu_check,
                   "auto (default): where a GPU is, also run the CUDA labs' tests on it and report where it "
                   "disagrees with the CPU runtime, whose tests alone decide the score; off; on: also where no GPU "
                   "is seen (its tests then fail there: for checking the grader)")
      ->check(CLI::IsMember({"auto", "on", "off"}));
  command->callback([flags, &exit_code] {
    GradeOptions options = flags->options;
    if (options.out.empty()) options.out = default_out(options.submission);
    if (flags->require_sandbox) options.sandbox = SandboxMode::required;
    if (flags->no_sandbox) options.sandbox = SandboxMode::off;
    if (*flags->seed_option) options.seed = flags->seed;
    options.plots = !flags->no_plots;
    options.cpu_cgroups = !flags->no_cpu_cgroups;
    options.gpu_check = flags->gpu_check == "on"    ? GpuCheck::on
                        : flags->gpu_check == "off" ? GpuCheck::off
                                                    : GpuCheck::automatic;
    note_stop_signals();  // a time limit's SIGTERM, or Ctrl-C: clean up, then stop
    const GradeResult result = run_grade(options);
    print_summary(result, std::cout);
    std::cout << "report: " << (options.out / "report.md").string() << "\n";
    exit_code = 0;
  });
}

}  // namespace rooflab::cli
