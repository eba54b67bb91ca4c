// grade-all's gradebooks (class/gradebook.hpp): the long one per group, the
// wide one per student for an LMS, and failed gradings as rows with a reason.
#include "class/gradebook.hpp"

#include <gtest/gtest.h>

namespace rooflab {
namespace {

std::vector<StudentGrades> a_class() {
  StudentGrades alice;
  alice.identifier = "Doe, Alice";
  alice.student = "Doe__Alice";
  alice.status = "graded";
  alice.seed = "42";
  alice.has_report = true;
  alice.groups = {{"a01_roofline", "kv cache", 3, 4}, {"a01_roofline", "speed", 2.5, 5}, {"a02_costs", "x", 7, 10}};
  alice.score = 12.5;
  alice.max_score = 19;
  StudentGrades bob;
  bob.identifier = "=cmd|' /C calc'!A0";
  bob.student = "_cmd____C_calc__A0";
  bob.status = "failed: cannot clone https://x/\"y\",\nz (see clone.log)";
  bob.commit = "";
  // An earlier report's scores must not leak into a failed row.
  bob.groups = {{"a01_roofline", "kv cache", 4, 4}};
  bob.score = 4;
  return {alice, bob};
}

TEST(ClassGradebook, WideHasOneRowPerStudentKeyedByTheRosterIdentifier) {
  const std::string book = wide_gradebook(a_class(), {"a01_roofline", "a02_costs", "a03_missing"});
  const std::vector<std::string> lines = text::split_lines(book);
  ASSERT_EQ(lines.size(), 3u) << book;
  EXPECT_EQ(lines[0], "identifier,folder,a01_roofline,a02_costs,a03_missing,total,status,seed,commit");
  EXPECT_EQ(lines[1], "\"Doe, Alice\",Doe__Alice,5.5,7,0,12.5,graded,42,");
  // A formula is made text; a failed grading scores 0 and says why, on one line.
  EXPECT_EQ(lines[2],
            "'=cmd|' /C calc'!A0,_cmd____C_calc__A0,0,0,0,0,"
            "\"failed: cannot clone https://x/\"\"y\"\",\\nz (see clone.log)\",,");
}

TEST(ClassGradebook, LongKeepsGroupsAndGivesAFailedStudentATotalRow) {
  const std::vector<std::string> lines = text::split_lines(long_gradebook(a_class()));
  ASSERT_EQ(lines.size(), 6u);
  EXPECT_EQ(lines[0], "student,assignment,group,score,max_score,status");
  EXPECT_EQ(lines[1], "Doe__Alice,a01_roofline,kv cache,3,4,graded");
  EXPECT_EQ(lines[4], "Doe__Alice,total,,12.5,19,graded");
  EXPECT_EQ(lines[5].rfind("_cmd____C_calc__A0,total,,0,0,\"failed: cannot clone", 0), 0u) << lines[5];
}

TEST(ClassGradebook, CapsAReason) {
  StudentGrades carol;
  carol.identifier = carol.student = "carol";
  carol.status = "failed: " + std::string(5000, 'x');
  EXPECT_LT(wide_gradebook({carol}, {}).size(), 600u);
}

}  // namespace
}  // namespace rooflab
