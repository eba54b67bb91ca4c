// `lab grade-all ROSTER`: grade a whole class. Each submission is graded by its
// own `rooflab grade` process (one failure never stops the rest), several at
// once, with progress and an estimate of the time left. Resumable: a
// submission is not graded again while its content, the grading side (this
// program, the manifest, the rubrics, the verdict binaries and the grading
// kit) and the settings (labs, seed, deadline) are all unchanged. Writes, into
// the output folder:
//   <student>/report/       that student's report (an earlier one is kept as report.1, report.2, ...)
//   <student>/graded_commit the commit graded, for a git submission
//   gradebook.csv           student, assignment, group, score, max_score, status (and each student's total)
//   gradebook_wide.csv      one row per student for an LMS: the roster's identifier, the folder,
//                           each lab's total, the total, status, seed and commit (class/gradebook.hpp)
//   summary.md              how many were graded, failed or unchanged; the scores' spread; warnings
//   histogram.csv, histogram.png (where gnuplot is) the totals' distribution
// A student whose grading failed has rows too: scores 0 and status "failed: why".
// With --slurm the gradings run as a Slurm job array instead of local workers
// (sbatch --mem from grading_memory_mb below, unless --sbatch-option gives one).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "class/deadline.hpp"

namespace rooflab {

struct GradeAllOptions {
  std::filesystem::path roster;    // folder or CSV (class/roster.hpp)
  std::filesystem::path out;       // new, or the folder of an earlier grade-all
  std::filesystem::path rooflab;   // this program, run once per submission
  std::filesystem::path manifest;  // the reference build's manifest
  int workers = 1;                 // submissions graded at once
  int jobs = 1;                    // tests in parallel within each grading
  std::vector<std::string> only;   // --assignment: these labs only (all when empty)
  // The course seed: each student's hidden tests get student_seed(seed,
  // identifier) (class/student_seed.hpp). Absent: drawn per grading.
  std::optional<std::uint64_t> seed;
  // Git submissions are graded at their last commit at or before it (a clone
  // in the student's folder); folders and zips as they are, with a note.
  std::optional<Deadline> deadline;
  bool regrade = false;          // grade even what is unchanged
  bool require_sandbox = false;  // `rooflab grade --require-sandbox`: refuse where bubblewrap cannot run (exams)
  double timeout_s = 3600;       // per submission
  // --slurm: the same per-submission grading as a Slurm job array (one task per
  // submission, `workers` at a time, one shared output folder), then the same
  // gradebook. Each task is this program run with --task N.
  bool slurm = false;
  std::string slurm_gres = "auto";          // auto: gpu:1 when a graded lab has CUDA kernels; none; or a --gres spec
  std::vector<std::string> sbatch_options;  // passed to sbatch as they are (e.g. --partition=gpu)
  std::optional<std::size_t> task;          // grade only roster entry N (a Slurm array task), no gradebook
};

// Returns the process exit code: 0 when every submission has a report, 1 when
// some could not be graded (named in summary.md), 2 for bad input.
int run_grade_all(const GradeAllOptions& options);

// The content hash that decides "unchanged": the files of a folder (not .git/
// or build/), the bytes of a zip, or the commit a git URL's HEAD names
// (empty when it cannot be read: then it is always graded).
std::string submission_hash(const std::string& submission);

// The grading side's part of "unchanged": a hash of this program's bytes, the
// manifest, and for each graded lab its rubric, its verdict binary (the
// hidden tests are compiled into it) and the grading kit every worker links.
// Fixing a hidden test or a rubric, or rebuilding the grader, changes it, and
// a rerun regrades everyone. A file that cannot be read counts as "absent".
// Throws std::runtime_error when the manifest cannot be read.
std::string grading_fingerprint(const std::filesystem::path& rooflab, const std::filesystem::path& manifest,
                                const std::vector<std::string>& only);

// The memory one grading may need, for sbatch --mem, in MiB (see the formula
// in slurm_array.cpp). Throws std::runtime_error (manifest) or RubricError.
std::uint64_t grading_memory_mb(const std::filesystem::path& manifest, const std::vector<std::string>& only,
                                int test_jobs);

}  // namespace rooflab
