// The environment student code sees: the sandbox's fixed entries plus the ones
// a step asks for, and (where bubblewrap runs) nothing of the grader's own.
#include "sandbox.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace rooflab {
namespace {

namespace fs = std::filesystem;

// ctest runs these tests as parallel processes: each writes its own log, or
// one test would read the other's output.
ProcessResult print_environment(const Sandbox& sandbox, const SandboxView& view) {
  const fs::path scratch = fs::temp_directory_path() / "rooflab-sandbox-test";
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

}  // namespace
}  // namespace rooflab
