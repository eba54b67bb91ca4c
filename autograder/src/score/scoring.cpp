#include "score/scoring.hpp"

#include "text/text.hpp"

namespace rooflab {
namespace {

bool matches_any(const std::vector<std::string>& patterns, const std::string& name) {
  for (const auto& pattern : patterns)
    if (text::glob_match(pattern, name)) return true;
  return false;
}

// The required tests (other than the test itself) that neither passed nor were
// skipped, for every gate that names test t; and the gates' reasons.
void apply_gates(GradedTest& test, const std::vector<GradedTest>& tests, const Rubric& rubric) {
  for (const RubricGate& gate : rubric.gates) {
    if (!matches_any(gate.tests, test.outcome.name)) continue;
    bool unmet = false;
    for (const GradedTest& other : tests) {
      if (&other == &test || !matches_any(gate.earned_with, other.outcome.name)) continue;
      const TestStatus status = other.outcome.status;
      if (status == TestStatus::passed || status == TestStatus::skipped) continue;
      test.withheld_by.push_back(other.outcome.name + " (" + to_string(status) + ")");
      unmet = true;
    }
    if (unmet && !gate.reason.empty()) test.gate_reason += (test.gate_reason.empty() ? "" : "; ") + gate.reason;
  }
}

}  // namespace

void score(AssignmentResult& assignment, const Rubric& rubric, const std::vector<std::size_t>& owner) {
  assignment.groups.assign(rubric.groups.size(), {});
  for (std::size_t g = 0; g < rubric.groups.size(); ++g) {
    assignment.groups[g].name = rubric.groups[g].name;
    assignment.groups[g].max_score = rubric.groups[g].bonus ? 0 : rubric.groups[g].points;
    assignment.groups[g].bonus_points = rubric.groups[g].bonus ? rubric.groups[g].points : 0;
  }
  std::vector<GradedTest>& tests = assignment.tests;
  const auto ran = [&](std::size_t t) { return tests[t].outcome.status != TestStatus::skipped; };
  for (std::size_t t = 0; t < tests.size(); ++t) {
    tests[t].withheld_by.clear();
    tests[t].gate_reason.clear();
    if (tests[t].outcome.status == TestStatus::passed) apply_gates(tests[t], tests, rubric);
    if (!ran(t)) continue;
    GroupSummary& group = assignment.groups[owner[t]];
    ++group.total;
    group.passed += tests[t].outcome.status == TestStatus::passed;
  }
  // A test earns its share when it passed and no gate withheld it.
  const auto earns = [&](std::size_t t) {
    return tests[t].outcome.status == TestStatus::passed && tests[t].withheld_by.empty();
  };
  std::vector<bool> group_complete(rubric.groups.size(), true);
  for (std::size_t t = 0; t < tests.size(); ++t)
    if (ran(t) && !earns(t)) group_complete[owner[t]] = false;
  for (std::size_t t = 0; t < tests.size(); ++t) {
    GradedTest& test = tests[t];
    const RubricGroup& rule = rubric.groups[owner[t]];
    // A bonus test's share is earned beyond its maximum of 0.
    const double share = ran(t) ? rule.points / assignment.groups[owner[t]].total : 0.0;
    test.max_score = rule.bonus ? 0.0 : share;
    test.score = earns(t) && (!rule.all_or_nothing || group_complete[owner[t]]) ? share : 0.0;
    assignment.groups[owner[t]].score += test.score;
  }
  assignment.max_score = 0;
  assignment.score = 0;
  for (auto& group : assignment.groups) {
    if (group.total == 0) group.max_score = 0;
    assignment.max_score += group.max_score;
    assignment.score += group.score;
  }
}

}  // namespace rooflab
