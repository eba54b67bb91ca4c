#include "run/test_runner.hpp"

#include "pipeline/grading.hpp"

#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <memory>
#include <optional>
#include <stdexcept>

#include "os/process.hpp"
#include "os/stop_signals.hpp"
#include "text/text.hpp"
#include "verdict/verdict_decision.hpp"

namespace rooflab {
namespace fs = std::filesystem;

std::vector<std::string> list_tests(const fs::path& binary, const fs::path& scratch) {
  const ProcessResult listing = run_process({binary.string(), "--gtest_list_tests"}, scratch,
                                            scratch / "list_tests.log", ProcessLimits::timeout(60));
  if (!listing.succeeded())
    throw std::runtime_error("cannot list the tests of " + binary.string() + " (" + listing.describe(60) + ")\n" +
                             listing.output);
  std::vector<std::string> names;
  std::string suite;
  for (const std::string& line : text::split_lines(listing.output)) {
    if (line.empty()) continue;
    const std::string first_word = text::trim(line.substr(0, line.find('#')));
    if (line[0] != ' ') {
      suite = first_word;  // "Suite." (with the trailing dot)
    } else if (!suite.empty()) {
      names.push_back(suite + first_word);
    }
  }
  return names;
}

namespace {

constexpr std::uint64_t kWorkerFileSizeLimit = 64u << 20;
constexpr std::uint64_t kWorkerOpenFiles = 256;
constexpr double kWorkerGrace_s = 2;  // after the verdict ends, to exit on its own

}  // namespace

std::optional<double> TestTime::cpu_budget_s() const {
  if (!counts_cpu_time) return std::nullopt;
  return limit_s * std::max(1, threads);
}

double TestTime::wall_s() const { return counts_cpu_time ? kWallBackstop * limit_s + kWallBackstopSlack_s : limit_s; }

TestTime test_time(const Grading& grading, const TestLimits& limits, int threads) {
  return {limits.timeout_s, threads, !grading.cpu.available()};
}

std::vector<std::string> openmp_environment(int threads) {
  return {"OMP_NUM_THREADS=" + std::to_string(threads), "OMP_WAIT_POLICY=passive"};
}

TestOutcome run_test(const Grading& grading, const GradedBinaries& binaries, const std::string& name,
                     const TestLimits& limits, const fs::path& scratch) {
  const Sandbox& sandbox = grading.sandbox;
  const MemoryCgroups& cgroups = grading.cgroups;
  fs::create_directories(scratch);
  const fs::path report_path = scratch / "report.json";
  fs::remove(report_path);

  // The group's memory budget: the worker's /tmp (a tmpfs, so memory) and its
  // address space share it; a memory cgroup, where there is one, holds both.
  const auto budget = static_cast<std::uint64_t>(limits.memory_limit_mb * 1024 * 1024);
  const std::uint64_t tmp_bytes = std::min(kDefaultTmpBytes, budget / 8);
  // Its own pids cgroup too: a fork bomb fills this test's worker, no other.
  StepCgroups step = grading.step_cgroups(scratch.parent_path().filename().string() + "-" + scratch.filename().string(),
                                          budget, kRunTasks + static_cast<std::uint64_t>(binaries.openmp_threads));
  const MemoryCgroup* cgroup = step.memory.get();

  int fds[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
    throw std::runtime_error(std::string("socketpair: ") + std::strerror(errno));

  // Where the grading's steps have cpu cgroups, a busy machine still gives
  // this test its share of the cores, and its limit is wall-clock time. Where
  // they have none, its limit counts the CPU time its processes use (a busy
  // machine then makes it take longer, never fail), and wall-clock time is a
  // backstop several times larger, for a test that sleeps or deadlocks.
  const TestTime time = test_time(grading, limits, binaries.openmp_threads);
  const std::optional<double> cpu_budget = time.cpu_budget_s();

  // The worker: student code, sandboxed, every rlimit.
  ProcessLimits worker_limits = ProcessLimits::timeout(time.wall_s() + kWorkerGrace_s);
  worker_limits.cpu_s = cpu_budget;
  if (!binaries.gpu)  // CUDA reserves far more address space than it uses
    worker_limits.address_space_bytes = budget - tmp_bytes;
  worker_limits.file_size_bytes = kWorkerFileSizeLimit;
  worker_limits.max_processes = grading.process_rlimit();
  worker_limits.open_files = kWorkerOpenFiles;
  const fs::path worker_cwd = scratch / "worker-cwd";  // used only where there is no sandbox
  sandbox.hand_over(worker_cwd);
  SandboxView view;
  view.read_only = {binaries.worker_build_dir};
  view.gpu = binaries.gpu;
  view.env = openmp_environment(binaries.openmp_threads);
  view.tmp_bytes = tmp_bytes;
  view.cgroup_procs_fds = step.procs_fds();
  Child worker =
      sandbox.spawn({binaries.worker.string(), "3"}, view, worker_cwd, scratch / "worker.log", worker_limits, fds[0]);

  // The verdict: the test's assertions, no student code. It may read the
  // worker's memory as the kernel counts it, never as the worker reports it.
  ProcessLimits verdict_limits = ProcessLimits::timeout(time.wall_s());
  verdict_limits.cpu_s = cpu_budget;
  verdict_limits.address_space_bytes = static_cast<std::size_t>(budget);
  SpawnOptions verdict_options;
  verdict_options.pass_fd = fds[1];
  verdict_options.env = openmp_environment(binaries.openmp_threads);
  verdict_options.env.insert(
      verdict_options.env.end(),
      {"ROOFLAB_RPC_FD=3", "ROOFLAB_SEED=" + std::to_string(binaries.seed),
       "ROOFLAB_WORKER_MEMORY=" + (cgroup ? cgroup->locator()
                                          : "unavailable:this grading machine has no memory cgroup for the worker (" +
                                                cgroups.why_not() + ")")});
  // Where the worker's kernels run in the CPU runtime, the verdict sees no GPU
  // either, so that its tests ask what they ask on a machine without one (a
  // backend's availability, the leaderboard's shape): the same tests, the
  // same score, on every machine.
  if (!binaries.gpu) verdict_options.env.push_back("CUDA_VISIBLE_DEVICES=");
  Child verdict = spawn_process({binaries.verdict.string(), "--gtest_filter=" + name,
                                 "--gtest_output=json:" + report_path.string(), "--gtest_color=no"},
                                scratch, scratch / "output.log", verdict_limits, verdict_options);
  ::close(fds[0]);
  ::close(fds[1]);

  ProcessResult run;
  try {
    run = wait_process(verdict);
  } catch (const Stopped&) {  // the grading was stopped: its worker too
    end_process(worker);
    throw;
  }
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - worker.start).count();
  worker.limits.timeout_s = run.timed_out ? 0 : std::min(worker.limits.timeout_s, elapsed + kWorkerGrace_s);
  ProcessResult worker_run = wait_process(worker);
  sandbox.read_exit(worker_run);
  // The test's CPU time is its two processes' together.
  if (cpu_budget && !run.timed_out && run.cpu_s + worker_run.cpu_s > *cpu_budget) {
    run.timed_out = run.over_cpu = true;
    run.cpu_s += worker_run.cpu_s;
  }

  std::optional<std::string> report;
  if (fs::exists(report_path)) report = text::read_file(report_path);
  const bool over_memory = cgroup && cgroup->oom_killed();
  TestOutcome outcome = decide_outcome(name, report, run, worker_run, time.wall_s(),
                                       over_memory ? std::optional<double>(limits.memory_limit_mb) : std::nullopt);
  step = {};  // the worker's cgroups go, with anything still in them
  std::error_code ignored;
  fs::remove_all(scratch, ignored);  // its logs can be 64 MiB: only the outcome's excerpt is kept
  return outcome;
}

}  // namespace rooflab
