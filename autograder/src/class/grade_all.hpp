// `lab grade-all ROSTER`: grade a whole class. Each submission is graded by its
// own `rooflab grade` process (one failure never stops the rest), several at
// once, with progress and an estimate of the time left. Resumable: a
// submission whose content is unchanged since its last grading is not graded
// again. Writes, into the output folder:
//   <student>/report/       that student's report (an earlier one is kept as report.1, report.2, ...)
//   gradebook.csv           student, assignment, group, score, max_score (and each student's total)
//   summary.md              how many were graded, failed or unchanged; the scores' spread
//   histogram.csv, histogram.png (where gnuplot is) the totals' distribution
// With --slurm the gradings run as a Slurm job array instead of local workers.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace rooflab {

struct GradeAllOptions {
  std::filesystem::path roster;       // folder or CSV (class/roster.hpp)
  std::filesystem::path out;          // new, or the folder of an earlier grade-all
  std::filesystem::path rooflab;      // this program, run once per submission
  std::filesystem::path manifest;     // the reference build's manifest
  int workers = 1;                    // submissions graded at once
  int jobs = 1;                       // tests in parallel within each grading
  std::vector<std::string> only;      // --assignment: these labs only (all when empty)
  std::optional<std::uint64_t> seed;  // hidden tests' seed (drawn per grading when absent)
  bool regrade = false;               // grade even what is unchanged
  double timeout_s = 3600;            // per submission
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

}  // namespace rooflab
