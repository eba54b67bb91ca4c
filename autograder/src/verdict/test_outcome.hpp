// What one graded test came to: the verdict stage's answer, which scoring and
// every report read.
#pragma once

#include <optional>
#include <string>

namespace rooflab {

enum class TestStatus { passed, failed, skipped, crashed, timed_out, not_built };

const char* to_string(TestStatus status);

struct TestOutcome {
  std::string name;  // "Suite.Test"
  TestStatus status = TestStatus::failed;
  std::string message;  // failing assertions, crash description, or skip reason
  double wall_s = 0;
  // A leaderboard test's best call, in seconds, as the verdict process timed
  // it (gtest property rooflab_leaderboard_seconds): set only on a pass, and
  // only to a finite positive number.
  std::optional<double> measured_s = std::nullopt;
};

}  // namespace rooflab
