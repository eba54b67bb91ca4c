// Gradescope's results.json.
//
// Gradescope shows each test to students by its own visibility, but shows the
// top-level `output` always: the text there names only what students may see
// now (the visible tests' subtotals), and the whole total goes in a zero-point
// entry as hidden as the most hidden test. Gradescope knows "passed" and
// "failed" only, and shows a test with neither as passed: tests skipped here
// (worth 0 of 0) are left out of tests[] and listed in the output instead.
#include "report/results.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "report/report_text.hpp"
#include "text/text.hpp"

namespace rooflab {

using namespace report;

namespace {

// Every test output together stays under this many bytes: Gradescope has to
// store and render results.json, and 8000 bytes times hundreds of failing
// tests would make it megabytes.
constexpr std::size_t kTestOutputBudget = 1u << 20;
constexpr std::size_t kTestOutputFloor = 600;

bool shown_now(const std::string& visibility) { return visibility.empty() || visibility == "visible"; }

// Gradescope's visibilities, each shown to fewer people or later than the
// one before; anything else counts as hidden.
constexpr const char* kVisibilities[] = {"visible", "after_due_date", "after_published", "hidden"};
int secrecy(const std::string& visibility) {
  if (shown_now(visibility)) return 0;
  for (int level = 1; level < 3; ++level)
    if (visibility == kVisibilities[level]) return level;
  return 3;
}

struct Tally {
  double score = 0;
  double max_score = 0;
};

std::string built_note(const AssignmentResult& assignment) {
  return assignment.built ? "" : assignment.rejected ? " (refused)" : " (did not compile)";
}

// Why a test was skipped, as the output names it: gtest's line after
// "<name>: Skipped" (the test's GTEST_SKIP message), "no GPU here" for the
// tests that need one.
std::string skip_reason_of(const GradedTest& test) {
  const auto lines = text::split_lines(test.outcome.message);
  std::string reason = "not runnable on this grading machine";
  for (std::size_t i = 0; i + 1 < lines.size(); ++i)
    if (text::ends_with(lines[i], ": Skipped")) reason = lines[i + 1];
  if (reason.find("GPU") != std::string::npos) return "no GPU here";
  return text::untrusted_line(reason, kLineCap);
}

// The score lines: the whole total when every test is shown now; otherwise
// the subtotals of the tests shown now, and how many points wait for later.
void write_scores(std::ostringstream& output, const GradeResult& result) {
  std::map<int, double> later;  // secrecy -> max points
  std::vector<Tally> now(result.assignments.size());
  Tally all_now;
  for (std::size_t a = 0; a < result.assignments.size(); ++a)
    for (const auto& test : result.assignments[a].tests) {
      if (test.outcome.status == TestStatus::skipped) continue;  // 0 of 0, listed apart
      if (!shown_now(test.visibility)) {
        later[secrecy(test.visibility)] += test.max_score;
        continue;
      }
      now[a].score += test.score;
      now[a].max_score += test.max_score;
      all_now.score += test.score;
      all_now.max_score += test.max_score;
    }
  if (later.empty()) {
    output << "Score " << points(result.score()) << " / " << points(result.max_score()) << "\n";
    for (const auto& assignment : result.assignments)
      output << assignment.name << ": " << points(assignment.score) << " / " << points(assignment.max_score)
             << built_note(assignment) << "\n";
    return;
  }
  output << "Score on the tests shown now: " << points(all_now.score) << " / " << points(all_now.max_score) << "\n";
  for (std::size_t a = 0; a < result.assignments.size(); ++a)
    output << result.assignments[a].name << ": " << points(now[a].score) << " / " << points(now[a].max_score)
           << " on the tests shown now" << built_note(result.assignments[a]) << "\n";
  for (const auto& [level, max_score] : later) {
    output << "Tests worth " << points(max_score) << " more points were graded too: "
           << (level == 1   ? "their results, and your total with them, are shown after the due date.\n"
               : level == 2 ? "their results, and your total with them, are shown once grades are published.\n"
                            : "their results are for your instructor only.\n");
  }
}

// Tests skipped here, grouped by assignment and reason, capped. Only the
// tests shown now are named: the others are counted.
void write_skipped(std::ostringstream& output, const GradeResult& result) {
  bool heading = false;
  for (const auto& assignment : result.assignments) {
    std::map<std::string, std::vector<std::string>> by_reason;
    std::map<std::string, std::size_t> unnamed;
    for (const auto& test : assignment.tests) {
      if (test.outcome.status != TestStatus::skipped) continue;
      const std::string reason = skip_reason_of(test);
      if (shown_now(test.visibility))
        by_reason[reason].push_back(text::untrusted_line(test.outcome.name, kLineCap));
      else
        ++unnamed[reason];
    }
    for (const auto& [reason, count] : unnamed) by_reason[reason];  // a heading for the count
    for (const auto& [reason, names] : by_reason) {
      if (!heading)
        output << "Skipped on this grading machine, worth 0 of 0: not passed, and not in the tests below.\n";
      heading = true;
      const std::size_t later = unnamed.count(reason) ? unnamed.at(reason) : 0;
      output << assignment.name << ": " << names.size() + later << " test(s) skipped: " << reason
             << (later ? " (" + std::to_string(later) + " of them shown later, so not named here)" : "") << "\n";
      for (const auto& name : capped(names, kListCap)) output << "  " << name << "\n";
    }
  }
}

nlohmann::json scaling_plots_entry(const AssignmentResult& assignment) {
  // No images: they would make results.json megabytes. The PNGs stay files in
  // the report folder (run_autograder copies it to /autograder/results).
  std::string html =
      "<p>Your code, run by the assignment's profile in the sandbox, beside the reference. "
      "Informational: not scored.</p>";
  for (const auto& note : capped(assignment.plot_notes, kListCap)) {
    html += "<p>";
    html += xml_escape(text::untrusted_line(note, kLineCap));
    html += "</p>";
  }
  if (!assignment.kernel_table.empty()) {
    html +=
        "<p>Your CUDA kernels as the CPU runtime counted them, their roofline bound on an H100 and the GPU "
        "model's estimate:</p><pre>";
    html += xml_escape(text::untrusted(assignment.kernel_table, kMessageCap));
    html += "</pre>";
  }
  if (!assignment.plots.empty()) {
    html += "<p>Figures (in the grader's report folder, not shown here):";
    for (const auto& plot : assignment.plots) {
      html += ' ';
      html += xml_escape(text::untrusted_line(plot.filename().string(), kLineCap));
    }
    html += "</p>";
    for (const auto& [plot, caption] : assignment.plot_captions) {
      html += "<p>";
      html += xml_escape(text::untrusted_line(plot.filename().string() + ": " + caption, 2 * kLineCap));
      html += "</p>";
    }
  }
  return {{"name", assignment.name + ": scaling plots"},
          {"score", 0},
          {"max_score", 0},
          {"visibility", "visible"},
          {"output_format", "html"},
          {"output", html}};
}

// A zero-point entry: the leaderboard's times, or why there are none. Shown
// at once, like the leaderboard itself.
nlohmann::json leaderboard_entry(const AssignmentResult& assignment, std::size_t cap) {
  const LeaderboardResult& leaderboard = *assignment.leaderboard;
  std::string output = leaderboard_summary(leaderboard) + "\n";
  output += describe_leaderboard_failure(leaderboard);
  return {{"name", assignment.name + ": leaderboard"},
          {"score", 0},
          {"max_score", 0},
          {"visibility", "visible"},
          {"output", json_text(output, cap)}};
}

// Gradescope's leaderboard columns, two per assignment that measured a time:
// the speed relative to the reference (higher is better) where the reference
// was timed beside it, and the best call in milliseconds (lower is better).
// Each name starts with the rubric's leaderboard name, so a course's columns
// stay apart. A failed or unmeasured test has no entry at all.
nlohmann::json leaderboard_columns(const GradeResult& result) {
  const auto rounded = [](double value) { return std::round(value * 1000) / 1000; };
  nlohmann::json columns = nlohmann::json::array();
  for (const auto& assignment : result.assignments) {
    if (!assignment.leaderboard || !assignment.leaderboard->submission_s) continue;
    const LeaderboardResult& leaderboard = *assignment.leaderboard;
    if (const auto relative = leaderboard.relative_speed())
      columns.push_back({{"name", leaderboard.name + ": speed relative to the reference"},
                         {"value", rounded(*relative)},
                         {"order", "desc"}});
    columns.push_back({{"name", leaderboard.name + ": milliseconds"},
                       {"value", rounded(*leaderboard.submission_s * 1e3)},
                       {"order", "asc"}});
  }
  return columns;
}

}  // namespace

void write_gradescope_json(const GradeResult& result, const std::filesystem::path& path) {
  nlohmann::json json;
  json["score"] = result.score();
  json["execution_time"] = result.execution_time_s;
  std::ostringstream output;
  write_scores(output, result);
  if (!result.error.empty()) output << "Grading could not finish: " << result.error << "\n";
  for (const auto& note : capped(result.notes, kListCap))
    output << "Note: " << text::untrusted_line(note, kLineCap) << "\n";
  // Each assignment's notes (a file not submitted, where its kernels ran, the GPU cross-check).
  for (const auto& assignment : result.assignments)
    for (const auto& note : capped(assignment.notes, kListCap))
      output << "Note (" << assignment.name << "): " << text::untrusted_line(note, kLineCap) << "\n";
  write_skipped(output, result);
  output << isolation(result) << "\n";
  for (const auto& line : result.containment) output << line << "\n";
  if (!result.ignored_files.empty())
    output << result.ignored_files.size() << " submitted file(s) were ignored (not STUDENT_FILES)\n";
  json["output"] = json_text(output.str(), 4 * kBuildLogCap);

  std::size_t entries = 0;
  for (const auto& assignment : result.assignments)
    entries += assignment.tests.size() + 2;  // + build or plots, + leaderboard
  const std::size_t test_cap = std::clamp(kTestOutputBudget / std::max<std::size_t>(entries, 1), kTestOutputFloor,
                                          static_cast<std::size_t>(kMessageCap));
  json["tests"] = nlohmann::json::array();
  int most_secret = 0;
  for (const auto& assignment : result.assignments) {
    if (!assignment.built) {
      json["tests"].push_back({{"name", assignment.name + (assignment.rejected ? ": refused" : ": build")},
                               {"score", 0},
                               {"max_score", 0},
                               {"status", "failed"},
                               {"visibility", "visible"},
                               {"output", json_text(assignment.build_log, kBuildLogCap)}});
    }
    for (const auto& test : assignment.tests) {
      if (test.outcome.status == TestStatus::skipped) continue;  // listed in the output: see the top
      most_secret = std::max(most_secret, secrecy(test.visibility));
      json["tests"].push_back({{"name", test.assignment + ": " + test.outcome.name},
                               {"score", test.score},
                               {"max_score", test.max_score},
                               {"status", test.outcome.status == TestStatus::passed ? "passed" : "failed"},
                               {"visibility", test.visibility.empty() ? "visible" : test.visibility},
                               {"tags", {test.assignment, test.group}},
                               {"output", json_text(describe_outcome(test), test_cap)}});
    }
  }
  if (most_secret > 0) {
    // The whole total, shown when the last of the tests it counts is.
    std::string total = "Score " + points(result.score()) + " / " + points(result.max_score()) + "\n";
    for (const auto& assignment : result.assignments)
      total += assignment.name + ": " + points(assignment.score) + " / " + points(assignment.max_score) + "\n";
    json["tests"].push_back({{"name", "Total, with every test"},
                             {"score", 0},
                             {"max_score", 0},
                             {"visibility", kVisibilities[most_secret]},
                             {"output", total}});
  }
  for (const auto& assignment : result.assignments)
    if (!assignment.plots.empty() || !assignment.plot_notes.empty() || !assignment.kernel_table.empty())
      json["tests"].push_back(scaling_plots_entry(assignment));
  for (const auto& assignment : result.assignments)
    if (assignment.leaderboard) json["tests"].push_back(leaderboard_entry(assignment, test_cap));
  if (nlohmann::json columns = leaderboard_columns(result); !columns.empty()) json["leaderboard"] = columns;
  // Every string above is valid UTF-8 already; `replace` keeps a slip from ending the grading.
  text::write_file(path, json.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
}

}  // namespace rooflab
