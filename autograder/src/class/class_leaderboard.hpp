// grade-all's leaderboard: each student's leaderboard values from their
// report's results.json (the metrics the verdict measured itself, beside the
// reference: autograder/src/run/leaderboard_run.hpp), ranked per metric into
// leaderboard.csv and leaderboard.md. Not scored. A report is a file a
// grading wrote, so every value is validated again: a name that is not
// printable text, a value that is not a finite number or an order that is
// neither "asc" nor "desc" drops that entry.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace rooflab::class_grading {

struct LeaderboardValue {
  std::string metric;  // e.g. "a04 flash attention (...): speed relative to the reference"
  double value = 0;
  bool descending = true;  // "desc": higher is better
};

// The valid entries of a results.json's "leaderboard" array (none when absent).
std::vector<LeaderboardValue> leaderboard_values(const nlohmann::json& results);

struct StudentLeaderboard {
  std::string identifier;  // the roster's
  std::string student;     // the folder name
  std::vector<LeaderboardValue> values;
};

// One row per (metric, student): metric, rank, identifier, folder, value; the
// metrics in the order first seen, each ranked best first (ties share a rank).
std::string leaderboard_csv(const std::vector<StudentLeaderboard>& students);

// The same as Markdown: one table per metric.
std::string leaderboard_markdown(const std::vector<StudentLeaderboard>& students);

}  // namespace rooflab::class_grading
