// Rosters (class/roster.hpp): the identifier an LMS knows a student by is
// kept beside the folder-safe name, and GitHub Classroom's odd rows do not
// stop a class.
#include "class/roster.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include "rooflab/temp_folder_testing.hpp"
#include "text/text.hpp"

namespace rooflab {
namespace {
namespace fs = std::filesystem;

// This program's temp folder, removed after its last test.
const std::filesystem::path kTemp = rooflab::testing::program_temp_folder("roster-test");

class ClassRoster : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = (kTemp / "roster-test");
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "work");
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path csv(const std::string& contents) {
    text::write_file(dir_ / "roster.csv", contents);
    return dir_ / "roster.csv";
  }
  fs::path dir_;
};

TEST_F(ClassRoster, KeepsTheOriginalIdentifierBesideTheFolderName) {
  const auto roster = read_roster(csv("student,submission\n\"Doe, Jane\",work\nbob@uni.edu,work\n"));
  ASSERT_EQ(roster.size(), 2u);
  EXPECT_EQ(roster[0].identifier, "Doe, Jane");
  EXPECT_EQ(roster[0].student, "Doe__Jane");
  EXPECT_EQ(roster[0].submission, (dir_ / "work").string());
  EXPECT_EQ(roster[1].identifier, "bob@uni.edu");
  EXPECT_EQ(roster[1].student, "bob_uni.edu");
  EXPECT_TRUE(roster[0].warning.empty());
}

TEST_F(ClassRoster, CapsAndFlattensAHostileIdentifier) {
  const auto roster = read_roster(csv("student,submission\n\"evil\x1b[31m" + std::string(400, 'x') + "\",work\n"));
  ASSERT_EQ(roster.size(), 1u);
  EXPECT_EQ(roster[0].identifier.find('\x1b'), std::string::npos);
  EXPECT_LT(roster[0].identifier.size(), 330u);
  EXPECT_LE(roster[0].student.size(), 64u);
}

TEST_F(ClassRoster, AClassroomRowWithoutRosterIdentifierFallsBackToTheGithubUsername) {
  const auto roster =
      read_roster(csv("assignment_name,roster_identifier,github_username,student_repository_url,points_awarded\n"
                      "a01,alice@uni.edu,alice-gh,https://github.com/c/a01-alice-gh,0\n"
                      "a01,,bob-gh,https://github.com/c/a01-bob-gh,0\n"
                      "a01,carol@uni.edu,carol-gh,,0\n"));
  ASSERT_EQ(roster.size(), 3u);
  EXPECT_EQ(roster[0].identifier, "alice@uni.edu");
  EXPECT_TRUE(roster[0].warning.empty());
  EXPECT_EQ(roster[1].identifier, "bob-gh");
  EXPECT_EQ(roster[1].student, "bob-gh");
  EXPECT_NE(roster[1].warning.find("roster.csv:3: roster_identifier is empty"), std::string::npos) << roster[1].warning;
  EXPECT_NE(roster[1].warning.find("bob-gh"), std::string::npos);
  // Never accepted: kept, to be a failed row of the gradebook.
  EXPECT_EQ(roster[2].identifier, "carol@uni.edu");
  EXPECT_EQ(roster[2].submission, "");
}

TEST_F(ClassRoster, ARowWithNoNameAtAllIsAnErrorNamingItsLine) {
  try {
    read_roster(csv("roster_identifier,github_username,student_repository_url\n,,https://github.com/c/x\n"));
    FAIL() << "accepted";
  } catch (const RosterError& error) {
    EXPECT_NE(std::string(error.what())
                  .find("roster.csv:2: the roster_identifier column is empty and so is "
                        "github_username"),
              std::string::npos)
        << error.what();
  }
}

TEST_F(ClassRoster, AFolderRosterIdentifiesStudentsByTheirEntries) {
  fs::create_directories(dir_ / "class" / "alice");
  text::write_file(dir_ / "class" / "bob.zip", "zip");
  const auto roster = read_roster(dir_ / "class");
  ASSERT_EQ(roster.size(), 2u);
  EXPECT_EQ(roster[0].identifier, "alice");
  EXPECT_EQ(roster[1].identifier, "bob");
  EXPECT_EQ(roster[1].student, "bob");
}

}  // namespace
}  // namespace rooflab
