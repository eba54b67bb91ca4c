#include "class/graded_assignments.hpp"

#include <algorithm>

namespace rooflab::class_grading {

std::vector<AssignmentInfo> graded_assignments(const Manifest& manifest, const std::vector<std::string>& only) {
  std::vector<AssignmentInfo> graded;
  for (const AssignmentInfo& info : manifest.assignments)
    if (only.empty() || std::find(only.begin(), only.end(), info.name) != only.end()) graded.push_back(info);
  return graded;
}

}  // namespace rooflab::class_grading
