#include "class/grade_all_reports.hpp"

#include <nlohmann/json.hpp>

#include <utility>

#include "class/class_leaderboard.hpp"
#include "class/gradebook.hpp"
#include "class/graded_assignments.hpp"
#include "stage/manifest.hpp"
#include "text/text.hpp"

namespace rooflab::class_grading {
namespace fs = std::filesystem;
namespace {

// The graded labs, in the manifest's order: the wide gradebook's columns.
std::vector<std::string> graded_labs(const GradeAllOptions& options) {
  std::vector<std::string> labs;
  for (const AssignmentInfo& info : graded_assignments(Manifest::load(options.manifest), options.only))
    labs.push_back(info.name);
  return labs;
}

// A student's results.json, or null when the grading failed or left none.
nlohmann::json results_of(const RosterEntry& entry, const Outcome& outcome, const fs::path& out) {
  const fs::path results = out / entry.student / "report" / "results.json";
  if (outcome.kind == Outcome::Kind::failed || !fs::exists(results)) return nullptr;
  nlohmann::json json = nlohmann::json::parse(text::read_file(results), nullptr, false);
  if (json.is_discarded()) return nullptr;  // (not ?: — nlohmann 3.10 cannot unify the two)
  return json;
}

// One student's grades: their report's groups, or nothing (scores 0) when the
// grading failed, whatever an earlier report said.
StudentGrades grades_of(const RosterEntry& entry, const Outcome& outcome, const fs::path& out) {
  StudentGrades grades;
  grades.identifier = entry.identifier;
  grades.student = entry.student;
  grades.seed = outcome.seed;
  grades.commit = outcome.commit;
  grades.status = outcome.kind == Outcome::Kind::graded      ? "graded"
                  : outcome.kind == Outcome::Kind::unchanged ? "unchanged"
                                                             : "failed: " + outcome.why;
  const nlohmann::json json = results_of(entry, outcome, out);
  if (!json.is_object() || !json.contains("tests")) return grades;
  std::map<std::pair<std::string, std::string>, Totals> groups;  // (assignment, group)
  for (const auto& test : json["tests"]) {
    const auto& tags = test.value("tags", nlohmann::json::array());
    if (tags.size() < 2 || !tags[0].is_string() || !tags[1].is_string()) continue;  // build lines, plots: worth 0
    Totals& group = groups[{tags[0].get<std::string>(), tags[1].get<std::string>()}];
    group.score += test.value("score", 0.0);
    group.max_score += test.value("max_score", 0.0);
  }
  grades.has_report = true;
  grades.score = json.value("score", 0.0);
  for (const auto& [name, group] : groups) {
    grades.groups.push_back({name.first, name.second, group.score, group.max_score});
    grades.max_score += group.max_score;
  }
  return grades;
}

}  // namespace

std::map<std::string, Totals> write_gradebooks(const std::vector<RosterEntry>& roster,
                                               const std::vector<Outcome>& outcomes, const GradeAllOptions& options) {
  std::vector<StudentGrades> students;
  std::map<std::string, Totals> totals;
  for (std::size_t i = 0; i < roster.size(); ++i) {
    students.push_back(grades_of(roster[i], outcomes[i], options.out));
    if (students.back().has_report) totals[roster[i].student] = {students.back().score, students.back().max_score};
  }
  text::write_file(options.out / "gradebook.csv", long_gradebook(students));
  text::write_file(options.out / "gradebook_wide.csv", wide_gradebook(students, graded_labs(options)));
  return totals;
}

void write_leaderboard(const std::vector<RosterEntry>& roster, const std::vector<Outcome>& outcomes,
                       const fs::path& out) {
  std::vector<StudentLeaderboard> students;
  for (std::size_t i = 0; i < roster.size(); ++i) {
    std::vector<LeaderboardValue> values = leaderboard_values(results_of(roster[i], outcomes[i], out));
    if (!values.empty()) students.push_back({roster[i].identifier, roster[i].student, std::move(values)});
  }
  text::write_file(out / "leaderboard.csv", leaderboard_csv(students));
  text::write_file(out / "leaderboard.md", leaderboard_markdown(students));
}

}  // namespace rooflab::class_grading
