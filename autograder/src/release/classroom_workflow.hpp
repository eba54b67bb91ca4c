// The student repository's .github/workflows/classroom.yml: GitHub Classroom's
// autograding, generated from the rubrics. One command grader per public group
// of tests (visible, and not GPU-only: Classroom's runners have no GPU), worth
// the group's points and running exactly that group's public tests with ctest;
// then the grading reporter. The hidden tests stay with the instructor's grader.
#pragma once

#include <string>
#include <vector>

#include "score/rubric.hpp"

namespace rooflab::release {

// A rubric glob over "Suite.Test" ("Backends/FlashAttention.*") as a regex
// over the student build's ctest names ("<assignment>.public.Suite.Test", and for
// a value-parameterised test "...  # GetParam() = x").
std::string ctest_regex(const std::string& assignment, const std::vector<std::string>& globs);

// True for the groups the workflow grades: visible ones that need no GPU.
bool graded_in_classroom(const RubricGroup& group);

struct ClassroomOptions {
  // Feedback only: every grader is worth 0 points, so Classroom shows which
  // public groups pass without recording a score (the course grade gates public
  // points on hidden tests, which Classroom cannot run).
  bool feedback_only = false;
};

// The workflow for these rubrics, in the order given. The build step keeps
// going past a lab that does not compile and never stops the graders: each
// grader runs its lab's tests whatever happened to the others, so one broken
// lab scores 0 for its own groups only, and the reporter always reports.
std::string classroom_workflow(const std::vector<Rubric>& rubrics, const ClassroomOptions& options = {});

}  // namespace rooflab::release
