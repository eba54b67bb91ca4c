// The student repository's README (student/README.md) for a repository that
// holds some labs only (lab export-student --assignment): its tested "Start
// here" commands run the first of those labs, and its table of labs lists
// those labs alone.
#pragma once

#include <string>
#include <vector>

namespace rooflab::release {

struct ReadmeLab {
  std::string name;  // "a05_cuda_attention"
  bool has_examples = false;
  bool has_profile = false;
};

// `readme` with the commands block after "<!-- commands: run by the course's
// tests" rewritten for `labs.front()`, each other mention of a01_roofline as
// the lab to start with replaced, and the labs table's rows of other labs
// removed. `labs` in the course's order; not empty.
std::string readme_for_labs(const std::string& readme, const std::vector<ReadmeLab>& labs);

}  // namespace rooflab::release
