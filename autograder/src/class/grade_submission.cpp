#include "class/grade_submission.hpp"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <optional>
#include <vector>

#include "class/grade_all_text.hpp"
#include "class/resume_key.hpp"
#include "class/student_seed.hpp"
#include "class/submission_checkout.hpp"
#include "os/process.hpp"
#include "os/stop_signals.hpp"
#include "text/text.hpp"

namespace rooflab::class_grading {
namespace fs = std::filesystem;
namespace {

// Keeps an earlier report: report -> report.1 (or the next free number).
void keep_earlier(const fs::path& report) {
  if (!fs::exists(report)) return;
  for (int n = 1;; ++n) {
    const fs::path kept = report.string() + "." + std::to_string(n);
    if (!fs::exists(kept)) {
      fs::rename(report, kept);
      return;
    }
  }
}

// The seed `rooflab grade` drew, from its report ("Hidden-test inputs: seed N").
std::string report_seed(const fs::path& results) {
  if (!fs::exists(results)) return "";
  const nlohmann::json json = nlohmann::json::parse(text::read_file(results), nullptr, false);
  if (json.is_discarded() || !json.contains("output") || !json["output"].is_string()) return "";
  const std::string output = json["output"].get<std::string>();
  const std::string marker = "Hidden-test inputs: seed ";
  const std::size_t at = output.find(marker);
  if (at == std::string::npos) return "";
  const std::size_t from = at + marker.size();
  const std::size_t to = output.find_first_not_of("0123456789", from);
  return output.substr(from, to == std::string::npos ? std::string::npos : to - from);
}

Outcome grade_one(const RosterEntry& entry, const GradeAllOptions& options, const std::string& settings) {
  const auto start = std::chrono::steady_clock::now();
  Outcome outcome;
  outcome.student = entry.student;
  outcome.identifier = entry.identifier;
  const fs::path folder = options.out / entry.student;
  fs::create_directories(folder);
  // Each student's own seed, reproducible from the course seed (class/student_seed.hpp).
  std::optional<std::uint64_t> seed;
  if (options.seed) {
    seed = student_seed(*options.seed, entry.identifier);
    outcome.seed = std::to_string(*seed);
  }
  if (entry.submission.empty()) {
    outcome.why = "the roster names no submission (for GitHub Classroom: the assignment was never accepted)";
    return outcome;
  }

  // What is graded, and its hash. With a deadline, a git submission is cloned
  // first: the commit it picks is the content.
  const bool git = is_git_url(entry.submission) || is_local_git(entry.submission);
  std::string submission = entry.submission;
  std::string hash;
  std::optional<Checkout> checkout;
  if (options.deadline && git) {
    checkout = clone_submission(entry.submission, folder, options.deadline);
    if (!checkout->error.empty()) {
      outcome.why = checkout->error;
      return outcome;
    }
    submission = checkout->path.string();
    hash = "commit:" + checkout->commit;
    outcome.commit = checkout->commit;
  } else {
    if (options.deadline)
      outcome.note = "not a git repository: graded as submitted (the deadline " + options.deadline->utc +
                     " applies to git submissions only)";
    hash = submission_hash(entry.submission);
  }

  const std::string key = resume_key(hash, settings, seed ? outcome.seed : "drawn");
  const fs::path hash_file = folder / "graded.hash";
  const fs::path commit_file = folder / "graded_commit";
  const fs::path results = folder / "report" / "results.json";
  if (!options.regrade && !key.empty() && fs::exists(results) && fs::exists(hash_file) &&
      text::trim(text::read_file(hash_file)) == key) {
    outcome.kind = Outcome::Kind::unchanged;
    if (!seed) outcome.seed = report_seed(results);
    if (outcome.commit.empty() && fs::exists(commit_file)) outcome.commit = text::trim(text::read_file(commit_file));
    return outcome;
  }
  // A URL without a deadline: its last commit, as grading a local repository takes.
  if (!checkout && is_git_url(submission)) {
    checkout = clone_submission(submission, folder, std::nullopt);
    if (!checkout->error.empty()) {
      outcome.why = checkout->error;
      return outcome;
    }
    submission = checkout->path.string();
    outcome.commit = checkout->commit;
  }
  const fs::path partial = folder / "report.partial";
  fs::remove_all(partial);  // ours: a grading that was stopped half-way
  std::vector<std::string> argv{options.rooflab.string(),
                                "grade",
                                submission,
                                "--out",
                                partial.string(),
                                "--manifest",
                                options.manifest.string(),
                                "-j",
                                std::to_string(options.jobs)};
  for (const std::string& name : options.only) argv.insert(argv.end(), {"--assignment", name});
  if (seed) argv.insert(argv.end(), {"--seed", outcome.seed});
  if (options.require_sandbox) argv.push_back("--require-sandbox");
  ProcessLimits limits = ProcessLimits::timeout(options.timeout_s);
  const ProcessResult result = run_process(argv, folder, folder / "grade.log", limits);
  outcome.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!fs::exists(partial / "results.json")) {
    outcome.why = result.timed_out ? "grading took longer than " + plain_number(options.timeout_s) + " s"
                                   : "no report (" + result.describe(options.timeout_s) + "; see grade.log)";
    return outcome;
  }
  keep_earlier(folder / "report");
  fs::rename(partial, folder / "report");
  if (outcome.commit.empty()) {
    fs::remove(commit_file);
  } else {
    text::write_file(commit_file, outcome.commit + "\n");
  }
  if (!seed) outcome.seed = report_seed(results);
  text::write_file(hash_file, key + "\n");
  outcome.kind = Outcome::Kind::graded;
  return outcome;
}

}  // namespace

Outcome grade_submission(const RosterEntry& entry, const GradeAllOptions& options, const std::string& settings) {
  try {
    return grade_one(entry, options, settings);
  } catch (const Stopped&) {  // the class's grading was stopped: not this submission's trouble
    throw;
  } catch (const std::exception& error) {  // one submission's trouble is its own
    Outcome outcome;
    outcome.student = entry.student;
    outcome.identifier = entry.identifier;
    outcome.why = error.what();
    return outcome;
  }
}

}  // namespace rooflab::class_grading
