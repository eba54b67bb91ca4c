// Turns what a student handed in (a folder, a .zip, or a git repository) into
// a staged copy of the course with only the STUDENT_FILES taken from it.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "os/sandbox.hpp"
#include "stage/manifest.hpp"

namespace rooflab {

struct StagedSubmission {
  std::filesystem::path root;  // the staged course: CMakeLists.txt, cmake/, common/, assignments/, kit/
  // Per assignment: student files taken from the submission (relative to the
  // assignment dir) and those it lacked, left as the template's stubs.
  std::map<std::string, std::vector<std::string>> taken;
  std::map<std::string, std::vector<std::string>> missing;
  // Student files refused (symlink, outside the submission, too large, not a
  // regular file), each with the reason; graded as the template's stub.
  std::map<std::string, std::vector<std::string>> rejected;
  std::vector<std::string> ignored;  // files in the submission the grader did not use
  // Entries staging could not read or did not finish listing, each with the
  // reason (a looping symlink, a folder it may not read, too many entries).
  std::vector<std::string> unreadable;
};

// Caps on what a submission may unpack to and hand in.
inline constexpr std::uintmax_t kMaxStudentFileBytes = 1u << 20;
inline constexpr std::uintmax_t kMaxUnpackedFileBytes = 64u << 20;
inline constexpr std::uintmax_t kMaxUnpackedTotalBytes = 256u << 20;
inline constexpr std::size_t kMaxZipEntries = 10000;

// Caps on what staging walks: a submission with more entries than this is
// listed only this far (the report says so).
inline constexpr std::size_t kMaxListedEntries = 20000;

struct UnpackedSubmission {
  std::filesystem::path files;       // where the submission's files are
  std::vector<std::string> refused;  // entries not unpacked, each with the reason
};

// Where the submission's files are: `submission` itself for a folder, else a
// folder under `scratch` holding the unpacked zip or a clone of the repository.
// A zip is listed first and refused, naming the entry, for absolute paths, "..",
// too many entries or sizes over the caps (a zip bomb); its symbolic links are
// not unpacked, and each is named in `refused`. unzip and git run in the
// sandbox. Throws std::runtime_error naming the path on bad input.
UnpackedSubmission unpack_submission(const std::filesystem::path& submission, const std::filesystem::path& scratch,
                                     const Sandbox& sandbox);

// Copies the course skeleton from manifest.source_dir into `stage` (the build
// files, common/ and the student template assignments/) and the reference
// build's grading kit into kit/, then lays the submission's STUDENT_FILES over
// it. Hidden tests are never staged. Nothing is ever written into `files`, and
// no symbolic link in it is ever followed: every filesystem call on it reports
// trouble as a refused or unreadable entry instead of throwing.
StagedSubmission stage_submission(const Manifest& manifest, const std::filesystem::path& files,
                                  const std::filesystem::path& stage);

}  // namespace rooflab
