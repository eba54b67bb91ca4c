// Gradings side by side on one machine, as grade-all's workers, two Slurm
// tasks on one node or two instructors run them: each must earn exactly its
// own score. Their sandboxed steps run as the same user, so with one
// RLIMIT_NPROC per user one grading's builds, or a fork bomb, made the other's
// forks fail ("vfork: Resource temporarily unavailable") and cost a student
// their points; each step now has a pids cgroup of its own. One small
// assignment each keeps these short: a02, whose tests take milliseconds, where
// only the overlap of two gradings matters; a01, the fork bomb's, beside the bomb.
#include <gtest/gtest.h>
#include <unistd.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "grading_harness.hpp"
#include "os/process.hpp"
#include "rooflab/temp_folder_testing.hpp"
#include "text/text.hpp"

namespace rooflab {
namespace {
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

const fs::path kSource = ROOFLAB_SOURCE_DIR;
const fs::path kScratch = rooflab::testing::program_temp_folder("concurrent");
constexpr const char* kForkFailed = "Resource temporarily unavailable";

struct GradingRun {
  std::string name;
  fs::path submission;
  testing::Graded graded;
  Clock::time_point start, end;
};

// The temp folder (TMPDIR) of `run`'s grader: its scratch space, its build
// and so every process it starts name it.
fs::path temp_of(const GradingRun& run, const fs::path& folder) { return folder / ("tmp-" + run.name); }

// Grades `run`'s `assignment` into `folder`/`run.name`, timing it.
void grade(GradingRun& run, const fs::path& folder, const std::string& assignment) {
  fs::create_directories(temp_of(run, folder));
  SpawnOptions grader;
  grader.env = {"TMPDIR=" + temp_of(run, folder).string()};
  run.start = Clock::now();
  run.graded =
      testing::grade_with_rooflab(run.submission, folder / run.name, {"--assignment", assignment, "--seed", "1"},
                                  folder / (run.name + ".log"), grader);
  run.end = Clock::now();
}

// How many live processes name `needle` on their command line.
int processes_naming(const std::string& needle) {
  int count = 0;
  for (const ProcessInfo& process : list_processes())
    count += !process.zombie && process.cmdline.find(needle) != std::string::npos;
  return count;
}

// A folder of the test's own, emptied.
fs::path fresh_folder() {
  const fs::path folder = kScratch / ::testing::UnitTest::GetInstance()->current_test_info()->name();
  fs::remove_all(folder);
  fs::create_directories(folder);
  return folder;
}

// Every text the grading wrote: what it printed, its reports and its logs.
std::string everything_written(const GradingRun& run, const fs::path& folder) {
  std::string all = run.graded.process.output + run.graded.results_text + run.graded.report;
  const fs::path logs = folder / run.name / "logs";
  if (fs::exists(logs))
    for (const auto& entry : fs::recursive_directory_iterator(logs))
      if (entry.is_regular_file()) all += text::read_file(entry.path());
  return all;
}

// A grading that ended with a report, no failed fork, and a line on how its
// processes were capped.
void expect_graded_whole(const GradingRun& run, const fs::path& folder) {
  SCOPED_TRACE(run.name);
  ASSERT_TRUE(run.graded.process.succeeded()) << run.graded.process.output;
  ASSERT_FALSE(run.graded.results.is_null()) << run.graded.process.output;
  EXPECT_EQ(everything_written(run, folder).find(kForkFailed), std::string::npos)
      << "a fork failed in the " << run.name << " grading";
  EXPECT_NE(run.graded.report.find("Processes: "), std::string::npos) << "the report says how processes were capped";
}

double expected_partial_score(const std::string& assignment) {
  const nlohmann::json expected =
      nlohmann::json::parse(text::read_file(kSource / "examples" / "submissions" / "expected_scores.json"));
  return expected["partial"]["assignments"][assignment].get<double>();
}

TEST(ConcurrentGrading, TwoGradingsAtOnceEachEarnTheirOwnScore) {
  const fs::path folder = fresh_folder();
  std::array<GradingRun, 2> runs{GradingRun{"partial", kSource / "examples" / "submissions" / "partial", {}, {}, {}},
                                 GradingRun{"solutions", kSource / "solutions", {}, {}, {}}};
  std::vector<std::thread> graders;
  for (GradingRun& run : runs) graders.emplace_back([&run, &folder] { grade(run, folder, "a02_transformer_costs"); });
  for (std::thread& grader : graders) grader.join();

  // They ran at the same time, or this proves nothing.
  EXPECT_LT(std::max(runs[0].start, runs[1].start), std::min(runs[0].end, runs[1].end));
  for (const GradingRun& run : runs) expect_graded_whole(run, folder);
  EXPECT_NEAR(runs[0].graded.results["score"].get<double>(), expected_partial_score("a02_transformer_costs"), 1e-9)
      << runs[0].graded.process.output;
  // The solutions pass every test that ran here, and earn all of its points.
  double max_score = 0;
  for (const auto& test : runs[1].graded.results["tests"]) {
    if (!test.contains("status")) continue;  // the total, worth nothing itself
    EXPECT_EQ(test["status"], "passed") << test.dump(2);
    max_score += test["max_score"].get<double>();
  }
  EXPECT_GT(max_score, 0);
  EXPECT_NEAR(runs[1].graded.results["score"].get<double>(), max_score, 1e-9) << runs[1].graded.process.output;
}

// The adversarial fork bomb (autograder/tests/adversarial/fork_bomb) forks
// without end in every test that calls its attack, each until its time limit.
// Graded beside it, once it is forking, the partial example still earns
// exactly its score: the bomb fills its own workers' pids cgroups, and its
// copies share one step's CPU time (cpu cgroups), so the partial's right
// answers stay far inside a01's 5 s per test. With RLIMIT_NPROC shared by the
// two gradings, the partial's configure step failed with "Resource
// temporarily unavailable" and it scored 0; with the cores shared by process,
// each of the bomb's copies took as much CPU as the partial's worker. (It
// takes as long as the bomb's tests wait out their time limits.)
TEST(ConcurrentGrading, AForkBombBesideAGradingCostsItNothing) {
  const fs::path folder = fresh_folder();
  GradingRun bomb{"fork_bomb", kSource / "autograder" / "tests" / "adversarial" / "fork_bomb", {}, {}, {}};
  GradingRun partial{"partial", kSource / "examples" / "submissions" / "partial", {}, {}, {}};
  std::thread bomber([&bomb, &folder] { grade(bomb, folder, "a01_roofline"); });
  // The partial grading starts as the bomb's tests do: its configure and
  // build are still forking when the bomb's first attacks fork, and its tests
  // run beside the later ones. (The bomb forks in 8 of its tests, each until
  // its time limit: started with the bomb's build, the partial could finish
  // before the bomb's tests began. A step that starts after the bomb
  // filled RLIMIT_NPROC's count got its headroom above it; one already
  // running did not.)
  for (const auto deadline = Clock::now() + std::chrono::minutes(5); Clock::now() < deadline;) {
    const fs::path log = folder / (bomb.name + ".log");
    if (fs::exists(log) && text::read_file(log).find("] running") != std::string::npos) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  std::atomic<int> most_forks{0};  // the bomb's forks seen while the partial grades
  std::atomic<bool> graded{false};
  std::thread watcher([&] {
    while (!graded) {
      most_forks = std::max(most_forks.load(), processes_naming(temp_of(bomb, folder).string()));
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  });
  grade(partial, folder, "a01_roofline");
  graded = true;
  watcher.join();
  bomber.join();
  // Copies of its worker, whose command line names the bomb grading's temp folder.
  EXPECT_GE(most_forks, 32) << "the fork bomb never forked while the partial was graded";
  EXPECT_LT(partial.start, bomb.end) << "the partial grading started after the bomb's had ended";
  expect_graded_whole(partial, folder);
  EXPECT_NEAR(partial.graded.results["score"].get<double>(), expected_partial_score("a01_roofline"), 1e-9)
      << partial.graded.process.output;
  ASSERT_TRUE(bomb.graded.process.succeeded()) << bomb.graded.process.output;
  const nlohmann::json attacks =
      nlohmann::json::parse(text::read_file(kSource / "autograder" / "tests" / "adversarial" / "expected.json"));
  EXPECT_NEAR(bomb.graded.results["score"].get<double>(), attacks["fork_bomb"]["score"].get<double>(), 1e-9);
}

}  // namespace
}  // namespace rooflab
