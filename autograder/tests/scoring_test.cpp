// The scoring rules as a pure function: shares, skipped tests, all-or-nothing
// groups and gates.
#include "score/scoring.hpp"

#include <gtest/gtest.h>

namespace rooflab {
namespace {

Rubric two_groups(bool all_or_nothing = false) {
  Rubric rubric;
  rubric.assignment = "a";
  RubricGroup first;
  first.name = "first";
  first.tests = {"A.*"};
  first.points = 12;
  first.all_or_nothing = all_or_nothing;
  RubricGroup second;
  second.name = "second";
  second.tests = {"B.*"};
  second.points = 6;
  rubric.groups = {first, second};
  return rubric;
}

AssignmentResult outcomes(const std::vector<std::pair<std::string, TestStatus>>& tests) {
  AssignmentResult assignment;
  for (const auto& [name, status] : tests) {
    GradedTest test;
    test.outcome.name = name;
    test.outcome.status = status;
    assignment.tests.push_back(test);
  }
  return assignment;
}

AssignmentResult scored(const Rubric& rubric, const std::vector<std::pair<std::string, TestStatus>>& tests) {
  AssignmentResult assignment = outcomes(tests);
  std::vector<std::string> names;
  for (const auto& test : assignment.tests) names.push_back(test.outcome.name);
  score(assignment, rubric, rubric.assign(names));
  return assignment;
}

using S = TestStatus;

TEST(Scoring, PassingTestsShareTheirGroupsPoints) {
  const auto a = scored(two_groups(), {{"A.1", S::passed}, {"A.2", S::failed}, {"A.3", S::passed}, {"B.1", S::passed}});
  EXPECT_DOUBLE_EQ(a.tests[0].score, 4);
  EXPECT_DOUBLE_EQ(a.tests[1].score, 0);
  EXPECT_DOUBLE_EQ(a.tests[1].max_score, 4);
  EXPECT_DOUBLE_EQ(a.groups[0].score, 8);
  EXPECT_EQ(a.groups[0].passed, 2);
  EXPECT_EQ(a.groups[0].total, 3);
  EXPECT_DOUBLE_EQ(a.score, 14);
  EXPECT_DOUBLE_EQ(a.max_score, 18);
}

TEST(Scoring, SkippedTestsAreWorthZeroOfZero) {
  // The group's points go to the tests that ran; a group that never ran is worth nothing.
  const auto a = scored(two_groups(), {{"A.1", S::passed}, {"A.2", S::skipped}, {"B.1", S::skipped}});
  EXPECT_DOUBLE_EQ(a.tests[0].max_score, 12);
  EXPECT_DOUBLE_EQ(a.tests[0].score, 12);
  EXPECT_DOUBLE_EQ(a.tests[1].max_score, 0);
  EXPECT_DOUBLE_EQ(a.tests[1].score, 0);
  EXPECT_DOUBLE_EQ(a.groups[1].max_score, 0);
  EXPECT_DOUBLE_EQ(a.max_score, 12);
  EXPECT_DOUBLE_EQ(a.score, 12);
}

TEST(Scoring, AllOrNothingPaysOnlyAWholeGroup) {
  const auto partly = scored(two_groups(true), {{"A.1", S::passed}, {"A.2", S::timed_out}, {"B.1", S::passed}});
  EXPECT_DOUBLE_EQ(partly.groups[0].score, 0);
  EXPECT_DOUBLE_EQ(partly.score, 6);
  const auto whole = scored(two_groups(true), {{"A.1", S::passed}, {"A.2", S::skipped}, {"B.1", S::crashed}});
  EXPECT_DOUBLE_EQ(whole.groups[0].score, 12);  // a skipped test does not break the group
  EXPECT_DOUBLE_EQ(whole.score, 12);
}

TEST(Scoring, ABonusGroupsPointsCountInNoMaximum) {
  Rubric rubric = two_groups();
  rubric.groups[1].bonus = true;
  EXPECT_DOUBLE_EQ(rubric.max_score(), 12);
  const auto a = scored(rubric, {{"A.1", S::passed}, {"A.2", S::passed}, {"B.1", S::passed}, {"B.2", S::failed}});
  EXPECT_DOUBLE_EQ(a.tests[2].score, 3);  // half of the bonus group's 6
  EXPECT_DOUBLE_EQ(a.tests[2].max_score, 0);
  EXPECT_DOUBLE_EQ(a.tests[3].score, 0);
  EXPECT_DOUBLE_EQ(a.groups[1].score, 3);
  EXPECT_DOUBLE_EQ(a.groups[1].max_score, 0);
  EXPECT_DOUBLE_EQ(a.groups[1].bonus_points, 6);
  EXPECT_DOUBLE_EQ(a.groups[0].bonus_points, 0);
  EXPECT_DOUBLE_EQ(a.score, 15);  // past the maximum: extra credit
  EXPECT_DOUBLE_EQ(a.max_score, 12);
}

TEST(Scoring, AGateWithholdsPointsUntilItsTestsPass) {
  Rubric rubric = two_groups();
  rubric.gates.push_back({{"A.Rejects*"}, {"B.*"}, "validation earns its points beside a right answer"});
  const auto withheld = scored(rubric, {{"A.RejectsBad", S::passed}, {"A.Value", S::failed}, {"B.Value", S::failed}});
  EXPECT_DOUBLE_EQ(withheld.tests[0].score, 0);
  EXPECT_DOUBLE_EQ(withheld.tests[0].max_score, 6);
  EXPECT_EQ(withheld.tests[0].withheld_by, std::vector<std::string>{"B.Value (failed)"});
  EXPECT_EQ(withheld.tests[0].gate_reason, "validation earns its points beside a right answer");
  EXPECT_EQ(withheld.groups[0].passed, 1);  // it passed; it did not earn
  EXPECT_DOUBLE_EQ(withheld.score, 0);

  const auto earned = scored(rubric, {{"A.RejectsBad", S::passed}, {"A.Value", S::failed}, {"B.Value", S::passed}});
  EXPECT_DOUBLE_EQ(earned.tests[0].score, 6);
  EXPECT_TRUE(earned.tests[0].withheld_by.empty());
  EXPECT_DOUBLE_EQ(earned.score, 12);
}

TEST(Scoring, AGatesSkippedTestsDoNotBlockIt) {
  Rubric rubric = two_groups();
  rubric.gates.push_back({{"A.*"}, {"A.*", "B.*"}, ""});  // every A test needs the other A tests and B
  const auto a = scored(rubric, {{"A.1", S::passed}, {"A.2", S::passed}, {"B.gpu", S::skipped}});
  EXPECT_DOUBLE_EQ(a.score, 12);  // a test never requires itself, and a skip is not a failure
  const auto b = scored(rubric, {{"A.1", S::passed}, {"A.2", S::failed}, {"B.1", S::passed}});
  EXPECT_DOUBLE_EQ(b.tests[0].score, 0);
  EXPECT_EQ(b.tests[0].withheld_by, std::vector<std::string>{"A.2 (failed)"});
}

TEST(Scoring, AWithheldTestBreaksAnAllOrNothingGroup) {
  Rubric rubric = two_groups(true);
  rubric.gates.push_back({{"A.1"}, {"B.*"}, ""});
  const auto a = scored(rubric, {{"A.1", S::passed}, {"A.2", S::passed}, {"B.1", S::failed}});
  EXPECT_DOUBLE_EQ(a.groups[0].score, 0);
}

}  // namespace
}  // namespace rooflab
