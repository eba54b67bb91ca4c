// `grade-all --slurm` (slurm_array.cpp, with grading_memory_mb of
// class/grade_all.hpp): the per-submission gradings as a Slurm job array
// instead of local workers.
#pragma once

#include <vector>

#include "class/grade_all.hpp"
#include "class/roster.hpp"
#include "class/submission_outcome.hpp"

namespace rooflab::class_grading {

// A Slurm job array: one task per submission, each this program with --task N
// writing into the shared output folder. sbatch --wait returns when all are
// done; meanwhile the tasks' outcome files give the progress. Writes the
// task's script and the sbatch command as run into <out>/slurm/. Throws when
// the manifest or a rubric cannot be read (before anything is submitted).
std::vector<Outcome> grade_on_slurm(const std::vector<RosterEntry>& roster, const GradeAllOptions& options,
                                    int workers);

}  // namespace rooflab::class_grading
