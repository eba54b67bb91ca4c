// Which of the manifest's labs a grade-all run grades (graded_assignments.cpp):
// --assignment's, or all of them.
#pragma once

#include <string>
#include <vector>

#include "stage/manifest.hpp"

namespace rooflab::class_grading {

// The manifest's assignments named in `only` (all when it is empty), in the manifest's order.
std::vector<AssignmentInfo> graded_assignments(const Manifest& manifest, const std::vector<std::string>& only);

}  // namespace rooflab::class_grading
