// The pass/fail decision of one graded test, as a pure function of what the
// verdict process (no student code) reported and how both processes ended.
// The worker's fate only explains a failure; it never makes a pass.
#pragma once

#include <optional>
#include <string>

#include "os/process.hpp"
#include "verdict/test_outcome.hpp"

namespace rooflab {

// The gtest property in which a leaderboard test records its best time in
// seconds (rooflab/leaderboard.hpp, the verdict's side of it).
inline constexpr const char* kLeaderboardProperty = "rooflab_leaderboard_seconds";

// What the verdict process's gtest JSON report says about one test.
struct VerdictReport {
  bool names_the_test = false;  // the report parsed and holds the test
  std::size_t tests_in_report = 0;
  bool skipped = false;
  std::string failures;                 // the failing assertions, as gtest wrote them
  std::optional<double> leaderboard_s;  // kLeaderboardProperty, when it is a finite positive number
};

// Reads gtest's JSON report; malformed text gives a report that names nothing.
VerdictReport parse_verdict_report(const std::string& json, const std::string& name);

// The outcome of test `name`: passed only when the verdict process exited 0,
// its report (absent: std::nullopt) holds exactly this one test, and the test
// neither failed nor skipped; a pass carries the report's leaderboard time
// (TestOutcome::measured_s). `timeout_s` is the test's limit, for messages;
// `memory_limit_mb` is set when the kernel stopped the worker at that limit.
TestOutcome decide_outcome(const std::string& name, const std::optional<std::string>& report_json,
                           const ProcessResult& verdict, const ProcessResult& worker, double timeout_s,
                           std::optional<double> stopped_at_memory_limit_mb = std::nullopt);

}  // namespace rooflab
