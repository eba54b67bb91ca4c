// An assignment's rubric (<assignment>/grading/rubric.toml): groups of tests
// with points, visibility and limits. Format and semantics: autograder/README.md.
#pragma once

#include <cstddef>
#include <filesystem>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace rooflab {

class RubricError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct RubricGroup {
  std::string name;
  std::vector<std::string> tests;  // gtest-style globs over "Suite.Test"
  double points = 0;
  std::string visibility = "visible";  // visible | hidden | after_due_date | after_published
  bool all_or_nothing = false;         // else each passing test earns points / tests-in-group
  // Extra credit: its points are earned as usual but count in no maximum
  // (the assignment's, its tests', Gradescope's), so a score can pass it.
  bool bonus = false;
  double timeout_s = 0;  // 0: the rubric's default
  // Address space of each of the group's test processes. A group may set it
  // low to grade memory use: the kernel enforces it, student code cannot forge it.
  double memory_limit_mb = 0;
};

// Points that are earned only together with other tests: every test matching
// `tests` earns its share only when every test matching `earned_with` passed
// (or was skipped on this machine). Validation tests are gated by right answers
// on valid input, so code that always throws earns nothing; public tests by
// hidden ones on inputs students never see, so a table of the public answers
// earns nothing either.
struct RubricGate {
  std::vector<std::string> tests;        // globs over "Suite.Test"
  std::vector<std::string> earned_with;  // globs over "Suite.Test"
  std::string reason;                    // shown in the report when the gate withholds points
};

// The assignment's leaderboard test ([leaderboard]): one test, in no group and
// worth no points, that times the submission at one fixed shape in the
// verdict process. The grader runs it alternately with the reference's worker
// and the submission's, and reports reference time / submission time.
struct RubricLeaderboard {
  std::string test;      // exact "Suite.Test"
  std::string name;      // the leaderboard's column name, e.g. "a04 flash attention"
  double timeout_s = 0;  // per run of the test; 0: the rubric's default
};

struct Rubric {
  // The owner Rubric::assign gives the leaderboard test: no group.
  static constexpr std::size_t kLeaderboardTest = std::numeric_limits<std::size_t>::max();

  std::string assignment;
  double timeout_s = 10;          // per test, wall clock
  double memory_limit_mb = 2048;  // address space per test process
  std::vector<RubricGroup> groups;
  std::vector<RubricGate> gates;
  std::optional<RubricLeaderboard> leaderboard;

  // Throws RubricError "file: field: what is wrong" for any unknown key, missing
  // field, wrong type or value out of range.
  static Rubric load(const std::filesystem::path& path);

  // The group index of each test, kLeaderboardTest for the leaderboard test.
  // Throws RubricError naming every test that no group (or more than one
  // group) claims, every group that claims nothing, every gate pattern that
  // matches no test, a leaderboard test that is missing, and one that a group
  // or gate claims (it is never scored).
  std::vector<std::size_t> assign(const std::vector<std::string>& tests) const;

  double max_score() const;

  // The course's rules for gates, checked against the tests of the reference
  // build (tests/rubric_policy_test.cpp): every validation test (one that
  // recorded the gtest property rooflab_validation) earns its points only
  // with a test that checks a value; every test of a visible group earns its
  // points only with a test of a hidden group, whose inputs students never
  // see. Returns one line per test that breaks a rule.
  struct TestTraits {
    std::string name;
    bool validation = false;
  };
  std::vector<std::string> gate_policy_problems(const std::vector<TestTraits>& tests) const;
};

}  // namespace rooflab
