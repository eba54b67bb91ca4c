// What grading produced, and the reports written from it.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "verdict/test_outcome.hpp"

namespace rooflab {

struct GradedTest {
  std::string assignment;
  std::string group;
  std::string visibility;
  TestOutcome outcome;
  double score = 0;
  double max_score = 0;
  // A passing test whose rubric gate was not met earns nothing: the required
  // tests that did not pass ("Suite.Test (failed)"), and the gate's reason.
  std::vector<std::string> withheld_by;
  std::string gate_reason;
  // Where the GPU cross-check's run disagreed with this outcome (the CPU
  // runtime's, which scores): what the GPU said. Empty where they agreed.
  std::string gpu_verdict;
};

struct GroupSummary {
  std::string name;
  double score = 0;
  double max_score = 0;     // 0 for a bonus group, whose points are all extra
  double bonus_points = 0;  // a bonus group's points (rubric bonus = true), else 0
  int passed = 0;
  int total = 0;
};

// The assignment's leaderboard measurement (rubric [leaderboard]; never
// scored): the best call of its leaderboard test, timed by the verdict process,
// with the submission's worker and with the reference's, alternately.
struct LeaderboardResult {
  std::string name;  // the rubric's leaderboard name
  std::string test;  // "Suite.Test"
  // The submission's last run of the test: a failure says why there is no time.
  TestOutcome outcome;
  std::optional<double> submission_s;  // best over every run that passed
  std::optional<double> reference_s;   // the same for the reference's worker
  std::string note;                    // why there is no reference time, when there is none
  std::string busy;                    // other processes took the cores while it was timed (rooflab/machine_load.hpp)

  // reference_s / submission_s: above 1 when the submission is faster.
  std::optional<double> relative_speed() const {
    if (!submission_s || !reference_s) return std::nullopt;
    return *reference_s / *submission_s;
  }
};

struct AssignmentResult {
  std::string name;
  bool built = false;
  bool rejected = false;  // refused by the source or symbol checks (build_log says why)
  std::string build_log;  // compiler messages when the build failed, or the refusal
  std::vector<GroupSummary> groups;
  std::vector<GradedTest> tests;
  std::vector<std::string> notes;
  // Scaling plots (informational, never scored), relative to the report folder.
  std::vector<std::filesystem::path> plots;
  std::filesystem::path plot_data;
  std::vector<std::string> plot_notes;
  // A line under a figure, where the stage that drew it wrote one (plots/curve_plots.hpp).
  std::map<std::filesystem::path, std::string> plot_captions;
  // The kernels' memory counters and roofline bounds, submission beside
  // reference (Markdown built from parsed numbers; plots/kernel_plots.hpp).
  std::string kernel_table;
  std::optional<LeaderboardResult> leaderboard;  // where the rubric declares one and the assignment built
  double score = 0;
  double max_score = 0;
};

struct GradeResult {
  std::string submission;
  std::vector<AssignmentResult> assignments;
  std::vector<std::string> ignored_files;
  std::vector<std::string> notes;
  std::uint64_t seed = 0;  // hidden tests drew their inputs from it
  bool sandboxed = false;  // student code ran under bubblewrap
  // How memory, temporary files and scratch space were capped, and the peaks
  // this grading reached (the grader's own sentences, one per line).
  std::vector<std::string> containment;
  // Why grading could not finish (a refused zip, a course that does not
  // build); empty when it did. The report then scores nothing and says why.
  std::string error;
  double execution_time_s = 0;

  double score() const;
  double max_score() const;
};

// Gradescope's results.json (top-level score, execution_time, output, tests[],
// and leaderboard[] for the assignments that measured one).
// Scaling plots become a zero-point entry whose HTML output embeds the PNGs.
void write_gradescope_json(const GradeResult& result, const std::filesystem::path& path);
// Human report: per-assignment tables, failing assertions, build errors, ignored files.
void write_markdown_report(const GradeResult& result, const std::filesystem::path& path);
// JUnit XML: one testsuite per assignment, one testcase per graded test.
void write_junit_xml(const GradeResult& result, const std::filesystem::path& path);
// The terminal summary printed at the end of `lab grade`.
void print_summary(const GradeResult& result, std::ostream& out);

}  // namespace rooflab
