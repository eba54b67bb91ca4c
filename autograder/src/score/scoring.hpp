// Points from outcomes: the rubric's groups, their shares, all-or-nothing
// groups and gates. A pure function of the outcomes and the rubric, so that
// every rule is unit-tested without grading anything.
#pragma once

#include <cstddef>
#include <vector>

#include "report/results.hpp"
#include "score/rubric.hpp"

namespace rooflab {

// Fills assignment.groups, each test's score and max_score (and withheld_by),
// and the assignment's totals. `owner[t]` is the rubric group of tests[t]
// (Rubric::assign). The rules:
// - a group's points are shared equally by its tests that ran: a test skipped
//   because it cannot run on this grading machine (decided in the verdict
//   process, never by student code) is worth 0 of 0, and a group whose every
//   test skipped is worth 0 of 0;
// - an all_or_nothing group pays only when every test that ran earned its share;
// - a passing test that a [[gate]] names earns its share only when every test
//   the gate requires passed (or was skipped); otherwise withheld_by names them.
void score(AssignmentResult& assignment, const Rubric& rubric, const std::vector<std::size_t>& owner);

}  // namespace rooflab
