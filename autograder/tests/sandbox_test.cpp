// The environment student code sees: the sandbox's fixed entries plus the ones
// a step asks for, and (where bubblewrap runs) nothing of the grader's own.
#include "os/sandbox.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include "rooflab/temp_folder_testing.hpp"

namespace rooflab {
namespace {

// This program's temp folder, removed after its last test.
const std::filesystem::path kTemp = rooflab::testing::program_temp_folder("sandbox-test");

namespace fs = std::filesystem;

// ctest runs these tests as parallel processes: each writes its own log, or
// one test would read the other's output.
ProcessResult print_environment(const Sandbox& sandbox, const SandboxView& view) {
  const fs::path scratch = (kTemp / "sandbox-test");
  sandbox.hand_over(scratch);
  const std::string test = ::testing::UnitTest::GetInstance()->current_test_info()->name();
  return sandbox.run({"/bin/sh", "-c", "env | grep -E '^(OMP_|ROOFLAB_SANDBOX_TEST)' | sort"}, view, scratch,
                     scratch / (test + ".log"), ProcessLimits::timeout(30));
}

TEST(Sandbox, SetsTheEnvironmentAStepAsksFor) {
  ::setenv("OMP_NUM_THREADS", "64", 1);  // the grader's own setting must not reach the test
  for (const SandboxMode mode : {SandboxMode::automatic, SandboxMode::off}) {
    const Sandbox sandbox(mode);
    SandboxView view;
    view.env = {"OMP_NUM_THREADS=1", "OMP_WAIT_POLICY=passive"};
    const ProcessResult result = print_environment(sandbox, view);
    ASSERT_TRUE(result.succeeded()) << result.describe(30) << "\n" << result.output;
    EXPECT_EQ(result.output, "OMP_NUM_THREADS=1\nOMP_WAIT_POLICY=passive\n") << sandbox.weakness();
  }
}

TEST(Sandbox, ClearsTheGradersEnvironmentWhereIsolated) {
  const Sandbox sandbox(SandboxMode::automatic);
  if (!sandbox.isolated()) GTEST_SKIP() << "bubblewrap cannot run here: " << sandbox.weakness();
  ::setenv("ROOFLAB_SANDBOX_TEST_SECRET", "grader only", 1);
  const ProcessResult result = print_environment(sandbox, {});
  ASSERT_TRUE(result.succeeded()) << result.describe(30) << "\n" << result.output;
  EXPECT_EQ(result.output, "");
}

// Every writable place in the sandbox is capped: bubblewrap's own root and
// /dev are tmpfs mounts as large as half the machine's memory, so they must be
// read-only; /tmp holds at most its size.
TEST(Sandbox, OnlyItsSizedTmpIsWritable) {
  const Sandbox sandbox(SandboxMode::automatic);
  if (!sandbox.isolated()) GTEST_SKIP() << "bubblewrap cannot run here: " << sandbox.weakness();
  const fs::path scratch = (kTemp / "sandbox-test");
  sandbox.hand_over(scratch);
  SandboxView view;
  view.tmp_bytes = std::uint64_t{1} << 20;
  const std::string script =
      "for place in / /dev /dev/shm /usr /etc; do echo x 2>/dev/null > $place/rooflab-probe && echo \"wrote $place\"; "
      "done; head -c 4M /dev/zero > /tmp/big 2>/dev/null || echo 'tmp full'";
  const ProcessResult result =
      sandbox.run({"/bin/sh", "-c", script}, view, scratch, scratch / "writable.log", ProcessLimits::timeout(30));
  EXPECT_EQ(result.output, "tmp full\n") << result.describe(30);
}

}  // namespace
}  // namespace rooflab
