// `rooflab grade-all ROSTER`: grade a whole class (autograder/src/class/).
#include <unistd.h>

#include <climits>
#include <iostream>

#include "class/grade_all.hpp"
#include "commands.hpp"
#include "os/stop_signals.hpp"
#include "text/text.hpp"

namespace rooflab::cli {
namespace {

// This program's own path: each submission is graded by a `rooflab grade` of its own.
std::filesystem::path this_program() {
  char path[PATH_MAX];
  const ssize_t length = ::readlink("/proc/self/exe", path, sizeof path - 1);
  return length > 0 ? std::filesystem::path(std::string(path, static_cast<std::size_t>(length)))
                    : kBinaryDir / "rooflab";
}

}  // namespace

void add_grade_all(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<GradeAllOptions>();
  auto seed = std::make_shared<std::uint64_t>(0);
  options->manifest = kBinaryDir / "rooflab_manifest.json";
  CLI::App* command = app.add_subcommand(
      "grade-all", "Grade a class: a folder of submissions, a CSV roster or a GitHub Classroom export");
  command->add_option("ROSTER", options->roster, "folder of submissions, or CSV (student,submission)")->required();
  command->add_option("--out", options->out, "output folder (default: grades/class-<roster name>)");
  command->add_option("-j,--jobs", options->workers, "submissions graded at once (default 1)")
      ->check(CLI::PositiveNumber);
  command->add_option("--test-jobs", options->jobs, "tests run in parallel within one grading (default 1)")
      ->check(CLI::PositiveNumber);
  command->add_option("--assignment", options->only, "grade only this assignment (repeatable)");
  CLI::Option* seed_option = command->add_option(
      "--seed", *seed, "course seed: each student's hidden-test seed is derived from it and their identifier");
  auto deadline = std::make_shared<std::string>();
  command->add_option("--deadline", *deadline,
                      "grade git submissions at their last commit at or before TIME (ISO 8601 with a zone, e.g. "
                      "2026-12-01T23:59:00Z or 2026-12-01T23:59:00+01:00)");
  command->add_flag("--regrade", options->regrade, "grade every submission, even those unchanged since last time");
  command->add_flag("--require-sandbox", options->require_sandbox,
                    "refuse to grade a submission where bubblewrap cannot run (for exams)");
  command->add_option("--timeout", options->timeout_s, "seconds one submission may take (default 3600)")
      ->check(CLI::PositiveNumber);
  command->add_flag("--slurm", options->slurm,
                    "grade as a Slurm job array (sbatch --array, -j tasks at a time) into the same output folder");
  command->add_option("--slurm-gres", options->slurm_gres,
                      "--slurm: each task's --gres: auto (gpu:1 when a graded lab has CUDA kernels), none, or a spec");
  command->add_option(
      "--sbatch-option", options->sbatch_options,
      "--slurm: an option passed to sbatch as it is, e.g. --sbatch-option=--partition=gpu (repeatable)");
  auto task = std::make_shared<std::size_t>(0);
  CLI::Option* task_option =
      command->add_option("--task", *task, "grade only roster entry N (what each Slurm array task runs)");
  command->callback([options, seed, seed_option, deadline, task, task_option, &exit_code] {
    GradeAllOptions chosen = *options;
    if (seed_option->count() > 0) chosen.seed = *seed;
    if (!deadline->empty()) {
      chosen.deadline = parse_deadline(*deadline);
      if (!chosen.deadline) {
        std::cerr << "grade-all: --deadline " << text::untrusted_line(*deadline, 80)
                  << ": not an ISO 8601 time with a zone, e.g. 2026-12-01T23:59:00Z or 2026-12-01T23:59:00+01:00\n";
        exit_code = 2;
        return;
      }
    }
    if (task_option->count() > 0) chosen.task = *task;
    if (chosen.out.empty())
      chosen.out = std::filesystem::current_path() / "grades" / ("class-" + chosen.roster.stem().string());
    chosen.rooflab = this_program();
    note_stop_signals();  // a time limit's SIGTERM, or Ctrl-C: each grading cleans up, then this stops
    exit_code = run_grade_all(chosen);
  });
}

}  // namespace rooflab::cli
