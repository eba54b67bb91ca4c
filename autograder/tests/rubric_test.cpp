#include "score/rubric.hpp"

#include <gtest/gtest.h>

#include "text/text.hpp"

namespace rooflab {
namespace {

std::filesystem::path write_rubric(const std::string& name, const std::string& contents) {
  const auto path = std::filesystem::temp_directory_path() / ("rooflab-rubric-test-" + name + ".toml");
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

}  // namespace
}  // namespace rooflab
