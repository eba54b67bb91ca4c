// grade-all's two gradebooks, from each student's grades (read from their
// report by grade_all_gradebooks.cpp). Pure (gradebook.cpp): autograder/tests/class_gradebook_test.cpp.
//   gradebook.csv       long: student, assignment, group, score, max_score, status;
//                       one row per group and a `total` row per student
//   gradebook_wide.csv  wide, for an LMS import: one row per student, keyed by
//                       the roster's original identifier; one column per lab
// A student whose grading failed still has their rows: scores 0, and the
// status says why, so that nobody silently drops out of an import.
#pragma once

#include <string>
#include <vector>

#include "class/csv.hpp"
#include "text/text.hpp"

namespace rooflab {

struct GroupScore {
  std::string assignment, group;
  double score = 0, max_score = 0;
};

struct StudentGrades {
  std::string identifier;   // the roster's, as given (already capped, one line)
  std::string student;      // the output folder's name
  std::string status;       // "graded", "unchanged" (graded by an earlier run) or "failed: why"
  std::string seed;         // the hidden tests' seed of this grading, or empty when unknown
  std::string commit;       // the commit graded (git submissions), or empty
  bool has_report = false;  // false: every score is 0
  std::vector<GroupScore> groups;
  double score = 0, max_score = 0;  // the report's total and the groups' maximum
};

// A score as the gradebooks print it: no exponent, no trailing zeros.
std::string gradebook_number(double value);

// A status or reason from outside (it may quote a URL or a message): one line, capped.
std::string gradebook_status(const std::string& status);

// One record: cells (each already a CSV field) joined by commas, with its newline.
// (Appending piecewise also keeps GCC 12's -Wrestrict false positive on
// `"," + std::string` away.)
void add_row(std::string& book, const std::vector<std::string>& cells);

std::string long_gradebook(const std::vector<StudentGrades>& students);

// `labs`: the graded labs, in the manifest's order; each is a column (its
// total), whether or not a student's report has it (0 when it does not).
std::string wide_gradebook(const std::vector<StudentGrades>& students, const std::vector<std::string>& labs);

}  // namespace rooflab
