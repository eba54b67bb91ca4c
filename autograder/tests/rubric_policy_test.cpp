// The course's rubrics against the course's tests: every validation test and
// every public test earns its points only through a gate (Rubric::gate_policy_problems).
// Which tests are validation tests is what they record when they run: the
// hidden-test binary of the reference build runs once, with a JSON report.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>

#include "os/process.hpp"
#include "rooflab/temp_folder_testing.hpp"
#include "score/rubric.hpp"
#include "stage/manifest.hpp"
#include "text/text.hpp"

namespace rooflab {
namespace {
namespace fs = std::filesystem;

// This program's temp folder, removed after its last test.
const std::filesystem::path kTemp = rooflab::testing::program_temp_folder("rubric-policy");

std::vector<Rubric::TestTraits> traits_of(const fs::path& binary, const fs::path& scratch) {
  const fs::path report = scratch / (binary.filename().string() + ".json");
  // Memory tests skip under their own conditions; a skipped test records nothing, so run them too.
  const ProcessResult ran = run_process({binary.string(), "--gtest_output=json:" + report.string()}, scratch,
                                        scratch / (binary.filename().string() + ".log"), ProcessLimits::timeout(300));
  EXPECT_TRUE(ran.succeeded()) << binary << ": the reference must pass its own tests\n"
                               << text::truncate(ran.output, 4000);
  std::vector<Rubric::TestTraits> traits;
  const auto parsed = nlohmann::json::parse(text::read_file(report));
  for (const auto& suite : parsed.at("testsuites"))
    for (const auto& test : suite.at("testsuite"))
      traits.push_back({suite.at("name").get<std::string>() + "." + test.at("name").get<std::string>(),
                        test.contains("rooflab_validation")});
  return traits;
}

TEST(RubricPolicy, EveryValidationAndPublicTestIsGated) {
  const Manifest manifest = Manifest::load(ROOFLAB_MANIFEST);
  const fs::path scratch = (kTemp / "rubric-policy");
  fs::create_directories(scratch);
  for (const AssignmentInfo& info : manifest.assignments) {
    SCOPED_TRACE(info.name);
    const fs::path binary = manifest.binary_dir / "course" / info.dir / (info.name + "_hidden_tests");
    if (!fs::exists(binary)) {  // the other assignments' findings still count
      ADD_FAILURE() << binary << " is missing: build the reference first";
      continue;
    }
    const auto traits = traits_of(binary, scratch);
    const auto validation = std::count_if(traits.begin(), traits.end(), [](const auto& t) { return t.validation; });
    EXPECT_GT(validation, 0) << "no test recorded rooflab_validation: is EXPECT_INVALID_ARGUMENT in use?";
    const Rubric rubric = Rubric::load(info.rubric);
    for (const std::string& problem : rubric.gate_policy_problems(traits)) ADD_FAILURE() << problem;
  }
  fs::remove_all(scratch);
}

}  // namespace
}  // namespace rooflab
