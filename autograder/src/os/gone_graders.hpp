// What a grader killed outright (SIGKILL: a time limit's, the OOM killer's, a
// stop whose grace ran out) leaves behind, named by its pid as every grading
// names its own (rooflab-grade-PID-…): the empty mount point of its scratch
// space, and its cgroups. The next grading on the machine removes them.
#pragma once

#include <filesystem>
#include <string>

namespace rooflab {

// Whether `name` is a grading's (rooflab-grade-PID-…) whose grader process is
// gone. A running one, or a process this one may not signal, is not.
bool left_by_a_gone_grader(const std::string& name);

// Removes the cgroups in `parent` that gone graders left, children first;
// one that still holds a process stays.
void remove_cgroups_of_gone_graders(const std::filesystem::path& parent);

// Removes the scratch-space mount points in `folder` that gone graders left
// (where it was a tmpfs, a grading killed outright cannot remove its folder):
// empty, and a minute old or more (a pid just reused by a grading starting
// now). Every grading calls it as it starts (os/scratch_space.hpp).
void remove_abandoned_mount_points(const std::filesystem::path& folder);

}  // namespace rooflab
