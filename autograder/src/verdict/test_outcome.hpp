// What one graded test came to: the verdict stage's answer, which scoring and
// every report read.
#pragma once

#include <string>

namespace rooflab {

enum class TestStatus { passed, failed, skipped, crashed, timed_out, not_built };

const char* to_string(TestStatus status);

struct TestOutcome {
  std::string name;  // "Suite.Test"
  TestStatus status = TestStatus::failed;
  std::string message;  // failing assertions, crash description, or skip reason
  double wall_s = 0;
};

}  // namespace rooflab
