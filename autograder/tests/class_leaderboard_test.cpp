// grade-all's leaderboard: values read back from results.json (validated), and
// ranked per metric into leaderboard.csv and leaderboard.md.
#include "class/class_leaderboard.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <filesystem>

#include "class/grade_all_reports.hpp"
#include "rooflab/temp_folder_testing.hpp"
#include "text/text.hpp"

namespace rooflab::class_grading {
namespace {

// This program's temp folder, removed after its last test.
const std::filesystem::path kTemp = rooflab::testing::program_temp_folder("class-leaderboard-test");

nlohmann::json results_with(nlohmann::json leaderboard) {
  return {{"score", 10}, {"tests", nlohmann::json::array()}, {"leaderboard", std::move(leaderboard)}};
}

TEST(ClassLeaderboard, KeepsOnlyValidEntries) {
  const auto values = leaderboard_values(results_with({
      {{"name", "a04: speed"}, {"value", 1.25}, {"order", "desc"}},
      {{"name", "a04: ms"}, {"value", 33.5}, {"order", "asc"}},
      {{"name", "no value"}},
      {{"name", "text value"}, {"value", "fast"}},
      {{"name", "bad order"}, {"value", 1}, {"order", "sideways"}},
      {{"value", 2}},
      "not an object",
  }));
  ASSERT_EQ(values.size(), 2u);
  EXPECT_EQ(values[0].metric, "a04: speed");
  EXPECT_TRUE(values[0].descending);
  EXPECT_EQ(values[1].value, 33.5);
  EXPECT_FALSE(values[1].descending);
  EXPECT_TRUE(leaderboard_values(nlohmann::json{{"score", 1}}).empty());
  EXPECT_TRUE(leaderboard_values(nullptr).empty());
}

TEST(ClassLeaderboard, RanksEachMetricBestFirstWithTiesSharingARank) {
  const std::vector<StudentLeaderboard> students{
      {"Ann", "ann", {{"speed", 0.9, true}, {"ms", 40, false}}},
      {"Bob", "bob", {{"speed", 1.3, true}, {"ms", 25, false}}},
      {"=cmd()", "eve", {{"speed", 0.9, true}}},
  };
  const std::string csv = leaderboard_csv(students);
  EXPECT_EQ(csv,
            "metric,rank,identifier,folder,value\n"
            "speed,1,Bob,bob,1.3\n"
            "speed,2,Ann,ann,0.9\n"
            "speed,2,'=cmd(),eve,0.9\n"
            "ms,1,Bob,bob,25\n"
            "ms,2,Ann,ann,40\n");
  const std::string page = leaderboard_markdown(students);
  EXPECT_NE(page.find("## speed\n"), std::string::npos) << page;
  EXPECT_NE(page.find("| 1 | Bob | 1.3 |"), std::string::npos) << page;
}

TEST(ClassLeaderboard, WrittenFromTheReportsOfGradingsThatDidNotFail) {
  const std::filesystem::path out = (kTemp / "class_leaderboard_test");
  std::filesystem::remove_all(out);
  const auto report = [&](const std::string& student, double speed) {
    std::filesystem::create_directories(out / student / "report");
    text::write_file(out / student / "report" / "results.json",
                     results_with({{{"name", "a04: speed"}, {"value", speed}, {"order", "desc"}}}).dump());
  };
  report("ann", 1.1);
  report("bob", 2.0);  // failed below: an earlier report's value must not count
  RosterEntry ann, bob;
  ann.student = "ann", ann.identifier = "Ann A";
  bob.student = "bob", bob.identifier = "Bob B";
  Outcome graded, failed;
  graded.kind = Outcome::Kind::graded;
  failed.kind = Outcome::Kind::failed;
  write_leaderboard({ann, bob}, {graded, failed}, out);
  EXPECT_EQ(text::read_file(out / "leaderboard.csv"),
            "metric,rank,identifier,folder,value\na04: speed,1,Ann A,ann,1.1\n");
  EXPECT_NE(text::read_file(out / "leaderboard.md").find("| 1 | Ann A | 1.1 |"), std::string::npos);
  std::filesystem::remove_all(out);
}

}  // namespace
}  // namespace rooflab::class_grading
