#include "verdict/verdict_decision.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "text/text.hpp"

namespace rooflab {
namespace {

constexpr std::size_t kMessageCap = 4000;

// The tail of a long output is where a crash or exception says what happened.
std::string tail(const std::string& text, std::size_t limit) {
  if (text.size() <= limit) return text;
  return "[... " + std::to_string(text.size() - limit) + " bytes cut]\n" + text.substr(text.size() - limit);
}

std::string worker_story(const ProcessResult& worker, double timeout_s, std::optional<double> memory_limit_mb) {
  std::string story;
  if (memory_limit_mb) {
    char limit[32];
    std::snprintf(limit, sizeof limit, "%g", *memory_limit_mb);
    story += std::string("the kernel stopped your code at this test's memory limit of ") + limit +
             " MiB (heap, page cache and /tmp files together)\n";
  }
  if (worker.timed_out || worker.signaled || worker.exit_code != 0)
    story += "the worker running your code: " + worker.describe(timeout_s) + "\n";
  if (!worker.output.empty()) story += "your code printed:\n" + tail(worker.output, kMessageCap / 2);
  return story;
}

// gtest's JSON report writes each byte of a non-ASCII character as its own
// \u00XX escape ("×" becomes "\u00c3\u0097"). Where every character of the
// parsed text is below U+0100, those are the original bytes: put them back.
std::string gtest_bytes(const std::string& parsed) {
  std::string bytes;
  for (std::size_t i = 0; i < parsed.size(); ++i) {
    const auto lead = static_cast<unsigned char>(parsed[i]);
    if (lead < 0x80) {
      bytes += parsed[i];
    } else if ((lead == 0xc2 || lead == 0xc3) && i + 1 < parsed.size()) {
      bytes += static_cast<char>(((lead & 0x1fu) << 6) | (static_cast<unsigned char>(parsed[++i]) & 0x3fu));
    } else {
      return parsed;  // a character beyond U+00FF: not gtest's byte escapes
    }
  }
  return bytes;
}

// gtest writes a property as a string; anything but a whole finite positive
// number (the verdict's own "%.9g") is no time.
std::optional<double> seconds_in(const nlohmann::json& value) {
  if (!value.is_string()) return std::nullopt;
  const std::string text = value.get<std::string>();
  char* end = nullptr;
  const double seconds = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(seconds) || !(seconds > 0))
    return std::nullopt;
  return seconds;
}

}  // namespace

VerdictReport parse_verdict_report(const std::string& json, const std::string& name) {
  VerdictReport report;
  try {
    const nlohmann::json parsed = nlohmann::json::parse(json);
    for (const auto& suite : parsed.at("testsuites")) {
      for (const auto& test : suite.at("testsuite")) {
        ++report.tests_in_report;
        if (suite.at("name").get<std::string>() + "." + test.at("name").get<std::string>() != name) continue;
        report.names_the_test = true;
        report.skipped = test.contains("result") && test.at("result") == "SKIPPED";
        if (test.contains(kLeaderboardProperty)) report.leaderboard_s = seconds_in(test.at(kLeaderboardProperty));
        if (test.contains("failures"))
          for (const auto& failure : test.at("failures"))
            report.failures += gtest_bytes(failure.value("failure", "")) + "\n";
      }
    }
  } catch (const nlohmann::json::exception&) {
    return VerdictReport{};
  }
  return report;
}

TestOutcome decide_outcome(const std::string& name, const std::optional<std::string>& report_json,
                           const ProcessResult& verdict, const ProcessResult& worker, double timeout_s,
                           std::optional<double> stopped_at_memory_limit_mb) {
  TestOutcome outcome;
  outcome.name = name;
  outcome.wall_s = verdict.wall_s;
  const std::string story = worker_story(worker, timeout_s, stopped_at_memory_limit_mb);
  if (verdict.timed_out) {
    outcome.status = TestStatus::timed_out;
    outcome.message = "the test " + verdict.describe(timeout_s) + "\n" + story;
    return outcome;
  }
  const VerdictReport report = report_json ? parse_verdict_report(*report_json, name) : VerdictReport{};
  if (verdict.signaled || !report.names_the_test || report.tests_in_report != 1) {
    outcome.status = worker.signaled ? TestStatus::crashed : TestStatus::failed;
    outcome.message = "the test did not report exactly one verdict (" + verdict.describe(timeout_s) + ")\n" +
                      tail(verdict.output, kMessageCap) + story;
  } else if (report.skipped) {
    outcome.status = TestStatus::skipped;
    outcome.message = tail(verdict.output, kMessageCap);
  } else if (report.failures.empty() && verdict.exit_code == 0) {
    outcome.status = TestStatus::passed;
    outcome.measured_s = report.leaderboard_s;
  } else {
    outcome.status = worker.signaled || worker.timed_out ? TestStatus::crashed : TestStatus::failed;
    outcome.message = (report.failures.empty() ? "the test process ended with " + verdict.describe(timeout_s) + "\n" +
                                                     tail(verdict.output, kMessageCap)
                                               : text::truncate(report.failures, kMessageCap)) +
                      story;
  }
  return outcome;
}

}  // namespace rooflab
