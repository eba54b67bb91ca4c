#include "grading_tables.hpp"

#include <cstdio>
#include <string>

#include "score/rubric.hpp"
#include "stage/manifest.hpp"

namespace rooflab::docs {
namespace {

// When a student sees the group's result, in words (autograder/README.md).
std::string shown(const std::string& visibility) {
  if (visibility == "visible") return "at once";
  if (visibility == "after_due_date") return "after the due date";
  if (visibility == "after_published") return "when grades are published";
  return "never (the score counts)";
}

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

// A group's name in a table cell: a '|' would end the cell.
std::string cell(const std::string& text) {
  std::string escaped;
  for (const char c : text) escaped += c == '|' ? std::string("\\|") : std::string(1, c);
  return escaped;
}

std::string grading_table(const Rubric& rubric) {
  std::string table = "| tests | points | result shown | time per test | memory per test |\n|---|---:|---|---:|---:|\n";
  for (const RubricGroup& group : rubric.groups) {
    const double seconds = group.timeout_s > 0 ? group.timeout_s : rubric.timeout_s;
    const double megabytes = group.memory_limit_mb > 0 ? group.memory_limit_mb : rubric.memory_limit_mb;
    // A bonus group's points are extra, beyond the total (autograder/README.md).
    table += "| " + cell(group.name) + " | " + (group.bonus ? "+" : "") + number(group.points) + " | " +
             shown(group.visibility) + " | " + number(seconds) + " s | " + number(megabytes) + " MiB |\n";
  }
  // The leaderboard's test is timed, not scored: its row says so (autograder/README.md, "Leaderboard").
  if (rubric.leaderboard)
    table += "| leaderboard, not scored: " + cell(rubric.leaderboard->name) + " | 0 | at once | " +
             number(rubric.leaderboard->timeout_s) + " s, run 4 times | " + number(rubric.memory_limit_mb) + " MiB |\n";
  double bonus = 0;
  for (const RubricGroup& group : rubric.groups) bonus += group.bonus ? group.points : 0;
  table += "| **total** | **" + number(rubric.max_score()) + "**" +
           (bonus > 0 ? " + " + number(bonus) + " bonus" : "") + " | | | |\n";
  return table;
}

}  // namespace

void add_grading_tables(Values& values, const Manifest& manifest) {
  for (const AssignmentInfo& info : manifest.assignments) {
    if (info.rubric.empty()) continue;
    const std::filesystem::path rubric = info.rubric;
    values[info.name + ".grading_table"] = [rubric] { return grading_table(Rubric::load(rubric)); };
  }
}

}  // namespace rooflab::docs
