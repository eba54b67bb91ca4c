#include "test_runner.hpp"

#include <nlohmann/json.hpp>

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

TestOutcome run_test(const fs::path& binary, const std::string& name, const TestLimits& limits,
                     const fs::path& scratch) {
  TestOutcome outcome;
  outcome.name = name;
  fs::create_directories(scratch);
  const fs::path report = scratch / "report.json";
  fs::remove(report);
  ProcessLimits process_limits = ProcessLimits::timeout(limits.timeout_s);
  process_limits.address_space_bytes = static_cast<std::size_t>(limits.memory_limit_mb * 1024 * 1024);
  const ProcessResult run = run_process(
      {binary.string(), "--gtest_filter=" + name, "--gtest_output=json:" + report.string(), "--gtest_color=no"},
      scratch, scratch / "output.log", process_limits);
  outcome.wall_s = run.wall_s;

  if (run.timed_out || run.signaled) {
    outcome.status = run.timed_out ? TestStatus::timed_out : TestStatus::crashed;
    outcome.message = "the test process " + run.describe(limits.timeout_s) + "\n" + tail(run.output, kMessageCap);
    return outcome;
  }
  // The verdict: gtest's own report for exactly this test, plus a clean exit.
  bool reported = false;
  bool skipped = false;
  std::string failures;
  if (fs::exists(report)) {
    try {
      const nlohmann::json parsed = nlohmann::json::parse(text::read_file(report));
      for (const auto& suite : parsed.at("testsuites")) {
        for (const auto& test : suite.at("testsuite")) {
          if (suite.at("name").get<std::string>() + "." + test.at("name").get<std::string>() != name) continue;
          reported = true;
          skipped = test.contains("result") && test.at("result") == "SKIPPED";
          if (test.contains("failures")) {
            for (const auto& failure : test.at("failures")) failures += failure.value("failure", "") + "\n";
          }
        }
      }
    } catch (const nlohmann::json::exception&) {
      reported = false;
    }
  }
  if (!reported) {
    outcome.status = TestStatus::failed;
    outcome.message =
        "the test did not report a result (" + run.describe(limits.timeout_s) + ")\n" + tail(run.output, kMessageCap);
  } else if (skipped) {
    outcome.status = TestStatus::skipped;
    outcome.message = tail(run.output, kMessageCap);
  } else if (failures.empty() && run.exit_code == 0) {
    outcome.status = TestStatus::passed;
  } else {
    outcome.status = TestStatus::failed;
    outcome.message = failures.empty() ? "the test process ended with " + run.describe(limits.timeout_s) + "\n" +
                                             tail(run.output, kMessageCap)
                                       : text::truncate(failures, kMessageCap);
  }
  return outcome;
}

}  // namespace rooflab
