// What grade-all writes for the whole class once every submission has an
// outcome: the gradebooks and the leaderboard (grade_all_gradebooks.cpp) and
// summary.md with its histogram (grade_all_summary.cpp).
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "class/grade_all.hpp"
#include "class/roster.hpp"
#include "class/submission_outcome.hpp"

namespace rooflab::class_grading {

struct Totals {
  double score = 0, max_score = 0;
};

// gradebook.csv and gradebook_wide.csv; returns each graded student's total.
// `outcomes[i]` is `roster[i]`'s.
std::map<std::string, Totals> write_gradebooks(const std::vector<RosterEntry>& roster,
                                               const std::vector<Outcome>& outcomes, const GradeAllOptions& options);

// leaderboard.csv and leaderboard.md (class_leaderboard.hpp), from the
// reports of the students whose grading did not fail.
void write_leaderboard(const std::vector<RosterEntry>& roster, const std::vector<Outcome>& outcomes,
                       const std::filesystem::path& out);

// histogram.csv (10 bins of the total's fraction), and histogram.png where gnuplot runs.
void write_histogram(const std::map<std::string, Totals>& totals, const std::filesystem::path& out);

// summary.md: the counts, the scores' spread, how seeds and the deadline were
// applied, the roster's warnings, who could not be graded and why, and notes.
void write_summary(const std::vector<RosterEntry>& roster, const std::vector<Outcome>& outcomes,
                   const std::map<std::string, Totals>& totals, const GradeAllOptions& options, double seconds);

}  // namespace rooflab::class_grading
