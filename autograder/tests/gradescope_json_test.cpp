// results.json as Gradescope shows it to students: the top-level output names
// only what is visible now, skipped tests are never shown as passes, and the
// file stays small whatever the submission printed.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "report/results.hpp"
#include "rooflab/temp_folder_testing.hpp"
#include "text/text.hpp"

namespace rooflab {
namespace {
namespace fs = std::filesystem;

// This program's temp folder, removed after its last test.
const std::filesystem::path kTemp = rooflab::testing::program_temp_folder("gradescope-json");

GradedTest graded(const std::string& name, TestStatus status, double score, double max_score,
                  const std::string& visibility, const std::string& message = "") {
  GradedTest test;
  test.assignment = "a01_roofline";
  test.group = visibility + " group";
  test.visibility = visibility;
  test.outcome.name = name;
  test.outcome.status = status;
  test.outcome.message = message;
  test.score = score;
  test.max_score = max_score;
  return test;
}

GradeResult one_assignment(const std::vector<GradedTest>& tests) {
  GradeResult result;
  result.submission = "submission";
  AssignmentResult assignment;
  assignment.name = "a01_roofline";
  assignment.built = true;
  assignment.tests = tests;
  for (const auto& test : tests) {
    assignment.score += test.score;
    assignment.max_score += test.max_score;
  }
  result.assignments = {assignment};
  return result;
}

class GradescopeJson : public ::testing::Test {
 protected:
  fs::path folder = (kTemp / "gradescope-json");
  void SetUp() override { fs::create_directories(folder); }
  void TearDown() override { fs::remove_all(folder); }

  nlohmann::json write(const GradeResult& result) {
    write_gradescope_json(result, folder / "results.json");
    return nlohmann::json::parse(text::read_file(folder / "results.json"));
  }
  const nlohmann::json* entry(const nlohmann::json& results, const std::string& name) {
    for (const auto& test : results["tests"])
      if (test["name"] == name) return &test;
    return nullptr;
  }
};

TEST_F(GradescopeJson, BeforeTheDueDateTheOutputShowsOnlyTheVisibleSubtotals) {
  const GradeResult result = one_assignment({
      graded("Memory.Public", TestStatus::passed, 10, 10, "visible"),
      graded("Memory.Other", TestStatus::failed, 0, 5, "visible", "expected 3"),
      graded("MemoryHidden.Drawn", TestStatus::passed, 20, 20, "after_due_date"),
  });
  const nlohmann::json results = write(result);
  const std::string output = results["output"];
  EXPECT_NE(output.find("Score on the tests shown now: 10 / 15"), std::string::npos) << output;
  EXPECT_NE(output.find("a01_roofline: 10 / 15 on the tests shown now"), std::string::npos) << output;
  EXPECT_NE(output.find("Tests worth 20 more points were graded too"), std::string::npos) << output;
  EXPECT_NE(output.find("after the due date"), std::string::npos) << output;
  // Neither the whole total nor the assignment's total shows before the due date.
  EXPECT_EQ(output.find("30"), std::string::npos) << output;
  EXPECT_EQ(output.find("35"), std::string::npos) << output;
  EXPECT_EQ(results["score"].get<double>(), 30.0);  // Gradescope's own total, by its rules

  const nlohmann::json* total = entry(results, "Total, with every test");
  ASSERT_NE(total, nullptr) << results.dump(2);
  EXPECT_EQ((*total)["visibility"], "after_due_date");
  EXPECT_EQ((*total)["max_score"].get<double>(), 0.0);
  EXPECT_NE((*total)["output"].get<std::string>().find("Score 30 / 35"), std::string::npos);
}

TEST_F(GradescopeJson, TheTotalIsAsHiddenAsItsMostHiddenTest) {
  const nlohmann::json results = write(one_assignment({
      graded("A.Visible", TestStatus::passed, 1, 1, "visible"),
      graded("B.Later", TestStatus::passed, 2, 2, "after_due_date"),
      graded("C.Never", TestStatus::passed, 3, 3, "hidden"),
  }));
  const nlohmann::json* total = entry(results, "Total, with every test");
  ASSERT_NE(total, nullptr);
  EXPECT_EQ((*total)["visibility"], "hidden");
  const std::string output = results["output"];
  EXPECT_NE(output.find("Score on the tests shown now: 1 / 1"), std::string::npos) << output;
  EXPECT_NE(output.find("for your instructor only"), std::string::npos) << output;
}

TEST_F(GradescopeJson, WithEveryTestVisibleTheOutputShowsTheWholeTotal) {
  const nlohmann::json results = write(one_assignment({
      graded("A.One", TestStatus::passed, 10, 10, "visible"),
      graded("A.Two", TestStatus::failed, 0, 5, "visible", "wrong"),
  }));
  const std::string output = results["output"];
  EXPECT_EQ(output.rfind("Score 10 / 15\na01_roofline: 10 / 15\n", 0), 0u) << output;
  EXPECT_EQ(entry(results, "Total, with every test"), nullptr);
}

TEST_F(GradescopeJson, SkippedTestsAreListedInTheOutputNeverShownAsPasses) {
  const std::string gtest_skip =
      "[ RUN      ] Flash/cuda.TensorCores\nsrc/test.cpp:51: Skipped\n"
      "cuda backend skipped: no CUDA GPU on this machine\n[  SKIPPED ] Flash/cuda.TensorCores (0 ms)\n";
  const nlohmann::json results = write(one_assignment({
      graded("Flash/cpu.Basic", TestStatus::failed, 0, 10, "visible", "not implemented"),
      graded("Flash/cuda.TensorCores", TestStatus::skipped, 0, 0, "visible", gtest_skip),
      graded("Memory.Counted", TestStatus::skipped, 0, 0, "visible",
             "x.cpp:3: Skipped\nthe kernel's count of this memory is not available here: no cgroup\n"),
      graded("FlashHidden.TensorCoresOnSecretShapes", TestStatus::skipped, 0, 0, "after_due_date", gtest_skip),
  }));
  for (const auto& test : results["tests"]) {
    EXPECT_NE(test["name"], "a01_roofline: Flash/cuda.TensorCores") << "a skipped test would show as passed";
    EXPECT_NE(test["name"], "a01_roofline: Memory.Counted");
    if (test["max_score"].get<double>() > 0) {
      EXPECT_TRUE(test.contains("status")) << test.dump();
    }
  }
  const std::string output = results["output"];
  EXPECT_NE(output.find("a01_roofline: 2 test(s) skipped: no GPU here (1 of them shown later, so not named here)\n"
                        "  Flash/cuda.TensorCores\n"),
            std::string::npos)
      << output;
  EXPECT_EQ(output.find("FlashHidden"), std::string::npos) << "a test shown later is not named before";
  EXPECT_EQ(output.find("more points"), std::string::npos) << "skipped tests are worth nothing later either";
  EXPECT_NE(output.find("skipped: the kernel's count of this memory is not available here: no cgroup\n"
                        "  Memory.Counted"),
            std::string::npos)
      << output;
  EXPECT_NE(output.find("worth 0 of 0: not passed"), std::string::npos) << output;
}

TEST_F(GradescopeJson, StaysSmallWhateverTheSubmissionPrintsAndEmbedsNoImages) {
  std::vector<GradedTest> tests;
  for (int i = 0; i < 400; ++i)
    tests.push_back(graded("Flood.T" + std::to_string(i), TestStatus::failed, 0, 1, "visible",
                           std::string(100000, 'x') + "\x1b[31m"));
  GradeResult result = one_assignment(tests);
  text::write_file(folder / "plots" / "a01_roofline_memory.png", std::string("\x89PNG\r\n\x1a\n", 8) + "data");
  result.assignments[0].plots = {fs::path("plots") / "a01_roofline_memory.png"};
  result.assignments[0].plot_notes = {"<script>alert(1)</script>"};
  const nlohmann::json results = write(result);
  EXPECT_LT(fs::file_size(folder / "results.json"), 1536u * 1024) << "results.json must stay small";
  const nlohmann::json* plots = entry(results, "a01_roofline: scaling plots");
  ASSERT_NE(plots, nullptr);
  const std::string html = (*plots)["output"];
  EXPECT_EQ(html.find("data:image"), std::string::npos) << "figures stay files beside the report";
  EXPECT_EQ(html.find("<script>"), std::string::npos) << html;
  EXPECT_NE(html.find("a01_roofline_memory.png"), std::string::npos) << html;
  EXPECT_EQ(results.dump().find('\x1b'), std::string::npos);
}

// Gradescope's leaderboard: columns only from the verdict's recorded seconds,
// none for a test that failed or did not run.
GradeResult with_leaderboard(std::optional<double> submission_s, std::optional<double> reference_s,
                             TestStatus status = TestStatus::passed) {
  GradeResult result = one_assignment({graded("A.B", TestStatus::passed, 1, 1, "visible")});
  LeaderboardResult leaderboard;
  leaderboard.name = "a04 flash attention";
  leaderboard.test = "Speed.Best";
  leaderboard.outcome.name = "Speed.Best";
  leaderboard.outcome.status = status;
  leaderboard.outcome.message = status == TestStatus::passed ? "" : "output row differs";
  leaderboard.submission_s = submission_s;
  leaderboard.reference_s = reference_s;
  if (!reference_s) leaderboard.note = "the reference's run timed out on this machine";
  result.assignments[0].leaderboard = leaderboard;
  return result;
}

TEST_F(GradescopeJson, LeaderboardHasTheRelativeSpeedAndTheMilliseconds) {
  const nlohmann::json results = write(with_leaderboard(0.020, 0.030));
  ASSERT_TRUE(results.contains("leaderboard"));
  const nlohmann::json& columns = results["leaderboard"];
  ASSERT_EQ(columns.size(), 2u) << columns.dump(2);
  EXPECT_EQ(columns[0]["name"], "a04 flash attention: speed relative to the reference");
  EXPECT_DOUBLE_EQ(columns[0]["value"].get<double>(), 1.5);  // reference / submission
  EXPECT_EQ(columns[0]["order"], "desc");
  EXPECT_EQ(columns[1]["name"], "a04 flash attention: milliseconds");
  EXPECT_DOUBLE_EQ(columns[1]["value"].get<double>(), 20.0);
  EXPECT_EQ(columns[1]["order"], "asc");
  // Worth nothing, and the score is unchanged.
  const nlohmann::json* shown = entry(results, "a01_roofline: leaderboard");
  ASSERT_NE(shown, nullptr);
  EXPECT_EQ((*shown)["max_score"], 0);
  EXPECT_FALSE(shown->contains("status"));
  EXPECT_NE((*shown)["output"].get<std::string>().find("1.50 times the reference's speed"), std::string::npos);
  EXPECT_DOUBLE_EQ(results["score"].get<double>(), 1.0);
}

TEST_F(GradescopeJson, LeaderboardWithoutTheReferenceKeepsTheMilliseconds) {
  const nlohmann::json results = write(with_leaderboard(0.020, std::nullopt));
  ASSERT_EQ(results["leaderboard"].size(), 1u);
  EXPECT_EQ(results["leaderboard"][0]["name"], "a04 flash attention: milliseconds");
  EXPECT_NE((*entry(results, "a01_roofline: leaderboard"))["output"].get<std::string>().find("timed out"),
            std::string::npos);
}

TEST_F(GradescopeJson, NoLeaderboardEntryForAFailedOrMissingTest) {
  const nlohmann::json failed = write(with_leaderboard(std::nullopt, 0.030, TestStatus::failed));
  EXPECT_FALSE(failed.contains("leaderboard")) << failed.dump(2);
  const std::string output = (*entry(failed, "a01_roofline: leaderboard"))["output"];
  EXPECT_NE(output.find("no time on the leaderboard"), std::string::npos);
  EXPECT_NE(output.find("output row differs"), std::string::npos);
  const nlohmann::json none = write(one_assignment({graded("A.B", TestStatus::passed, 1, 1, "visible")}));
  EXPECT_FALSE(none.contains("leaderboard"));
  EXPECT_EQ(entry(none, "a01_roofline: leaderboard"), nullptr);
}

}  // namespace
}  // namespace rooflab
