// The orchestration of `lab grade-all` (class/grade_all.hpp): read the roster,
// claim the output folder, grade every submission (local workers or a Slurm
// job array), then write the gradebooks and the summary. The parts live beside
// it: grade_submission.cpp (one submission), submission_checkout.cpp (git),
// resume_key.cpp ("unchanged"), slurm_array.cpp, grade_all_gradebooks.cpp and
// grade_all_summary.cpp.
#include "class/grade_all.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <iostream>
#include <thread>

#include "class/grade_all_reports.hpp"
#include "class/grade_all_text.hpp"
#include "class/grade_submission.hpp"
#include "class/grading_progress.hpp"
#include "class/resume_key.hpp"
#include "class/roster.hpp"
#include "class/slurm_array.hpp"
#include "class/submission_outcome.hpp"
#include "os/stop_signals.hpp"
#include "text/text.hpp"

namespace rooflab {
namespace fs = std::filesystem;
using class_grading::clock_text;
using class_grading::grade_on_slurm;
using class_grading::grade_submission;
using class_grading::grading_settings;
using class_grading::Outcome;
using class_grading::Progress;
using class_grading::write_gradebooks;
using class_grading::write_histogram;
using class_grading::write_leaderboard;
using class_grading::write_outcome;
using class_grading::write_summary;
namespace {

// The file that marks a folder as grade-all's, so that a rerun may write into it.
constexpr const char* kMarker = ".rooflab-grade-all";

// Local workers: `workers` threads, each taking the next submission.
std::vector<Outcome> grade_locally(const std::vector<RosterEntry>& roster, const GradeAllOptions& options,
                                   const std::string& settings, int workers) {
  std::vector<Outcome> outcomes(roster.size());
  std::atomic<std::size_t> next{0};
  Progress progress(roster.size(), workers);
  std::atomic<int> stopped{0};
  const auto work = [&] {
    try {
      for (std::size_t i = next++; i < roster.size(); i = next++) {
        outcomes[i] = grade_submission(roster[i], options, settings);
        write_outcome(options.out, outcomes[i]);
        progress.finished(outcomes[i]);
      }
    } catch (const Stopped& stop) {  // the others stop at their next wait; a rerun grades what is left
      stopped = stop.signal();
    }
  };
  std::vector<std::thread> threads;
  for (int w = 0; w < workers; ++w) threads.emplace_back(work);
  for (std::thread& thread : threads) thread.join();
  if (stopped) throw Stopped(stopped);
  return outcomes;
}

}  // namespace

int run_grade_all(const GradeAllOptions& given) {
  // Absolute paths: each grading runs in its student's folder.
  GradeAllOptions options = given;
  options.out = fs::absolute(options.out).lexically_normal();
  options.roster = fs::absolute(options.roster).lexically_normal();
  options.manifest = fs::absolute(options.manifest);
  std::vector<RosterEntry> roster;
  try {
    roster = read_roster(options.roster);
  } catch (const RosterError& error) {
    std::cerr << "grade-all: " << error.what() << "\n";
    return 2;
  }
  if (fs::exists(options.out) && !fs::is_empty(options.out) && !fs::exists(options.out / kMarker)) {
    std::cerr << "grade-all: --out " << options.out.string()
              << " holds something that grade-all did not write; choose a new folder (nothing was written)\n";
    return 2;
  }
  fs::create_directories(options.out);
  // A Slurm task finds the marker its driver wrote: nothing to write again.
  if (!options.task)
    text::write_file(options.out / kMarker, "a folder of `lab grade-all`: reruns grade only what changed\n");

  for (const RosterEntry& entry : roster)
    if (!entry.warning.empty() && !options.task)
      std::cerr << "grade-all: warning: " << text::untrusted_line(entry.warning, 400) << "\n";

  // What decides "unchanged" beside the content and the student's seed (class/resume_key.hpp).
  std::string settings;
  try {
    settings = grading_settings(options);
  } catch (const std::exception& error) {
    std::cerr << "grade-all: " << error.what() << "\n";
    return 2;
  }

  if (options.task) {  // one Slurm array task: one submission, no gradebook
    if (*options.task >= roster.size()) {
      std::cerr << "grade-all: --task " << *options.task << ": the roster has " << roster.size() << " entries\n";
      return 2;
    }
    const Outcome outcome = grade_submission(roster[*options.task], options, settings);
    write_outcome(options.out, outcome);
    return outcome.kind == Outcome::Kind::failed ? 1 : 0;
  }

  const auto start = std::chrono::steady_clock::now();
  const int workers = std::max(1, std::min<int>(options.workers, static_cast<int>(roster.size())));
  std::vector<Outcome> outcomes;
  if (options.slurm) {
    try {
      outcomes = grade_on_slurm(roster, options, workers);
    } catch (const std::exception& error) {  // the manifest or a rubric: before anything was submitted
      std::cerr << "grade-all: --slurm: " << error.what() << "\n";
      return 2;
    }
  } else {
    std::cerr << "grade-all: " << roster.size() << " submissions, " << workers << " at a time\n";
    outcomes = grade_locally(roster, options, settings, workers);
  }

  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const auto totals = write_gradebooks(roster, outcomes, options);
  write_leaderboard(roster, outcomes, options.out);
  write_histogram(totals, options.out);
  write_summary(roster, outcomes, totals, options, seconds);
  const bool all = std::all_of(outcomes.begin(), outcomes.end(),
                               [](const Outcome& outcome) { return outcome.kind != Outcome::Kind::failed; });
  std::cout << "grade-all: " << roster.size() << " submissions in " << clock_text(seconds) << "; gradebooks "
            << (options.out / "gradebook.csv").string() << " and " << (options.out / "gradebook_wide.csv").string()
            << ", summary " << (options.out / "summary.md").string() << "\n";
  return all ? 0 : 1;
}

}  // namespace rooflab
