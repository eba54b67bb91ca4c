// Grades whole submissions with the real `rooflab grade` binary and checks the
// reports: the solutions earn full marks, the student stubs earn zero with every
// test saying "not implemented", and each bundled example earns its expected score.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <set>
#include <string>
#include <thread>

#include "grading_harness.hpp"
#include "os/process.hpp"
#include "plots/reference_profile.hpp"
#include "rooflab/backend.hpp"
#include "rooflab/temp_folder_testing.hpp"
#include "score/rubric.hpp"
#include "stage/manifest.hpp"
#include "text/text.hpp"

namespace rooflab {
namespace {
namespace fs = std::filesystem;

const fs::path kSource = ROOFLAB_SOURCE_DIR;
const fs::path kScratch = rooflab::testing::program_temp_folder("integration");

using testing::Graded;

Graded grade(const fs::path& submission, const fs::path& out, const std::vector<std::string>& extra = {}) {
  return testing::grade_with_rooflab(submission, out, extra, kScratch / (out.filename().string() + ".log"));
}

// The grader's first line, "grading <submission> (seed N)": a test traces it so
// that every failure names the seed (`rooflab grade --seed N` reproduces it).
std::string seed_line(const Graded& graded) {
  const std::string& output = graded.process.output;
  return output.substr(0, output.find('\n'));
}

int count_status(const nlohmann::json& results, const std::string& needle) {
  int count = 0;
  for (const auto& test : results["tests"]) count += test["output"].get<std::string>().rfind(needle, 0) == 0;
  return count;
}

// results.json names each test "<assignment>: <Suite>.<Test>".
std::string assignment_of(const nlohmann::json& test) {
  const std::string name = test["name"];
  return name.substr(0, name.find(": "));
}

int count_assignments(const nlohmann::json& results) {
  std::set<std::string> names;
  for (const auto& test : results["tests"])  // "Total, with every test" names no assignment
    if (test["name"].get<std::string>().find(": ") != std::string::npos) names.insert(assignment_of(test));
  return static_cast<int>(names.size());
}

double assignment_score(const nlohmann::json& results, const std::string& assignment) {
  double score = 0;
  for (const auto& test : results["tests"])
    if (assignment_of(test) == assignment) score += test["score"].get<double>();
  return score;
}

// Entries worth nothing either way: an assignment's scaling plots, its
// leaderboard times and the whole total (shown when its last test is). None
// carries a status. Tests
// skipped on this machine (a GPU test without a GPU) are not entries at all:
// Gradescope would show them as passed; the output lists them.
bool unscored(const nlohmann::json& test) {
  if (test.contains("status")) return false;
  EXPECT_EQ(test["max_score"].get<double>(), 0.0) << test["name"];
  const std::string name = test["name"], output = test["output"];
  EXPECT_TRUE(name == "Total, with every test" || text::ends_with(name, ": scaling plots") ||
              text::ends_with(name, ": leaderboard"))
      << name;
  EXPECT_NE(output.rfind("skipped: ", 0), 0u) << name;
  return true;
}

// The points of rubric groups that only a GPU runs (named "… (GPU only)"):
// 0 of 0 on every machine, the GPU's included (its runs there are the GPU
// cross-check's, never scored).
double gpu_only_points() {
  double points = 0;
  for (const auto& entry : fs::directory_iterator(kSource / "solutions"))
    if (fs::exists(entry.path() / "grading" / "rubric.toml"))
      for (const RubricGroup& group : Rubric::load(entry.path() / "grading" / "rubric.toml").groups)
        if (text::ends_with(group.name, "(GPU only)")) points += group.points;
  return points;
}

// The points of rubric groups that are extra credit (bonus = true).
double bonus_points() {
  double points = 0;
  for (const auto& entry : fs::directory_iterator(kSource / "solutions"))
    if (fs::exists(entry.path() / "grading" / "rubric.toml"))
      for (const RubricGroup& group : Rubric::load(entry.path() / "grading" / "rubric.toml").groups)
        points += group.bonus ? group.points : 0;
  return points;
}

// The solutions, timed alternately with the reference's worker (the same
// code), run at about the reference's speed: every rubric's leaderboard has
// both columns, the relative speed between 0.3 and 3 (a shared, noisy
// machine), and the milliseconds positive.
void expect_leaderboard_near_the_reference(const nlohmann::json& results) {
  ASSERT_TRUE(results.contains("leaderboard")) << results["output"];
  std::set<std::string> names;
  for (const auto& column : results["leaderboard"]) {
    const std::string name = column["name"];
    names.insert(name);
    const double value = column["value"];
    if (text::ends_with(name, ": speed relative to the reference")) {
      EXPECT_EQ(column["order"], "desc");
      EXPECT_GT(value, 0.3) << name;
      EXPECT_LT(value, 3.0) << name;
    } else {
      EXPECT_TRUE(text::ends_with(name, ": milliseconds")) << name;
      EXPECT_EQ(column["order"], "asc");
      EXPECT_GT(value, 0.0) << name;
    }
  }
  std::size_t boards = 0;
  for (const auto& entry : fs::directory_iterator(kSource / "solutions")) {
    if (!fs::exists(entry.path() / "grading" / "rubric.toml")) continue;
    const Rubric rubric = Rubric::load(entry.path() / "grading" / "rubric.toml");
    if (!rubric.leaderboard) continue;
    ++boards;
    EXPECT_TRUE(names.count(rubric.leaderboard->name + ": speed relative to the reference")) << rubric.assignment;
    EXPECT_TRUE(names.count(rubric.leaderboard->name + ": milliseconds")) << rubric.assignment;
  }
  EXPECT_GE(boards, 3u) << "a04, a05 and a06 declare a [leaderboard]";
}

TEST(GradeExamples, SolutionsEarnFullMarks) {
  const Graded graded = grade(kSource / "solutions", kScratch / "solutions");
  SCOPED_TRACE(seed_line(graded));
  ASSERT_TRUE(graded.process.succeeded()) << graded.process.output;
  double max_score = 0, earned = 0;
  for (const auto& test : graded.results["tests"]) {
    if (unscored(test)) continue;
    EXPECT_EQ(test["status"], "passed") << test.dump(2);
    max_score += test["max_score"].get<double>();
    earned += test["score"].get<double>();
  }
  EXPECT_NEAR(graded.results["score"].get<double>(), earned, 1e-9) << graded.process.output;
  // Every point, and the bonus groups' beyond the maximum: on every machine,
  // a GPU's too (the CPU runtime grades the kernels everywhere).
  EXPECT_NEAR(earned, max_score + bonus_points(), 1e-9) << graded.process.output;
  // Every rubric is out of 100, less its GPU-only groups; where the machine
  // has no memory cgroup, the kernel-counted groups are skipped (0 of 0) too
  // and the maximum is lower still.
  if (graded.results["output"].get<std::string>().find("no memory cgroup") == std::string::npos) {
    EXPECT_NEAR(max_score, 100.0 * count_assignments(graded.results) - gpu_only_points(), 1e-9)
        << "every rubric is out of 100";
  } else {
    EXPECT_LT(max_score, 100.0 * count_assignments(graded.results));
  }
  EXPECT_TRUE(fs::exists(kScratch / "solutions" / "report.md"));
  EXPECT_TRUE(fs::exists(kScratch / "solutions" / "junit.xml"));
  expect_leaderboard_near_the_reference(graded.results);
  // The GPU model's registers per thread in the report: nvcc's for the
  // submission's own kernels where the reference build had nvcc, each file's
  // ptxas lines in its log; else the reference's counts stand in.
  const std::string report = text::read_file(kScratch / "solutions" / "report.md");
  if (!Manifest::load(ROOFLAB_MANIFEST).nvcc.empty()) {
    EXPECT_NE(report.find("| flash_forward_mma_sync (yours) |"), std::string::npos) << report;
    EXPECT_NE(report.find(" (nvcc, yours) |"), std::string::npos) << report;
    EXPECT_NE(text::read_file(kScratch / "solutions" / "logs" / "a05_cuda_attention.registers.flash_attention.log")
                  .find("Used "),
              std::string::npos);
  } else {
    EXPECT_NE(report.find("the reference's kernel of that name stands in for yours"), std::string::npos) << report;
  }
  EXPECT_NE(report.find(" (nvcc) |"), std::string::npos) << "no reference kernel with nvcc's count: " << report;
  // The reference's profile runs, whole, are kept in the reference build for
  // the gradings after this one (plots/reference_profile.hpp), each for its
  // own binary and thread count.
  const Manifest manifest = Manifest::load(ROOFLAB_MANIFEST);
  const int cores = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  for (const AssignmentInfo& info : manifest.assignments) {
    const fs::path binary = Manifest::profile_binary(manifest.binary_dir, info);
    if (!fs::exists(binary)) continue;
    const fs::path kept = kept_profile_file(manifest, info, cores);
    ASSERT_TRUE(fs::exists(kept)) << info.name;
    const auto profile = parse_kept_profile(text::read_file(kept), reference_profile_key(binary, cores));
    ASSERT_TRUE(profile.has_value()) << kept << " is not this build's run";
    EXPECT_FALSE(profile->output.empty()) << kept;
  }
}

// Graded with --no-plots: the partial example's stubbed a06 and a07 show the
// profiles of a stub, and a stub's plots would be the reference's alone.
TEST(GradeExamples, StubsEarnZeroAndEveryTestSaysNotImplemented) {
  const Graded graded = grade(kSource / "assignments", kScratch / "stubs", {"--no-plots"});
  SCOPED_TRACE(seed_line(graded));
  ASSERT_TRUE(graded.process.succeeded()) << graded.process.output;
  EXPECT_EQ(graded.results["score"].get<double>(), 0.0);
  ASSERT_GT(graded.results["tests"].size(), 40u);
  for (const auto& test : graded.results["tests"]) {
    if (unscored(test)) continue;
    const std::string output = test["output"];
    // Failed, not crashed or timed out, and the message names what is missing.
    EXPECT_EQ(output.rfind("failed: ", 0), 0u) << test["name"] << ": " << output;
    EXPECT_NE(output.find("is not implemented yet"), std::string::npos) << test["name"] << ": " << output;
  }
  EXPECT_FALSE(fs::exists(kScratch / "stubs" / "plots"));
  EXPECT_NE(graded.report.find("not drawn: graded with --no-plots"), std::string::npos) << graded.report;
}

nlohmann::json expected_partial() {
  return nlohmann::json::parse(text::read_file(kSource / "examples/submissions/expected_scores.json"))["partial"];
}

// Every assignment with a profile gets scaling plots: files beside report.md,
// linked from it, and named (never embedded: results.json stays small) in
// results.json for Gradescope.
void expect_scaling_plots(const fs::path& out, const nlohmann::json& results) {
  const std::string report = text::read_file(out / "report.md");
  for (const std::string assignment : {"a03_attention_memory", "a04_flash_attention"}) {
    EXPECT_TRUE(fs::exists(out / "plots" / (assignment + ".csv"))) << assignment;
    bool found = false;
    for (const auto& test : results["tests"])
      if (test["name"] == assignment + ": scaling plots") {
        found = true;
        EXPECT_EQ(test["output_format"], "html");
        if (run_process({"gnuplot", "--version"}, kScratch, kScratch / "gnuplot.log", ProcessLimits::timeout(30))
                .succeeded()) {
          EXPECT_NE(test["output"].get<std::string>().find(assignment + "_memory.png"), std::string::npos);
          EXPECT_EQ(test["output"].get<std::string>().find("data:image"), std::string::npos);
          EXPECT_TRUE(fs::exists(out / "plots" / (assignment + "_time.png")));
          EXPECT_NE(report.find("](plots/" + assignment + "_memory.png)"), std::string::npos);
        }
      }
    EXPECT_TRUE(found) << assignment;
  }
}

TEST(GradeExamples, PartialSubmissionEarnsItsExpectedScore) {
  const Graded graded = grade(kSource / "examples/submissions/partial", kScratch / "partial");
  SCOPED_TRACE(seed_line(graded));
  ASSERT_TRUE(graded.process.succeeded()) << graded.process.output;
  // Held here: a range-for over a temporary's member would read it after its end.
  const nlohmann::json expected = expected_partial();
  EXPECT_NEAR(graded.results["score"].get<double>(), expected["score"].get<double>(), 1e-9);
  for (const auto& [assignment, score] : expected["assignments"].items())
    EXPECT_NEAR(assignment_score(graded.results, assignment), score.get<double>(), 1e-9) << assignment;
  EXPECT_GT(count_status(graded.results, "crashed: "), 0);    // the segfault
  EXPECT_GT(count_status(graded.results, "timed out: "), 0);  // the infinite loop
  const std::string report = text::read_file(kScratch / "partial" / "report.md");
  EXPECT_NE(report.find("`notes.txt`"), std::string::npos) << "ignored files are listed";
  EXPECT_NE(report.find("SIGSEGV"), std::string::npos);
  // a04's flash attention holds N×M scores: the kernel-enforced memory limit stops it.
  EXPECT_EQ(count_status(graded.results, "failed: unknown file\nC++ exception with description \"std::bad_alloc\""), 1);
  expect_scaling_plots(kScratch / "partial", graded.results);
}

// The GPU cross-check never moves a score: the partial example's a05 (its
// flash kernel races) graded with the cross-check forced on earns what it
// earns without one. Without a GPU the GPU's runs all fail, which the report
// must say, test by test, and count; on a GPU they run there.
TEST(GradeExamples, GpuCrossCheckReportsTheGpuAndNeverMovesTheScore) {
  if (!Manifest::load(ROOFLAB_MANIFEST).with_cuda) GTEST_SKIP() << "the reference build has no CUDA (no nvcc)";
  const fs::path out = kScratch / "gpu_check";
  const Graded graded = grade(kSource / "examples/submissions/partial", out,
                              {"--assignment", "a05_cuda_attention", "--gpu-check", "on", "--no-plots"});
  SCOPED_TRACE(seed_line(graded));
  ASSERT_TRUE(graded.process.succeeded()) << graded.process.output;
  const nlohmann::json expected = expected_partial();
  EXPECT_NEAR(assignment_score(graded.results, "a05_cuda_attention"),
              expected["assignments"]["a05_cuda_attention"].get<double>(), 1e-9);
  EXPECT_TRUE(fs::exists(out / "logs" / "configure-gpu.log"));
  EXPECT_TRUE(fs::exists(out / "logs" / "a05_cuda_attention.gpu.build.log"));
  const std::string output = graded.results["output"];
  EXPECT_NE(output.find("Note (a05_cuda_attention): GPU cross-check: the tests ran again on this machine's GPU: "),
            std::string::npos)
      << output;
  if (gpu_count() > 0) return;  // what a GPU says about the race is its own affair
  EXPECT_NE(output.find("passed in the CPU runtime and not on the GPU"), std::string::npos) << output;
  const std::string report = text::read_file(out / "report.md");
  EXPECT_NE(report.find("### Passed here, not on this machine's GPU"), std::string::npos);
  EXPECT_NE(report.find("[GPU cross-check: on this machine's GPU this test failed"), std::string::npos);
  int annotated = 0;
  for (const auto& test : graded.results["tests"])
    annotated += test["output"].get<std::string>().find("[GPU cross-check: ") != std::string::npos;
  EXPECT_GT(annotated, 0) << "each disagreeing test's output says what the GPU said";
}

TEST(GradeExamples, ZipAndGitSubmissionsGradeLikeTheFolder) {
  const fs::path partial = kSource / "examples/submissions/partial";
  const fs::path work = kScratch / "packed";
  fs::remove_all(work);
  fs::create_directories(work);
  fs::copy(partial, work / "repo", fs::copy_options::recursive);
  ASSERT_TRUE(run_process({"zip", "-qr", (work / "partial.zip").string(), "repo"}, work, work / "zip.log",
                          ProcessLimits::timeout(60))
                  .succeeded());
  const std::string git =
      "git -c user.name=t -c user.email=t@t init -q && git -c user.name=t -c user.email=t@t add -A && "
      "git -c user.name=t -c user.email=t@t commit -qm s && echo uncommitted >> "
      "a02_transformer_costs/src/components.cpp";
  ASSERT_TRUE(
      run_process({"/bin/sh", "-c", git}, work / "repo", work / "git.log", ProcessLimits::timeout(60)).succeeded());

  // One assignment is enough to show the packaging changes nothing: a02, whose
  // tests take milliseconds (a01's wait out the partial's endless loop, which
  // the folder's grading shows).
  const std::vector<std::string> only_a02{"--assignment", "a02_transformer_costs"};
  const double a02_score = expected_partial()["assignments"]["a02_transformer_costs"];
  const Graded zipped = grade(work / "partial.zip", kScratch / "zipped", only_a02);
  ASSERT_TRUE(zipped.process.succeeded()) << zipped.process.output;
  EXPECT_NEAR(zipped.results["score"].get<double>(), a02_score, 1e-9);
  EXPECT_EQ(count_assignments(zipped.results), 1);
  // A repository is graded at its last commit: the uncommitted line (a syntax error) is not seen.
  const Graded cloned = grade(work / "repo" / ".git", kScratch / "cloned", only_a02);
  ASSERT_TRUE(cloned.process.succeeded()) << cloned.process.output;
  EXPECT_NEAR(cloned.results["score"].get<double>(), a02_score, 1e-9);
}

TEST(GradeExamples, CompileErrorZeroesTheAssignmentWithCompilerMessages) {
  const fs::path broken = kScratch / "broken";
  fs::remove_all(broken);
  fs::create_directories(broken / "a01_roofline/src");
  text::write_file(broken / "a01_roofline/src/memory.cpp", "this is not C++;\n");
  const Graded graded = grade(broken, kScratch / "broken-report", {"--assignment", "a01_roofline"});
  ASSERT_TRUE(graded.process.succeeded()) << graded.process.output;
  EXPECT_EQ(graded.results["score"].get<double>(), 0.0);
  const std::string report = text::read_file(kScratch / "broken-report" / "report.md");
  EXPECT_NE(report.find("did not compile"), std::string::npos);
  EXPECT_NE(report.find("memory.cpp"), std::string::npos);
  EXPECT_NE(report.find("error"), std::string::npos);
  EXPECT_NE(report.find("not submitted: src/roofline.cpp"), std::string::npos);
  // Its configure took the reference build's compiler and check results
  // (grading_kit/configure_cache.cmake) and compiled no test program for them.
  const std::string configure = text::read_file(kScratch / "broken-report" / "logs" / "configure.log");
  EXPECT_NE(configure.find("configure_cache.cmake"), std::string::npos) << configure;
  EXPECT_EQ(configure.find("Performing Test"), std::string::npos) << configure;
}

TEST(GradeExamples, NeverOverwritesAnEarlierReportSilently) {
  const fs::path out = kScratch / "kept";
  fs::create_directories(out);
  text::write_file(out / "results.json", "{\"earlier\": true}\n");
  const Graded refused = grade(kSource / "examples/submissions/partial", out);
  EXPECT_EQ(refused.process.exit_code, 2);
  EXPECT_NE(refused.process.output.find("--force"), std::string::npos) << refused.process.output;
  EXPECT_EQ(text::read_file(out / "results.json"), "{\"earlier\": true}\n");
}

TEST(GradeExamples, UnknownAssignmentIsAClearErrorBeforeAnythingIsWritten) {
  const Graded graded =
      grade(kSource / "examples/submissions/partial", kScratch / "unknown", {"--assignment", "a09_nothing"});
  EXPECT_EQ(graded.process.exit_code, 2);
  EXPECT_NE(graded.process.output.find("--assignment a09_nothing: no such assignment"), std::string::npos)
      << graded.process.output;
  EXPECT_NE(graded.process.output.find("a02_transformer_costs"), std::string::npos) << "the known names are listed";
  EXPECT_FALSE(fs::exists(kScratch / "unknown"));
}

TEST(GradeExamples, MissingSubmissionIsAClearError) {
  const Graded graded = grade(kScratch / "no-such-folder", kScratch / "none");
  EXPECT_EQ(graded.process.exit_code, 2);
  EXPECT_NE(graded.process.output.find("no-such-folder does not exist"), std::string::npos) << graded.process.output;
}

}  // namespace
}  // namespace rooflab
