#include "rubric.hpp"

#include <gtest/gtest.h>

#include "text.hpp"

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

}  // namespace
}  // namespace rooflab
