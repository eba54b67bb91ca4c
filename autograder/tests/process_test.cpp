#include "os/process.hpp"

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include "os/stop_signals.hpp"
#include "rooflab/temp_folder_testing.hpp"

namespace rooflab {
namespace {

// This program's temp folder, removed after its last test.
const std::filesystem::path kTemp = rooflab::testing::program_temp_folder("process-test");

// ctest runs these tests as parallel processes: each needs its own log file, or one
// test's O_TRUNC empties another's output mid-run.
std::filesystem::path scratch_log() {
  const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
  return kTemp / (std::string(test->name()) + ".log");
}

ProcessResult sh(const std::string& script, double timeout_s = 5) {
  return run_process({"/bin/sh", "-c", script}, kTemp, scratch_log(), ProcessLimits::timeout(timeout_s));
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

// A CPU-time limit (where the grading has no cpu cgroups): a loop that computes
// meets it, and says so; one that sleeps meets the wall-clock backstop, and
// says that instead. CPU time is what the process used, not what passed.
TEST(Process, ACpuTimeLimitStopsALoopAndTheWallClockBackstopASleep) {
  ProcessLimits limits = ProcessLimits::timeout(20);
  limits.cpu_s = 1;
  const ProcessResult loop = run_process({"/bin/sh", "-c", "while :; do :; done"}, kTemp, scratch_log(), limits);
  EXPECT_TRUE(loop.timed_out);
  EXPECT_TRUE(loop.over_cpu);
  EXPECT_GT(loop.cpu_s, 0.5);  // the kernel stops it at 1 s of its own accounting
  EXPECT_NE(loop.describe(20).find("s of CPU time, more than its limit of 1 s"), std::string::npos)
      << loop.describe(20);
  limits.timeout_s = 0.5;
  const ProcessResult sleep = run_process({"/bin/sh", "-c", "sleep 30"}, kTemp, scratch_log(), limits);
  EXPECT_TRUE(sleep.timed_out);
  EXPECT_FALSE(sleep.over_cpu);
  EXPECT_LT(sleep.cpu_s, 0.5);
  EXPECT_NE(sleep.describe(0.5).find("did not finish within the wall-clock backstop of 0.5 s"), std::string::npos)
      << sleep.describe(0.5);
  const ProcessResult quick = run_process({"/bin/sh", "-c", "i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done"}, kTemp,
                                          scratch_log(), ProcessLimits::timeout(20));
  EXPECT_TRUE(quick.succeeded());
  EXPECT_GT(quick.cpu_s, 0.0) << "a process's CPU time is measured";
}

// A grading stopped by SIGTERM: the child being waited for (and what it
// started) ends at once and the wait throws Stopped. In a child process of
// its own, since the stop, once noted, stays for the process's life.
TEST(ProcessDeathTest, AStopSignalEndsTheWaitedChildAndItsGroup) {
  const std::filesystem::path marker = kTemp / "stopped-child-ended";
  EXPECT_EXIT(
      {
        note_stop_signals();
        Child child =
            spawn_process({"/bin/sh", "-c", "trap 'touch " + marker.string() + "; exit 0' TERM; sleep 30 & wait"},
                          kTemp, scratch_log(), ProcessLimits::timeout(60));
        const pid_t group = child.pid;
        ::usleep(200'000);  // the shell's trap is set
        ::kill(::getpid(), SIGTERM);
        try {
          wait_process(child);
        } catch (const Stopped& stopped) {
          // The shell got SIGTERM and ran its trap; the sleep it left went with the group.
          const bool ended = ::kill(-group, 0) != 0 && std::filesystem::exists(marker);
          std::exit(ended && stopped.signal() == SIGTERM &&
                            std::string(stopped.what()).find("SIGTERM") != std::string::npos
                        ? 0
                        : 3);
        }
        std::exit(4);
      },
      ::testing::ExitedWithCode(0), "");
  std::filesystem::remove(marker);
}

TEST(Process, SignalIsReported) {
  const ProcessResult result = sh("kill -SEGV $$");
  EXPECT_TRUE(result.signaled);
  EXPECT_NE(result.describe(5).find("SIGSEGV"), std::string::npos) << result.describe(5);
}

TEST(Process, OutputIsCapped) {
  ProcessLimits limits = ProcessLimits::timeout(5);
  limits.output_cap_bytes = 1000;
  const ProcessResult result =
      run_process({"/bin/sh", "-c", "head -c 100000 /dev/zero | tr '\\0' x"}, kTemp, scratch_log(), limits);
  EXPECT_LT(result.output.size(), 1100u);
  EXPECT_NE(result.output.find("more bytes cut"), std::string::npos);
}

TEST(Process, AddressSpaceLimitStopsAHog) {
  ProcessLimits limits = ProcessLimits::timeout(10);
  limits.address_space_bytes = 64u << 20;
  // python3 is not guaranteed; a shell building a huge string hits the limit too.
  const ProcessResult result = run_process(
      {"/bin/sh", "-c", "x=$(head -c 200000000 /dev/zero | tr '\\0' x); echo ${#x}"}, kTemp, scratch_log(), limits);
  EXPECT_FALSE(result.succeeded() && result.output.find("200000000") != std::string::npos);
}

TEST(Process, GivenEnvironmentReplacesTheInheritedEntry) {
  // The grader's chosen seed must reach the tests even when its own shell exported another.
  ::setenv("ROOFLAB_PROCESS_TEST_VALUE", "inherited", 1);
  ::setenv("ROOFLAB_PROCESS_TEST_KEPT", "kept", 1);
  SpawnOptions options;
  options.env = {"ROOFLAB_PROCESS_TEST_VALUE=given"};
  const ProcessResult result = run_process({"/bin/sh", "-c", "env | grep ^ROOFLAB_PROCESS_TEST_ | sort"}, kTemp,
                                           scratch_log(), ProcessLimits::timeout(5), options);
  EXPECT_EQ(result.output, "ROOFLAB_PROCESS_TEST_KEPT=kept\nROOFLAB_PROCESS_TEST_VALUE=given\n");
}

}  // namespace
}  // namespace rooflab
