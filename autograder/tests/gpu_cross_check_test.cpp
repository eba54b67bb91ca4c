// The GPU cross-check's comparison (pipeline/gpu_cross_check.hpp): the CPU
// runtime's outcomes keep the score; where the GPU disagrees, the test's
// output and the notes say so, and which way.
#include "pipeline/gpu_cross_check.hpp"

#include <gtest/gtest.h>

#include "report/report_text.hpp"

namespace rooflab {
namespace {

GradedTest test(const std::string& name, TestStatus status, const std::string& message = "") {
  GradedTest graded;
  graded.assignment = "a05_cuda_attention";
  graded.outcome = {name, status, message, 0.1};
  graded.score = status == TestStatus::passed ? 1 : 0;
  graded.max_score = 1;
  return graded;
}

TestOutcome on_gpu(const std::string& name, TestStatus status, const std::string& message = "") {
  return {name, status, message, 0.01};
}

std::string joined(const std::vector<std::string>& notes) {
  std::string all;
  for (const std::string& note : notes) all += note + "\n";
  return all;
}

TEST(GpuCrossCheck, AgreementLeavesEveryTestAsItWasAndSaysTheScoreIsTheRuntimes) {
  std::vector<GradedTest> tests{test("A.Pass", TestStatus::passed), test("A.Fail", TestStatus::failed, "wrong"),
                                test("A.Counters", TestStatus::passed)};
  const std::vector<GradedTest> before = tests;
  const std::vector<std::string> notes =
      compare_with_gpu(tests, {on_gpu("A.Pass", TestStatus::passed), on_gpu("A.Fail", TestStatus::crashed),
                               on_gpu("A.Counters", TestStatus::skipped, "the kernels ran on a GPU")});
  for (std::size_t i = 0; i < tests.size(); ++i) {
    EXPECT_EQ(tests[i].outcome.message, before[i].outcome.message) << tests[i].outcome.name;
    EXPECT_TRUE(tests[i].gpu_verdict.empty()) << tests[i].gpu_verdict;
    EXPECT_EQ(report::describe_outcome(tests[i]), report::describe_outcome(before[i]));
    EXPECT_EQ(tests[i].outcome.status, before[i].outcome.status);
    EXPECT_EQ(tests[i].score, before[i].score);
  }
  ASSERT_EQ(notes.size(), 1u) << joined(notes);
  EXPECT_NE(notes[0].find("2 agreed with the CPU runtime, 1 ran in the runtime only"), std::string::npos) << notes[0];
  EXPECT_NE(notes[0].find("The score is the CPU runtime's"), std::string::npos) << notes[0];
}

TEST(GpuCrossCheck, APassTheGpuRejectsKeepsItsScoreAndIsReportedAsACourseGap) {
  std::vector<GradedTest> tests{test("A.Race", TestStatus::passed), test("A.Fine", TestStatus::passed)};
  const std::vector<std::string> notes =
      compare_with_gpu(tests, {on_gpu("A.Race", TestStatus::failed, "output[3] = 0.5 but expected 0.25\nmore\n"),
                               on_gpu("A.Fine", TestStatus::passed)});
  EXPECT_EQ(tests[0].outcome.status, TestStatus::passed);
  EXPECT_EQ(tests[0].score, 1);
  EXPECT_TRUE(tests[0].outcome.message.empty()) << tests[0].outcome.message;
  // A pass says nothing in its entry, unless the GPU disagreed.
  EXPECT_EQ(report::describe_outcome(tests[0]),
            "[GPU cross-check: on this machine's GPU this test failed: output[3] = 0.5 but expected 0.25 | more. "
            "The score counts the CPU runtime's verdict, as on every machine.]");
  EXPECT_EQ(report::describe_outcome(tests[1]), "");
  const std::string all = joined(notes);
  EXPECT_NE(all.find("1 test passed in the CPU runtime and not on the GPU"), std::string::npos) << all;
  EXPECT_NE(all.find("instructors"), std::string::npos) << all;
}

TEST(GpuCrossCheck, AFailureOnlyTheRuntimeSeesIsCountedAndStaysAFailure) {
  std::vector<GradedTest> tests{test("A.Uninitialised", TestStatus::failed, "initcheck: read of memory never written")};
  const std::vector<std::string> notes = compare_with_gpu(tests, {on_gpu("A.Uninitialised", TestStatus::passed)});
  EXPECT_EQ(tests[0].outcome.status, TestStatus::failed);
  EXPECT_EQ(tests[0].score, 0);
  const std::string entry = report::describe_outcome(tests[0]);
  EXPECT_EQ(entry.rfind("failed: initcheck: read of memory never written\n[GPU cross-check: on this machine's GPU "
                        "this test passed.",
                        0),
            0u)
      << "the runtime's message comes first: " << entry;
  const std::string all = joined(notes);
  EXPECT_NE(all.find("1 test failed in the CPU runtime and passed on the GPU"), std::string::npos) << all;
}

TEST(GpuCrossCheck, TestsOnlyAGpuRunsAreNamedWhereTheyFailThereAndNeverScored) {
  std::vector<GradedTest> tests{test("B.Thrust/cuda", TestStatus::skipped, "cuda backend skipped: no CUDA GPU"),
                                test("B.Other/cuda", TestStatus::skipped)};
  const std::vector<std::string> notes = compare_with_gpu(
      tests, {on_gpu("B.Thrust/cuda", TestStatus::failed, "wrong"), on_gpu("B.Other/cuda", TestStatus::passed)});
  EXPECT_EQ(tests[0].outcome.status, TestStatus::skipped);
  EXPECT_EQ(tests[0].outcome.message, "cuda backend skipped: no CUDA GPU");
  EXPECT_TRUE(tests[0].gpu_verdict.empty()) << "a test not scored here has no entry to carry it";
  const std::string all = joined(notes);
  EXPECT_NE(all.find("1 test that only a GPU runs (not scored) did not pass there: B.Thrust/cuda."), std::string::npos)
      << all;
  EXPECT_EQ(all.find("B.Other"), std::string::npos) << all;
}

// Every note fits one line of the report (kLineCap), however many tests and
// however long their names: the tests' own output carries the details.
TEST(GpuCrossCheck, NotesFitAReportLineHoweverManyTestsDisagree) {
  std::vector<GradedTest> tests;
  std::vector<TestOutcome> gpu;
  const std::string long_name(90, 'x');
  for (int i = 0; i < 40; ++i) {
    const TestStatus here = i % 4 == 0 ? TestStatus::skipped : i % 2 ? TestStatus::passed : TestStatus::failed;
    const TestStatus there = i % 4 == 0 ? TestStatus::failed : i % 2 ? TestStatus::timed_out : TestStatus::passed;
    tests.push_back(test(long_name + std::to_string(i), here));
    gpu.push_back(on_gpu(long_name + std::to_string(i), there));
  }
  const std::vector<std::string> notes = compare_with_gpu(tests, gpu);
  ASSERT_EQ(notes.size(), 4u) << joined(notes);
  for (const std::string& note : notes) EXPECT_LE(note.size(), report::kLineCap) << note;
  EXPECT_NE(notes[3].find("10 tests that only a GPU runs (not scored) did not pass there: " + long_name + "0, " +
                          long_name + "4 and 8 more."),
            std::string::npos)
      << notes[3];
}

}  // namespace
}  // namespace rooflab
