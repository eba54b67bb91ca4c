// The grading kit (cmake/grading_kit.cmake) is staged into every submission's
// sandbox and linked into its worker, so it must hold the course's own code and
// nothing of the solutions: no kit object may define a symbol that the
// reference's compiled STUDENT_FILES define. And it must be the code that
// serves the contract: the kit's dispatch calls every one of those symbols.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "os/process.hpp"
#include "rooflab/temp_folder_testing.hpp"
#include "stage/manifest.hpp"
#include "text/text.hpp"

namespace rooflab {
namespace {
namespace fs = std::filesystem;

// This program's temp folder, removed after its last test.
const std::filesystem::path kTemp = rooflab::testing::program_temp_folder("kit-test");

struct Symbols {
  std::set<std::string> defined;    // strong definitions: T, D, B, R
  std::set<std::string> undefined;  // U: what the objects call
};

std::vector<fs::path> objects_under(const fs::path& folder) {
  std::vector<fs::path> objects;
  for (const auto& entry : fs::recursive_directory_iterator(folder))
    if (entry.path().extension() == ".o") objects.push_back(entry.path());
  return objects;
}

// One `nm` over the objects; a line is "ADDRESS TYPE NAME" or "U NAME".
Symbols symbols_of(const std::vector<fs::path>& objects) {
  std::vector<std::string> argv{"nm"};
  for (const fs::path& object : objects) argv.push_back(object.string());
  ProcessLimits limits = ProcessLimits::timeout(120);
  limits.output_cap_bytes = 64u << 20;
  const fs::path log = kTemp / "kit-nm.log";
  const ProcessResult listed = run_process(argv, kTemp, log, limits);
  fs::remove(log);
  EXPECT_TRUE(listed.succeeded()) << listed.output;
  Symbols symbols;
  for (const std::string& line : text::split_lines(listed.output)) {
    std::istringstream fields(line);
    std::vector<std::string> parts;
    for (std::string part; fields >> part;) parts.push_back(part);
    if (parts.size() == 2 && parts[0] == "U") symbols.undefined.insert(parts[1]);
    if (parts.size() == 3 && std::string("TDBR").find(parts[1]) != std::string::npos) symbols.defined.insert(parts[2]);
  }
  return symbols;
}

TEST(GradingKit, HoldsNoSolutionCodeAndServesEveryContractFunction) {
  const Manifest manifest = Manifest::load(ROOFLAB_MANIFEST);
  ASSERT_TRUE(fs::is_directory(manifest.grading_kit())) << manifest.grading_kit();
  const Symbols kit = symbols_of(objects_under(manifest.grading_kit()));
  ASSERT_FALSE(kit.defined.empty());
  for (const AssignmentInfo& assignment : manifest.assignments) {
    std::vector<fs::path> student;
    for (const fs::path& folder : Manifest::student_objects(manifest.binary_dir, assignment)) {
      const auto found = objects_under(folder);
      student.insert(student.end(), found.begin(), found.end());
    }
    const Symbols solution = symbols_of(student);
    ASSERT_FALSE(solution.defined.empty()) << assignment.name;
    for (const std::string& symbol : solution.defined) {
      EXPECT_FALSE(kit.defined.count(symbol)) << assignment.name << ": the kit defines " << symbol;
      EXPECT_TRUE(kit.undefined.count(symbol)) << assignment.name << ": no kit object calls " << symbol;
    }
  }
}

}  // namespace
}  // namespace rooflab
