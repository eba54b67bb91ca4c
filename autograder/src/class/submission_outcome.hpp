// What happened to one submission of grade-all, and its file
// <student>/outcome.json (submission_outcome.cpp): written by whoever graded
// it (a local worker or a Slurm task), read for the gradebooks and the summary.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "class/roster.hpp"

namespace rooflab::class_grading {

struct Outcome {
  std::string student;
  std::string identifier;  // the roster's
  enum class Kind { graded, unchanged, failed } kind = Kind::failed;
  std::string why;     // for failed
  std::string note;    // for the instructor, not a failure (e.g. a deadline that a zip cannot have)
  std::string seed;    // the hidden tests' seed of the report, when known
  std::string commit;  // the commit graded, for a git submission graded from a clone
  double seconds = 0;
};

// <out>/<student>/outcome.json.
void write_outcome(const std::filesystem::path& out, const Outcome& outcome);

// The outcome a grading left for this entry; nullopt when there is none (yet)
// or it is not JSON. A failure without a reason reads as "unreadable".
std::optional<Outcome> read_outcome(const std::filesystem::path& out, const RosterEntry& entry);

}  // namespace rooflab::class_grading
