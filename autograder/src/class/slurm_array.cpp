#include "class/slurm_array.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdint>
#include <iostream>
#include <string>
#include <thread>

#include "class/grade_all_text.hpp"
#include "class/graded_assignments.hpp"
#include "class/grading_progress.hpp"
#include "class/student_seed.hpp"
#include "os/process.hpp"
#include "pipeline/grade_command.hpp"
#include "score/rubric.hpp"
#include "stage/manifest.hpp"
#include "text/text.hpp"

namespace rooflab {
namespace fs = std::filesystem;

std::uint64_t grading_memory_mb(const fs::path& manifest_path, const std::vector<std::string>& only, int test_jobs) {
  // What one grading may hold at once, in MiB:
  //   test_jobs x max(largest memory_limit_mb of the graded rubrics, 1024)
  //       `rooflab grade -j N` runs up to N test workers at once, each stopped
  //       at its group's memory_limit_mb (its whole budget: heap, page cache
  //       and /tmp); the build runs up to N compilers, under 1 GiB each for
  //       this course's sources;
  //   + the scratch space cap (GradeOptions::scratch_mb, 4096): where the
  //       grader is root it is a tmpfs, whose files are memory charged to
  //       the job (the stage, the build tree, the tests' logs);
  //   + 512 for the grader itself, the verdict processes, cmake and git.
  // A node's memory cgroup (Slurm's task/cgroup) kills the whole task past
  // --mem, so this errs on the large side; --sbatch-option=--mem=... overrides.
  const Manifest manifest = Manifest::load(manifest_path);
  double largest = 1024;
  for (const AssignmentInfo& info : class_grading::graded_assignments(manifest, only)) {
    if (info.rubric.empty()) continue;
    const Rubric rubric = Rubric::load(info.rubric);
    largest = std::max(largest, rubric.memory_limit_mb);
    for (const RubricGroup& group : rubric.groups) largest = std::max(largest, group.memory_limit_mb);
  }
  return static_cast<std::uint64_t>(std::max(1, test_jobs)) * static_cast<std::uint64_t>(std::ceil(largest)) +
         GradeOptions{}.scratch_mb + 512;
}

namespace class_grading {
namespace {

// Whether the graded labs have code a GPU runs (then each task asks Slurm for a
// GPU, where the grader cross-checks their tests and times the leaderboard).
bool needs_gpu(const GradeAllOptions& options) {
  for (const AssignmentInfo& info : graded_assignments(Manifest::load(options.manifest), options.only))
    if (info.runs_on_gpu()) return true;
  return false;
}

std::string shell_quoted(const std::string& text) {
  std::string quoted = "'";
  for (const char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

}  // namespace

std::vector<Outcome> grade_on_slurm(const std::vector<RosterEntry>& roster, const GradeAllOptions& options,
                                    int workers) {
  const fs::path slurm = options.out / "slurm";
  fs::create_directories(slurm);
  for (const RosterEntry& entry : roster) fs::remove(options.out / entry.student / "outcome.json");
  std::string task = "exec " + shell_quoted(options.rooflab.string()) + " grade-all " +
                     shell_quoted(fs::absolute(options.roster).string()) + " --out " +
                     shell_quoted(fs::absolute(options.out).string()) + " --task \"$SLURM_ARRAY_TASK_ID\"" +
                     " --test-jobs " + std::to_string(options.jobs) + " --timeout " + plain_number(options.timeout_s);
  for (const std::string& name : options.only) task += " --assignment " + shell_quoted(name);
  if (options.seed) task += " --seed " + std::to_string(*options.seed);  // each task derives its student's
  if (options.deadline) task += " --deadline " + shell_quoted(options.deadline->utc);
  if (options.regrade) task += " --regrade";
  if (options.require_sandbox) task += " --require-sandbox";
  text::write_file(slurm / "grade_one.sh",
                   "#!/bin/sh\n# One submission of the roster, as Slurm array task N.\n" + task + "\n");
  fs::permissions(slurm / "grade_one.sh", fs::perms::owner_all, fs::perm_options::add);

  std::vector<std::string> sbatch{"sbatch",
                                  "--wait",
                                  "--parsable",
                                  "--job-name=rooflab-grade",
                                  "--array=0-" + std::to_string(roster.size() - 1) + "%" + std::to_string(workers),
                                  "--cpus-per-task=" + std::to_string(options.jobs),
                                  "--time=" + std::to_string(static_cast<long>(options.timeout_s / 60) + 5),
                                  "--output=" + (slurm / "task-%a.log").string()};
  const std::string gres = options.slurm_gres == "auto" ? (needs_gpu(options) ? "gpu:1" : "") : options.slurm_gres;
  if (!gres.empty() && gres != "none") sbatch.push_back("--gres=" + gres);
  // Memory: what the graded rubrics let one grading use (grading_memory_mb),
  // unless the instructor chose it (--mem, --mem-per-cpu or --mem-per-gpu).
  const bool memory_chosen = std::any_of(options.sbatch_options.begin(), options.sbatch_options.end(),
                                         [](const std::string& option) { return text::starts_with(option, "--mem"); });
  if (!memory_chosen)
    sbatch.push_back("--mem=" + std::to_string(grading_memory_mb(options.manifest, options.only, options.jobs)) + "M");
  sbatch.insert(sbatch.end(), options.sbatch_options.begin(), options.sbatch_options.end());
  sbatch.push_back((slurm / "grade_one.sh").string());
  // The command as run, for the instructor (and the test) to read.
  std::string command;
  for (const std::string& word : sbatch) {  // appended piecewise: GCC 12's -Wrestrict misfires on `"" + std::string`
    if (!command.empty()) command += ' ';
    command += shell_quoted(word);
  }
  text::write_file(slurm / "sbatch_command.sh", "#!/bin/sh\n# The job array grade-all submitted.\n" + command + "\n");
  std::cerr << "grade-all: a Slurm job array of " << roster.size() << " tasks, " << workers << " at a time"
            << (gres.empty() || gres == "none" ? "" : ", each with --gres=" + gres) << "\n";

  // sbatch --wait returns when the array has ended, but it polls Slurm with
  // a growing interval: measured on a single-node cluster, 33 s after the
  // last of three 4-s tasks ended. Each task's last act is its outcome file,
  // so once every outcome is in, nothing is left to wait for: sbatch is told
  // to stop waiting (SIGTERM; the jobs have ended or are exiting) rather
  // than waited out.
  Child child = spawn_process(sbatch, slurm, slurm / "sbatch.log",
                              ProcessLimits::timeout(options.timeout_s * static_cast<double>(roster.size()) + 600));
  ProcessResult submitted;
  std::atomic<bool> finished{false};
  std::thread waiter([&] {
    submitted = wait_process(child);
    finished = true;
  });
  Progress progress(roster.size(), workers);
  std::vector<bool> reported(roster.size(), false);
  const auto report_new = [&] {
    for (std::size_t i = 0; i < roster.size(); ++i) {
      if (reported[i]) continue;
      if (const auto outcome = read_outcome(options.out, roster[i])) {
        reported[i] = true;
        progress.finished(*outcome);
      }
    }
  };
  bool every_outcome_in = false;
  while (!finished) {
    report_new();
    if (std::find(reported.begin(), reported.end(), false) == reported.end()) {
      every_outcome_in = true;
      ::kill(-child.pid, SIGTERM);  // its own process group (spawn_process); reaped by the waiter
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
  waiter.join();
  report_new();
  if (!every_outcome_in && !submitted.succeeded())
    std::cerr << "grade-all: sbatch ended with exit " << submitted.exit_code << ": " << submitted.output.substr(0, 2000)
              << "\n";

  std::vector<Outcome> outcomes;
  for (std::size_t i = 0; i < roster.size(); ++i) {
    if (auto outcome = read_outcome(options.out, roster[i])) {
      outcomes.push_back(*outcome);
      continue;
    }
    Outcome missing;
    missing.student = roster[i].student;
    missing.identifier = roster[i].identifier;
    if (options.seed) missing.seed = std::to_string(student_seed(*options.seed, roster[i].identifier));
    missing.why = "its Slurm task left no outcome (see slurm/task-" + std::to_string(i) + ".log)";
    outcomes.push_back(missing);
  }
  return outcomes;
}

}  // namespace class_grading
}  // namespace rooflab
