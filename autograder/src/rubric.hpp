// An assignment's rubric (autograder/<assignment>/rubric.toml): groups of tests
// with points, visibility and limits. Format and semantics: autograder/README.md.
#pragma once

#include <filesystem>
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
  double timeout_s = 0;                // 0: the rubric's default
  // Address space of each of the group's test processes. A group may set it
  // low to grade memory use: the kernel enforces it, student code cannot forge it.
  double memory_limit_mb = 0;
};

struct Rubric {
  std::string assignment;
  double timeout_s = 10;          // per test, wall clock
  double memory_limit_mb = 2048;  // address space per test process
  std::vector<RubricGroup> groups;

  // Throws RubricError "file: field: what is wrong" for any unknown key, missing
  // field, wrong type or value out of range.
  static Rubric load(const std::filesystem::path& path);

  // The group index of each test. Throws RubricError naming every test that no
  // group (or more than one group) claims, and every group that claims nothing.
  std::vector<std::size_t> assign(const std::vector<std::string>& tests) const;

  double max_score() const;
};

}  // namespace rooflab
