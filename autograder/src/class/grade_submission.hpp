// One submission of grade-all, graded by a `rooflab grade` process of its own
// in <out>/<student>/ (grade_submission.cpp): by a local worker or a Slurm
// array task alike.
#pragma once

#include <string>

#include "class/grade_all.hpp"
#include "class/roster.hpp"
#include "class/submission_outcome.hpp"

namespace rooflab::class_grading {

// Grades `entry` unless its resume key (class/resume_key.hpp, with `settings`
// from grading_settings) is the one its report was graded under. Its report
// goes to <student>/report (an earlier one kept as report.1, ...). Never
// throws: one submission's trouble is its own, a failed outcome.
Outcome grade_submission(const RosterEntry& entry, const GradeAllOptions& options, const std::string& settings);

}  // namespace rooflab::class_grading
