#include "os/process.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>

namespace rooflab {
namespace {

// ctest runs these tests as parallel processes: each needs its own log file, or one
// test's O_TRUNC empties another's output mid-run.
std::filesystem::path scratch_log() {
  const auto* test = testing::UnitTest::GetInstance()->current_test_info();
  return std::filesystem::temp_directory_path() / ("rooflab-process-test-" + std::to_string(::getpid())) /
         (std::string(test->name()) + ".log");
}

ProcessResult sh(const std::string& script, double timeout_s = 5) {
  return run_process({"/bin/sh", "-c", script}, std::filesystem::temp_directory_path(), scratch_log(),
                     ProcessLimits::timeout(timeout_s));
}

TEST(Process, ExitCodeAndOutput) {
  const ProcessResult result = sh("echo hello; echo oops >&2; exit 3");
  EXPECT_EQ(result.exit_code, 3);
  EXPECT_FALSE(result.succeeded());
  EXPECT_NE(result.output.find("hello"), std::string::npos);
  EXPECT_NE(result.output.find("oops"), std::string::npos);
}

TEST(Process, TimeoutKillsTheWholeGroup) {
  const ProcessResult result = sh("sleep 30 & sleep 30", 0.5);
  EXPECT_TRUE(result.timed_out);
  EXPECT_LT(result.wall_s, 5);
  EXPECT_NE(result.describe(0.5).find("timed out after 0.5 s"), std::string::npos);
}

TEST(Process, SignalIsReported) {
  const ProcessResult result = sh("kill -SEGV $$");
  EXPECT_TRUE(result.signaled);
  EXPECT_NE(result.describe(5).find("SIGSEGV"), std::string::npos) << result.describe(5);
}

TEST(Process, OutputIsCapped) {
  ProcessLimits limits = ProcessLimits::timeout(5);
  limits.output_cap_bytes = 1000;
  const ProcessResult result = run_process({"/bin/sh", "-c", "head -c 100000 /dev/zero | tr '\\0' x"},
                                           std::filesystem::temp_directory_path(), scratch_log(), limits);
  EXPECT_LT(result.output.size(), 1100u);
  EXPECT_NE(result.output.find("more bytes cut"), std::string::npos);
}

TEST(Process, AddressSpaceLimitStopsAHog) {
  ProcessLimits limits = ProcessLimits::timeout(10);
  limits.address_space_bytes = 64u << 20;
  // python3 is not guaranteed; a shell building a huge string hits the limit too.
  const ProcessResult result =
      run_process({"/bin/sh", "-c", "x=$(head -c 200000000 /dev/zero | tr '\\0' x); echo ${#x}"},
                  std::filesystem::temp_directory_path(), scratch_log(), limits);
  EXPECT_FALSE(result.succeeded() && result.output.find("200000000") != std::string::npos);
}

TEST(Process, GivenEnvironmentReplacesTheInheritedEntry) {
  // The grader's chosen seed must reach the tests even when its own shell exported another.
  ::setenv("ROOFLAB_PROCESS_TEST_VALUE", "inherited", 1);
  ::setenv("ROOFLAB_PROCESS_TEST_KEPT", "kept", 1);
  SpawnOptions options;
  options.env = {"ROOFLAB_PROCESS_TEST_VALUE=given"};
  const ProcessResult result =
      run_process({"/bin/sh", "-c", "env | grep ^ROOFLAB_PROCESS_TEST_ | sort"}, std::filesystem::temp_directory_path(),
                  scratch_log(), ProcessLimits::timeout(5), options);
  EXPECT_EQ(result.output, "ROOFLAB_PROCESS_TEST_KEPT=kept\nROOFLAB_PROCESS_TEST_VALUE=given\n");
}

}  // namespace
}  // namespace rooflab
