// The reference's side of a report's figures: its profile's output. It is
// the same in every grading on one machine with one reference build (its
// inputs are fixed, its times the machine's), and it is the longest part of
// a grading's plots (a07's training sweep: 8 s on 2 cores), so it runs once
// and is kept in the reference build (grading_cache/, a file per lab, host
// and thread count), where every later grading, and grade-all's, takes it
// up. A run made while other processes took the cores is kept too, but runs
// again in the next grading (which keeps the quieter of the two); the report
// says when the figures' reference ran.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "pipeline/grading.hpp"

namespace rooflab {

struct ReferenceProfile {
  std::string output;  // what the profile printed (the rows the figures parse)
  std::string ran_at;  // when it ran (UTC, "2026-11-29 17:40"), kept or now
  bool kept = false;   // taken from grading_cache/ rather than run now
  bool quiet = true;   // the machine's other processes left the cores free meanwhile
};

// The profile of `info` built as the reference (with `cores` OpenMP
// threads): a quiet kept run, else a run now, kept when it ran to the end
// and nothing quiet was kept (a run that failed is never kept, and a kept
// one stands in for it).
ReferenceProfile reference_profile(const Grading& grading, const AssignmentInfo& info, int cores);

// What a kept run is valid for: the profile binary (its path, size and
// modification time: a rebuilt reference runs again), the machine (its host
// name: a cluster's nodes may share the build) and the thread count. Empty
// when the binary cannot be read.
std::string reference_profile_key(const std::filesystem::path& binary, int cores);

// This machine's host name, as a file name may hold it.
std::string machine_name();

// A kept run's file, and back: nullopt for another key or a file that is not one.
std::string kept_profile_text(const std::string& key, const ReferenceProfile& profile);
std::optional<ReferenceProfile> parse_kept_profile(const std::string& text, const std::string& key);

// Where the reference build keeps them: one file per lab, machine and thread count.
std::filesystem::path kept_profile_file(const Manifest& manifest, const AssignmentInfo& info, int cores);

}  // namespace rooflab
