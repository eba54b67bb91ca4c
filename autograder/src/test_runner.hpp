// Runs one graded test in its own process and decides its outcome.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace rooflab {

enum class TestStatus { passed, failed, skipped, crashed, timed_out, not_built };

const char* to_string(TestStatus status);

struct TestOutcome {
  std::string name;  // "Suite.Test"
  TestStatus status = TestStatus::failed;
  std::string message;  // failing assertions, crash description, or skip reason
  double wall_s = 0;
};

// "Suite.Test" names from `binary --gtest_list_tests`; throws with the output
// when the binary cannot list its tests.
std::vector<std::string> list_tests(const std::filesystem::path& binary, const std::filesystem::path& scratch);

struct TestLimits {
  double timeout_s = 10;
  double memory_limit_mb = 2048;
};

// Runs test `name` of `binary` alone; `scratch` holds its report and log.
TestOutcome run_test(const std::filesystem::path& binary, const std::string& name, const TestLimits& limits,
                     const std::filesystem::path& scratch);

}  // namespace rooflab
