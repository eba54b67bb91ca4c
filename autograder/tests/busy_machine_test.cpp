// A grade never depends on how busy the machine is. The reference solutions
// of the two labs with the tightest limits (a01 and a02: 5 s a test) are
// graded while four busy processes per core, outside any grading, take the
// cores: once with the grading's cpu cgroups (their weight keeps the tests'
// share of the cores) and once without (`--no-cpu-cgroups`, as where the
// grader cannot create them: each test's limit then counts its processes' CPU
// time), both at once. Each earns full marks.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "grading_harness.hpp"
#include "os/process.hpp"
#include "rooflab/temp_folder_testing.hpp"

namespace rooflab {
namespace {
namespace fs = std::filesystem;

const fs::path kSource = ROOFLAB_SOURCE_DIR;

// Busy processes outside any grading, until destroyed.
class Spinners {
 public:
  explicit Spinners(unsigned count, const fs::path& folder) {
    for (unsigned i = 0; i < count; ++i)
      children_.push_back(spawn_process({"sh", "-c", "while :; do :; done"}, folder,
                                        folder / ("spinner-" + std::to_string(i) + ".log"),
                                        ProcessLimits::timeout(900)));
  }
  ~Spinners() {
    for (Child& child : children_) {
      ::kill(-child.pid, SIGKILL);
      wait_process(child);
    }
  }
  Spinners(const Spinners&) = delete;
  Spinners& operator=(const Spinners&) = delete;

 private:
  std::vector<Child> children_;
};

// The last lines of a grader's output, where it says what went wrong: a log
// cut short keeps a failure's first lines (tools/ctest_failures.sh), so the
// messages below put the reason first, not the whole output.
std::string last_lines(const std::string& output, std::size_t count) {
  std::size_t start = output.size();
  for (std::size_t lines = 0; start > 0 && lines <= count;)
    if (output[--start] == '\n') ++lines;
  return output.substr(start);
}

// Every test that ran passed, and the score is all their points.
void expect_full_marks(const testing::Graded& graded, const std::string& name) {
  SCOPED_TRACE(name);
  ASSERT_TRUE(graded.process.succeeded())
      << "rooflab grade: " << graded.process.describe(900) << "; the end of its output:\n"
      << last_lines(graded.process.output, 10);
  ASSERT_FALSE(graded.results.is_null()) << last_lines(graded.process.output, 10);
  double max_score = 0;
  for (const auto& test : graded.results["tests"]) {
    if (!test.contains("status")) continue;
    EXPECT_EQ(test["status"], "passed") << test.value("name", "") << ": " << test.value("output", "");
    max_score += test["max_score"].get<double>();
  }
  EXPECT_GT(max_score, 0);
  EXPECT_NEAR(graded.results["score"].get<double>(), max_score, 1e-9) << last_lines(graded.process.output, 10);
}

TEST(BusyMachine, TheReferenceEarnsFullMarksWithAndWithoutCpuCgroups) {
  const testing::TempFolder folder("busy-machine");
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  const std::vector<std::string> labs{
      "--assignment", "a01_roofline", "--assignment", "a02_transformer_costs", "--no-plots", "--seed", "1"};
  testing::Graded weighted, counted;
  {
    const Spinners spinners(4 * cores, folder.path());
    std::thread with_cgroups([&] {
      weighted = testing::grade_with_rooflab(kSource / "solutions", folder.path() / "weighted", labs,
                                             folder.path() / "weighted.log");
    });
    std::vector<std::string> without = labs;
    without.push_back("--no-cpu-cgroups");
    counted = testing::grade_with_rooflab(kSource / "solutions", folder.path() / "counted", without,
                                          folder.path() / "counted.log");
    with_cgroups.join();
  }
  expect_full_marks(weighted, "with cpu cgroups");
  expect_full_marks(counted, "without cpu cgroups");
  EXPECT_NE(counted.report.find("each test's time limit counted the CPU time of its processes"), std::string::npos)
      << counted.report;
}

}  // namespace
}  // namespace rooflab
