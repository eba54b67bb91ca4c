#include "test_runner.hpp"

#include <sys/socket.h>
#include <unistd.h>
#include <nlohmann/json.hpp>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <stdexcept>

#include "process.hpp"
#include "text.hpp"

namespace rooflab {
namespace fs = std::filesystem;
namespace {

constexpr std::size_t kMessageCap = 4000;

// The tail of a long output is where a crash or exception says what happened.
std::string tail(const std::string& text, std::size_t limit) {
  if (text.size() <= limit) return text;
  return "[... " + std::to_string(text.size() - limit) + " bytes cut]\n" + text.substr(text.size() - limit);
}

}  // namespace

const char* to_string(TestStatus status) {
  switch (status) {
    case TestStatus::passed:
      return "passed";
    case TestStatus::failed:
      return "failed";
    case TestStatus::skipped:
      return "skipped";
    case TestStatus::crashed:
      return "crashed";
    case TestStatus::timed_out:
      return "timed out";
    case TestStatus::not_built:
      return "not built";
  }
  return "unknown";
}

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

struct Report {
  bool reported = false;
  bool skipped = false;
  std::size_t tests_in_report = 0;
  std::string failures;
};

// gtest's JSON report of the verdict process (which holds no student code).
Report read_report(const fs::path& path, const std::string& name) {
  Report report;
  if (!fs::exists(path)) return report;
  try {
    const nlohmann::json parsed = nlohmann::json::parse(text::read_file(path));
    for (const auto& suite : parsed.at("testsuites")) {
      for (const auto& test : suite.at("testsuite")) {
        ++report.tests_in_report;
        if (suite.at("name").get<std::string>() + "." + test.at("name").get<std::string>() != name) continue;
        report.reported = true;
        report.skipped = test.contains("result") && test.at("result") == "SKIPPED";
        if (test.contains("failures")) {
          for (const auto& failure : test.at("failures")) report.failures += failure.value("failure", "") + "\n";
        }
      }
    }
  } catch (const nlohmann::json::exception&) {
    report.reported = false;
  }
  return report;
}

std::string worker_story(const ProcessResult& worker, double timeout_s) {
  std::string story;
  if (worker.timed_out || worker.signaled || worker.exit_code != 0)
    story += "the worker running your code: " + worker.describe(timeout_s) + "\n";
  if (!worker.output.empty()) story += "your code printed:\n" + tail(worker.output, kMessageCap / 2);
  return story;
}

}  // namespace

std::vector<std::string> openmp_environment(int threads) {
  return {"OMP_NUM_THREADS=" + std::to_string(threads), "OMP_WAIT_POLICY=passive"};
}

TestOutcome run_test(const GradedBinaries& binaries, const Sandbox& sandbox, const std::string& name,
                     const TestLimits& limits, const fs::path& scratch) {
  TestOutcome outcome;
  outcome.name = name;
  fs::create_directories(scratch);
  const fs::path report_path = scratch / "report.json";
  fs::remove(report_path);

  int fds[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
    throw std::runtime_error(std::string("socketpair: ") + std::strerror(errno));

  // The worker: student code, sandboxed, every rlimit.
  ProcessLimits worker_limits = ProcessLimits::timeout(limits.timeout_s + kWorkerGrace_s);
  if (!binaries.gpu)  // CUDA reserves far more address space than it uses
    worker_limits.address_space_bytes = static_cast<std::size_t>(limits.memory_limit_mb * 1024 * 1024);
  worker_limits.file_size_bytes = kWorkerFileSizeLimit;
  worker_limits.max_processes = sandbox.process_limit();
  worker_limits.open_files = kWorkerOpenFiles;
  const fs::path worker_cwd = scratch / "worker-cwd";  // used only where there is no sandbox
  sandbox.hand_over(worker_cwd);
  SandboxView view;
  view.read_only = {binaries.worker_build_dir};
  view.gpu = binaries.gpu;
  view.env = openmp_environment(binaries.openmp_threads);
  Child worker =
      sandbox.spawn({binaries.worker.string(), "3"}, view, worker_cwd, scratch / "worker.log", worker_limits, fds[0]);

  // The verdict: the test's assertions, no student code.
  ProcessLimits verdict_limits = ProcessLimits::timeout(limits.timeout_s);
  verdict_limits.address_space_bytes = static_cast<std::size_t>(limits.memory_limit_mb * 1024 * 1024);
  SpawnOptions verdict_options;
  verdict_options.pass_fd = fds[1];
  verdict_options.env = openmp_environment(binaries.openmp_threads);
  verdict_options.env.insert(verdict_options.env.end(),
                             {"ROOFLAB_RPC_FD=3", "ROOFLAB_SEED=" + std::to_string(binaries.seed)});
  Child verdict = spawn_process({binaries.verdict.string(), "--gtest_filter=" + name,
                                 "--gtest_output=json:" + report_path.string(), "--gtest_color=no"},
                                scratch, scratch / "output.log", verdict_limits, verdict_options);
  ::close(fds[0]);
  ::close(fds[1]);

  const ProcessResult run = wait_process(verdict);
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - worker.start).count();
  worker.limits.timeout_s = run.timed_out ? 0 : std::min(worker.limits.timeout_s, elapsed + kWorkerGrace_s);
  ProcessResult worker_run = wait_process(worker);
  sandbox.read_exit(worker_run);
  outcome.wall_s = run.wall_s;

  if (run.timed_out) {
    outcome.status = TestStatus::timed_out;
    outcome.message = "the test " + run.describe(limits.timeout_s) + "\n" + worker_story(worker_run, limits.timeout_s);
    return outcome;
  }
  const Report report = read_report(report_path, name);
  const std::string story = worker_story(worker_run, limits.timeout_s);
  if (run.signaled || !report.reported || report.tests_in_report != 1) {
    outcome.status = worker_run.signaled ? TestStatus::crashed : TestStatus::failed;
    outcome.message = "the test did not report exactly one verdict (" + run.describe(limits.timeout_s) + ")\n" +
                      tail(run.output, kMessageCap) + story;
  } else if (report.skipped) {
    outcome.status = TestStatus::skipped;
    outcome.message = tail(run.output, kMessageCap);
  } else if (report.failures.empty() && run.exit_code == 0) {
    outcome.status = TestStatus::passed;
  } else {
    outcome.status = worker_run.signaled || worker_run.timed_out ? TestStatus::crashed : TestStatus::failed;
    outcome.message = (report.failures.empty() ? "the test process ended with " + run.describe(limits.timeout_s) +
                                                     "\n" + tail(run.output, kMessageCap)
                                               : text::truncate(report.failures, kMessageCap)) +
                      story;
  }
  return outcome;
}

}  // namespace rooflab
