// Turns what a student handed in (a folder, a .zip, or a git repository) into
// a staged copy of the course with only the STUDENT_FILES taken from it.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "manifest.hpp"

namespace rooflab {

struct StagedSubmission {
  std::filesystem::path root;  // the staged course: CMakeLists.txt, cmake/, common/, assignments/, autograder/
  // Per assignment: student files taken from the submission (relative to the
  // assignment dir) and those it lacked, left as the template's stubs.
  std::map<std::string, std::vector<std::string>> taken;
  std::map<std::string, std::vector<std::string>> missing;
  std::vector<std::string> ignored;  // files in the submission the grader did not use
};

// Where the submission's files are: `submission` itself for a folder, else a
// folder under `scratch` holding the unpacked zip or a clone of the repository.
// Throws std::runtime_error with a message naming the path on bad input.
std::filesystem::path unpack_submission(const std::filesystem::path& submission, const std::filesystem::path& scratch);

// Copies the course skeleton from manifest.source_dir into `stage` (the
// student template assignments/ plus hidden tests), then lays the submission's
// STUDENT_FILES over it. Nothing is ever written into `files`.
StagedSubmission stage_submission(const Manifest& manifest, const std::filesystem::path& files,
                                  const std::filesystem::path& stage);

}  // namespace rooflab
