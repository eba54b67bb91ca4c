// The git side of grade-all (submission_checkout.cpp): which submissions are
// git repositories, and a clone of one checked out at the commit to grade
// (its last, or the last at or before --deadline).
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "class/deadline.hpp"

namespace rooflab::class_grading {

// A local git repository: a working copy (.git inside) or a bare one.
bool is_local_git(const std::string& submission);

struct Checkout {
  std::filesystem::path path;  // the clone, checked out
  std::string commit;          // the commit checked out
  std::string error;           // why there is none
};

// A git submission cloned into <folder>/repository: `rooflab grade` takes a
// local folder, and a deadline needs a commit of its own choosing. The
// student's repository is only read: a clone over file:// copies its objects
// (no hard links, no worktree registered in it). Without a deadline, a URL's
// last commit (a shallow clone); with one, the last commit at or before it
// (`git rev-list -1 --before`, by committer date). git's output goes to
// <folder>/clone.log and <folder>/checkout.log.
Checkout clone_submission(const std::string& submission, const std::filesystem::path& folder,
                          const std::optional<Deadline>& deadline);

}  // namespace rooflab::class_grading
