#include "score/rubric.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include "rooflab/temp_folder_testing.hpp"
#include "text/text.hpp"

namespace rooflab {
namespace {

// This program's temp folder, removed after its last test.
const std::filesystem::path kTemp = rooflab::testing::program_temp_folder("rubric-test");

std::filesystem::path write_rubric(const std::string& name, const std::string& contents) {
  // A folder of this process's own: a test run beside this one writes its own.
  const auto path = (kTemp / "rubric-test") / ("rooflab-rubric-test-" + name + ".toml");
  text::write_file(path, contents);
  return path;
}

std::string load_error(const std::string& name, const std::string& contents) {
  try {
    Rubric::load(write_rubric(name, contents));
  } catch (const RubricError& error) {
    return error.what();
  }
  return "no error";
}

constexpr const char* kValid = R"(assignment = "a01"
timeout_s = 3
[[group]]
name = "public"
tests = ["Pub.*"]
points = 10
[[group]]
name = "hidden"
tests = ["Hid.*"]
points = 5
visibility = "after_due_date"
all_or_nothing = true
timeout_s = 1
memory_limit_mb = 300
)";

TEST(Rubric, LoadsGroupsWithDefaults) {
  const Rubric rubric = Rubric::load(write_rubric("valid", kValid));
  ASSERT_EQ(rubric.groups.size(), 2u);
  EXPECT_EQ(rubric.groups[0].visibility, "visible");
  EXPECT_EQ(rubric.groups[0].timeout_s, 3);
  EXPECT_EQ(rubric.groups[1].timeout_s, 1);
  EXPECT_EQ(rubric.groups[0].memory_limit_mb, 2048);  // the rubric's default
  EXPECT_EQ(rubric.groups[1].memory_limit_mb, 300);
  EXPECT_TRUE(rubric.groups[1].all_or_nothing);
  EXPECT_EQ(rubric.max_score(), 15);
  EXPECT_EQ(rubric.assign({"Pub.A", "Hid.B", "Pub.C"}), (std::vector<std::size_t>{0, 1, 0}));
}

TEST(Rubric, ABonusGroupIsNotInTheMaximum) {
  const Rubric rubric =
      Rubric::load(write_rubric("bonus", std::string(kValid) + "[[group]]\nname = \"extra\"\ntests = [\"Extra.*\"]\n"
                                                               "points = 4\nbonus = true\n"));
  ASSERT_EQ(rubric.groups.size(), 3u);
  EXPECT_FALSE(rubric.groups[0].bonus);
  EXPECT_TRUE(rubric.groups[2].bonus);
  EXPECT_EQ(rubric.max_score(), 15);
  const std::string wrong = load_error(
      "bonus-type", "assignment = \"a\"\n[[group]]\nname = \"g\"\ntests = [\"*\"]\npoints = 1\nbonus = \"yes\"\n");
  EXPECT_NE(wrong.find("group[0].bonus: must be true or false"), std::string::npos) << wrong;
}

TEST(Rubric, ErrorsNameTheFileAndField) {
  const std::string unknown = load_error("unknown", std::string(kValid) + "colour = 1\n");
  EXPECT_NE(unknown.find("colour: unknown key"), std::string::npos) << unknown;
  EXPECT_NE(unknown.find("rooflab-rubric-test-unknown.toml"), std::string::npos) << unknown;
  const std::string visibility = load_error(
      "vis", "assignment = \"a\"\n[[group]]\nname = \"g\"\ntests = [\"*\"]\npoints = 1\nvisibility = \"secret\"\n");
  EXPECT_NE(visibility.find("group[0].visibility"), std::string::npos) << visibility;
  const std::string points =
      load_error("points", "assignment = \"a\"\n[[group]]\nname = \"g\"\ntests = [\"*\"]\npoints = -2\n");
  EXPECT_NE(points.find("group[0].points: must be positive"), std::string::npos) << points;
  EXPECT_NE(load_error("syntax", "assignment = \n").find(":1:"), std::string::npos);
}

TEST(Rubric, EveryTestInExactlyOneGroup) {
  const Rubric rubric = Rubric::load(write_rubric("assign", kValid));
  try {
    rubric.assign({"Pub.A", "Other.X"});
    FAIL();
  } catch (const RubricError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("Other.X is in no group"), std::string::npos) << message;
    EXPECT_NE(message.find("\"hidden\" matches no test"), std::string::npos) << message;
  }
}

TEST(Rubric, GatesLoadAndEveryPatternMustMatch) {
  const std::string gated =
      std::string(kValid) + "[[gate]]\ntests = [\"Pub.Rejects*\"]\nearned_with = [\"Hid.*\"]\nreason = \"why\"\n";
  const Rubric rubric = Rubric::load(write_rubric("gate", gated));
  ASSERT_EQ(rubric.gates.size(), 1u);
  EXPECT_EQ(rubric.gates[0].tests, std::vector<std::string>{"Pub.Rejects*"});
  EXPECT_EQ(rubric.gates[0].earned_with, std::vector<std::string>{"Hid.*"});
  EXPECT_EQ(rubric.gates[0].reason, "why");
  EXPECT_NO_THROW(rubric.assign({"Pub.RejectsX", "Hid.Y"}));
  try {
    rubric.assign({"Pub.Value", "Hid.Y"});
    FAIL() << "a gate that names no test must be refused";
  } catch (const RubricError& error) {
    EXPECT_NE(std::string(error.what()).find("gate[0].tests matches no test"), std::string::npos) << error.what();
  }
  const std::string missing = load_error("gate-missing", std::string(kValid) + "[[gate]]\ntests = [\"Pub.*\"]\n");
  EXPECT_NE(missing.find("gate[0].earned_with: must be a non-empty array"), std::string::npos) << missing;
  const std::string unknown =
      load_error("gate-unknown", std::string(kValid) + "[[gate]]\ntests = [\"P\"]\nearned_with = [\"H\"]\nx = 1\n");
  EXPECT_NE(unknown.find("gate[0].x: unknown key"), std::string::npos) << unknown;
}

TEST(Rubric, GatePolicyNamesEveryUngatedValidationAndPublicTest) {
  Rubric rubric = Rubric::load(write_rubric("policy", kValid));
  const std::vector<Rubric::TestTraits> tests{
      {"Pub.Value", false}, {"Pub.Rejects", true}, {"Hid.Value", false}, {"Hid.Rejects", true}};
  auto problems = rubric.gate_policy_problems(tests);
  ASSERT_EQ(problems.size(), 4u);  // two public tests, two validation tests
  EXPECT_NE(problems[0].find("Pub.Value is public"), std::string::npos) << problems[0];
  EXPECT_NE(problems[1].find("Pub.Rejects checks validation only"), std::string::npos) << problems[1];

  // Public tests need a hidden test; validation tests a value-checking one.
  rubric.gates.push_back({{"Pub.*"}, {"Hid.Value"}, ""});
  rubric.gates.push_back({{"Hid.Rejects"}, {"Hid.Rejects"}, ""});  // itself does not count
  problems = rubric.gate_policy_problems(tests);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("Hid.Rejects checks validation only"), std::string::npos) << problems[0];
  rubric.gates.back().earned_with = {"Hid.*"};
  EXPECT_TRUE(rubric.gate_policy_problems(tests).empty());
}

constexpr const char* kWithLeaderboard = R"(assignment = "a04"
[[group]]
name = "public"
tests = ["Pub.*"]
points = 10
[leaderboard]
test = "Speed.Best"
name = "a04 flash attention"
timeout_s = 30
)";

TEST(Rubric, LeaderboardTestIsNamedAndInNoGroup) {
  const Rubric rubric = Rubric::load(write_rubric("leaderboard", kWithLeaderboard));
  ASSERT_TRUE(rubric.leaderboard.has_value());
  EXPECT_EQ(rubric.leaderboard->test, "Speed.Best");
  EXPECT_EQ(rubric.leaderboard->name, "a04 flash attention");
  EXPECT_EQ(rubric.leaderboard->timeout_s, 30);
  EXPECT_EQ(rubric.max_score(), 10);  // worth nothing
  EXPECT_EQ(rubric.assign({"Pub.A", "Speed.Best"}), (std::vector<std::size_t>{0, Rubric::kLeaderboardTest}));
  // Absent from the verdict binary: an error, not a silently empty leaderboard.
  try {
    rubric.assign({"Pub.A"});
    ADD_FAILURE() << "no error";
  } catch (const RubricError& error) {
    EXPECT_NE(std::string(error.what()).find("leaderboard test Speed.Best is not a test"), std::string::npos);
  }
  // The timeout defaults to the rubric's; a rubric without the table has none.
  const std::string defaulted =
      std::string(kWithLeaderboard).replace(std::string(kWithLeaderboard).find("timeout_s = 30\n"), 15, "");
  EXPECT_EQ(Rubric::load(write_rubric("leaderboard-default", defaulted)).leaderboard->timeout_s, 10);
  EXPECT_FALSE(Rubric::load(write_rubric("no-leaderboard", kValid)).leaderboard.has_value());
}

TEST(Rubric, LeaderboardTestClaimedByAGroupOrGateIsAnError) {
  const std::string claimed =
      std::string(kWithLeaderboard)
          .replace(std::string(kWithLeaderboard).find("[\"Pub.*\"]"), 9, "[\"Pub.*\", \"Speed.*\"]");
  try {
    Rubric::load(write_rubric("leaderboard-claimed", claimed)).assign({"Pub.A", "Speed.Best"});
    ADD_FAILURE() << "no error";
  } catch (const RubricError& error) {
    EXPECT_NE(std::string(error.what()).find("claimed by group \"public\""), std::string::npos) << error.what();
  }
  const std::string gated = std::string(kWithLeaderboard) + R"([[gate]]
tests = ["Pub.*"]
earned_with = ["Speed.Best"]
)";
  try {
    Rubric::load(write_rubric("leaderboard-gated", gated)).assign({"Pub.A", "Speed.Best"});
    ADD_FAILURE() << "no error";
  } catch (const RubricError& error) {
    EXPECT_NE(std::string(error.what()).find("gate[0].earned_with matches the leaderboard test"), std::string::npos)
        << error.what();
  }
}

TEST(Rubric, LeaderboardErrorsNameTheField) {
  const auto with = [](const std::string& table) {
    return std::string("assignment = \"a\"\n[[group]]\nname = \"g\"\ntests = [\"A.*\"]\npoints = 1\n[leaderboard]\n") +
           table;
  };
  EXPECT_NE(load_error("lb-no-test", with("name = \"x\"\n")).find("leaderboard.test: is missing"), std::string::npos);
  EXPECT_NE(load_error("lb-no-name", with("test = \"A.B\"\n")).find("leaderboard.name: is missing"), std::string::npos);
  EXPECT_NE(load_error("lb-glob", with("test = \"A.*\"\nname = \"x\"\n")).find("leaderboard.test: must name one test"),
            std::string::npos);
  EXPECT_NE(
      load_error("lb-key", with("test = \"A.B\"\nname = \"x\"\npoints = 3\n")).find("leaderboard.points: unknown"),
      std::string::npos);
  EXPECT_NE(load_error("lb-timeout", with("test = \"A.B\"\nname = \"x\"\ntimeout_s = 0\n"))
                .find("leaderboard.timeout_s: must be positive"),
            std::string::npos);
}

TEST(Rubric, GatePolicyLeavesTheLeaderboardTestAlone) {
  const Rubric rubric = Rubric::load(write_rubric("leaderboard-policy", std::string(kWithLeaderboard) + R"([[group]]
name = "hidden"
tests = ["Hid.*"]
points = 5
visibility = "after_due_date"
[[gate]]
tests = ["Pub.*"]
earned_with = ["Hid.*"]
)"));
  EXPECT_TRUE(rubric.gate_policy_problems({{"Pub.A", false}, {"Hid.B", false}, {"Speed.Best", false}}).empty());
}

}  // namespace
}  // namespace rooflab
