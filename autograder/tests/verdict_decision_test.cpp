// The pass/fail decision as a pure function of the verdict's report and how
// both processes ended: only the verdict process can make a pass.
#include "verdict/verdict_decision.hpp"

#include "report/report_text.hpp"
#include "rooflab/machine_load.hpp"
#include "run/leaderboard_run.hpp"

#include <gtest/gtest.h>

namespace rooflab {
namespace {

std::string report(const std::string& tests) {
  return R"({"testsuites": [{"name": "Suite", "testsuite": [)" + tests + "]}]}";
}
const std::string kPassed = report(R"({"name": "Test", "result": "COMPLETED"})");
const std::string kFailed = report(R"({"name": "Test", "failures": [{"failure": "x.cpp:3\nExpected: 1"}]})");
const std::string kSkipped = report(R"({"name": "Test", "result": "SKIPPED"})");

ProcessResult exited(int code, std::string output = "") {
  ProcessResult result;
  result.exit_code = code;
  result.output = std::move(output);
  return result;
}

ProcessResult killed(int signal) {
  ProcessResult result;
  result.signaled = true;
  result.signal = signal;
  return result;
}

TEST(VerdictDecision, PassesOnlyWithACleanReportOfExactlyThisTest) {
  EXPECT_EQ(decide_outcome("Suite.Test", kPassed, exited(0), exited(0), 10).status, TestStatus::passed);
  // The worker's fate never makes a pass, and never breaks one the verdict made.
  EXPECT_EQ(decide_outcome("Suite.Test", kPassed, exited(0), killed(9), 10).status, TestStatus::passed);
  EXPECT_EQ(decide_outcome("Suite.Test", kPassed, exited(1), exited(0), 10).status, TestStatus::failed);
  EXPECT_EQ(decide_outcome("Suite.Other", kPassed, exited(0), exited(0), 10).status, TestStatus::failed);
  EXPECT_EQ(decide_outcome("Suite.Test", std::nullopt, exited(0), exited(0), 10).status, TestStatus::failed);
  EXPECT_EQ(decide_outcome("Suite.Test", "not json", exited(0), exited(0), 10).status, TestStatus::failed);
  const std::string two = report(R"({"name": "Test"}, {"name": "Extra"})");
  EXPECT_EQ(decide_outcome("Suite.Test", two, exited(0), exited(0), 10).status, TestStatus::failed);
}

TEST(VerdictDecision, FailuresCarryTheAssertionsAndTheWorkersStory) {
  const TestOutcome failed = decide_outcome("Suite.Test", kFailed, exited(1), exited(0, "hello from student"), 10);
  EXPECT_EQ(failed.status, TestStatus::failed);
  EXPECT_NE(failed.message.find("Expected: 1"), std::string::npos) << failed.message;
  EXPECT_NE(failed.message.find("hello from student"), std::string::npos) << failed.message;
  const TestOutcome crashed = decide_outcome("Suite.Test", kFailed, exited(1), killed(11), 10);
  EXPECT_EQ(crashed.status, TestStatus::crashed);
  EXPECT_NE(crashed.message.find("SIGSEGV"), std::string::npos) << crashed.message;
}

TEST(VerdictDecision, NonAsciiMessagesSurviveGtestsByteEscapes) {
  // gtest writes "×" (UTF-8 c3 97) as two escapes, one per byte.
  const std::string escaped = report(R"({"name": "Test", "failures": [{"failure": "N\u00c3\u0097N"}]})");
  const TestOutcome outcome = decide_outcome("Suite.Test", escaped, exited(1), exited(0), 10);
  EXPECT_NE(outcome.message.find("N\xc3\x97N"), std::string::npos) << outcome.message;
}

TEST(VerdictDecision, TimeOutsAndSkips) {
  ProcessResult slow;
  slow.timed_out = true;
  EXPECT_EQ(decide_outcome("Suite.Test", kPassed, slow, exited(0), 10).status, TestStatus::timed_out);
  const TestOutcome skipped = decide_outcome("Suite.Test", kSkipped, exited(0, "cuda backend skipped"), exited(0), 10);
  EXPECT_EQ(skipped.status, TestStatus::skipped);
  EXPECT_NE(skipped.message.find("cuda backend skipped"), std::string::npos);
}

// A leaderboard test's time reaches the outcome only on a pass, and only as a
// finite positive number: the verdict (no student code) timed it.
TEST(VerdictDecision, LeaderboardSecondsOnlyFromAPass) {
  const auto timed = [](const std::string& value, const std::string& extra = "") {
    return report(R"({"name": "Test", "rooflab_leaderboard_seconds": )" + value + extra + "}");
  };
  const TestOutcome passed = decide_outcome("Suite.Test", timed("\"0.0125\""), exited(0), exited(0), 10);
  ASSERT_EQ(passed.status, TestStatus::passed);
  ASSERT_TRUE(passed.measured_s.has_value());
  EXPECT_DOUBLE_EQ(*passed.measured_s, 0.0125);
  EXPECT_FALSE(decide_outcome("Suite.Test", kPassed, exited(0), exited(0), 10).measured_s);
  const std::string failing = timed("\"0.0125\"", R"(, "failures": [{"failure": "wrong"}])");
  EXPECT_FALSE(decide_outcome("Suite.Test", failing, exited(0), exited(0), 10).measured_s);
  EXPECT_FALSE(decide_outcome("Suite.Test", timed("\"0.0125\""), exited(1), exited(0), 10).measured_s);
  for (const char* bad : {"\"0\"", "\"-1\"", "\"inf\"", "\"nan\"", "\"12ms\"", "\"\"", "0.5"})
    EXPECT_FALSE(decide_outcome("Suite.Test", timed(bad), exited(0), exited(0), 10).measured_s) << bad;
}

}  // namespace
}  // namespace rooflab

namespace rooflab {
namespace {

// A reference leaderboard run that recorded no time says why, on one line.
TEST(LeaderboardNote, AFailedReferenceRunSaysWhy) {
  TestOutcome ran;
  ran.status = TestStatus::failed;
  ran.message =
      "leaderboard_test.cpp:40\nValue of: matches\n  Actual: false\n\ncall 2: a wrong answer\nfifth\nsixth\n"
      "seventh";
  EXPECT_EQ(reference_failure_note(ran),
            "the reference's run failed on this machine: leaderboard_test.cpp:40 | Value of: matches |   Actual: "
            "false | call 2: a wrong answer | fifth | sixth …");
  ran.status = TestStatus::timed_out;
  ran.message.clear();
  EXPECT_EQ(reference_failure_note(ran), "the reference's run timed out on this machine");
}

// Times taken while other processes kept the cores busy say so beside them.
TEST(LeaderboardNote, TimesTakenOnABusyMachineSaySo) {
  LeaderboardResult leaderboard;
  leaderboard.outcome.status = TestStatus::passed;
  leaderboard.submission_s = 0.002;
  leaderboard.reference_s = 0.001;
  EXPECT_EQ(report::leaderboard_summary(leaderboard).find("busy"), std::string::npos);
  leaderboard.busy = busy_machine_warning(3.0, 2, 1);
  EXPECT_NE(report::leaderboard_summary(leaderboard)
                .find("0.50 times the reference's speed. warning: the machine was busy: "
                      "other processes kept 3.0 of its 2 cores busy"),
            std::string::npos)
      << report::leaderboard_summary(leaderboard);
}

}  // namespace
}  // namespace rooflab
