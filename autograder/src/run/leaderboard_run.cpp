#include "run/leaderboard_run.hpp"

#include <algorithm>
#include <iostream>

#include "pipeline/grading.hpp"
#include "text/text.hpp"
#include "verdict/verdict_decision.hpp"

namespace rooflab {
namespace fs = std::filesystem;

std::optional<GradedBinaries> reference_worker(const Grading& grading, const AssignmentInfo& info,
                                               const GradedBinaries& submission, std::string& why_not) {
  GradedBinaries reference = submission;
  reference.worker = Manifest::worker_binary(grading.manifest.binary_dir, info);
  // The sandbox shows the reference's worker its own folder only, read-only,
  // as it shows the submission's worker its build.
  reference.worker_build_dir = reference.worker.parent_path();
  std::error_code error;
  if (!fs::is_regular_file(reference.worker, error)) {
    why_not = "the reference build has no worker for " + info.name + " (" + reference.worker.string() + ")";
    return std::nullopt;
  }
  // The reference's CUDA kernels run where its build found a GPU; the
  // submission's on this machine's GPU where the grader built them for one
  // (the GPU cross-check's build), else in the CPU runtime, many times slower.
  if (!info.cuda_files.empty() && grading.manifest.kernels_on_gpu != submission.gpu) {
    why_not = std::string("the reference's CUDA kernels run ") +
              (grading.manifest.kernels_on_gpu ? "on a GPU" : "in the CPU runtime") + " and yours " +
              (submission.gpu ? "on this machine's GPU" : "in the CPU runtime") + ": no like-for-like comparison";
    return std::nullopt;
  }
  return reference;
}

LeaderboardResult run_leaderboard(const Grading& grading, const GradedBinaries& submission,
                                  const std::optional<GradedBinaries>& reference, const RubricLeaderboard& leaderboard,
                                  const TestLimits& limits, const fs::path& scratch, int rounds) {
  LeaderboardResult result;
  result.name = leaderboard.name;
  result.test = leaderboard.test;
  const auto keep_best = [](std::optional<double>& best, double seconds) {
    best = best ? std::min(*best, seconds) : seconds;
  };
  for (int round = 0; round < rounds; ++round) {
    if (reference) {
      GradedBinaries binaries = *reference;
      binaries.seed = submission.seed + static_cast<std::uint64_t>(round);
      const TestOutcome ran =
          run_test(grading, binaries, leaderboard.test, limits, scratch / ("reference-" + std::to_string(round)));
      if (ran.measured_s)
        keep_best(result.reference_s, *ran.measured_s);
      else if (result.note.empty())  // the reference is right: a failure is this machine's (overloaded, too slow)
        result.note = reference_failure_note(ran);
    }
    GradedBinaries binaries = submission;
    binaries.seed = submission.seed + static_cast<std::uint64_t>(round);
    result.outcome =
        run_test(grading, binaries, leaderboard.test, limits, scratch / ("submission-" + std::to_string(round)));
    if (!result.outcome.measured_s) {  // failed, or passed without recording a time: no place at all
      if (result.outcome.status == TestStatus::passed) {
        result.outcome.status = TestStatus::failed;
        result.outcome.message =
            "the leaderboard test passed without recording a time (" + std::string(kLeaderboardProperty) + ")";
      }
      result.submission_s.reset();
      result.reference_s.reset();
      return result;
    }
    keep_best(result.submission_s, *result.outcome.measured_s);
  }
  if (result.reference_s) result.note.clear();  // one reference run was enough
  return result;
}

std::string reference_failure_note(const TestOutcome& ran) {
  return std::string("the reference's run ") + to_string(ran.status) + " on this machine" +
         (ran.message.empty() ? std::string() : ": " + text::first_lines(ran.message, 6));
}

}  // namespace rooflab
