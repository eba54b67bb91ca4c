#include "class/grade_all.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <map>
#include <mutex>
#include <numeric>
#include <thread>

#include <unistd.h>

#include "class/roster.hpp"
#include "os/process.hpp"
#include "stage/manifest.hpp"
#include "text/text.hpp"

namespace rooflab {
namespace fs = std::filesystem;
namespace {

// The file that marks a folder as grade-all's, so that a rerun may write into it.
constexpr const char* kMarker = ".rooflab-grade-all";

// 64-bit FNV-1a: a stable content hash (std::hash may differ between builds).
struct Fnv {
  std::uint64_t value = 1469598103934665603ull;
  void add(const std::string& bytes) {
    for (const unsigned char c : bytes) value = (value ^ c) * 1099511628211ull;
    value = (value ^ 0xff) * 1099511628211ull;  // a separator, so "ab"+"c" differs from "a"+"bc"
  }
  std::string hex() const {
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(value));
    return text;
  }
};

struct Outcome {
  std::string student;
  enum class Kind { graded, unchanged, failed } kind = Kind::failed;
  std::string why;  // for failed
  double seconds = 0;
};

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

Outcome grade_one(const RosterEntry& entry, const GradeAllOptions& options, const std::string& settings) {
  const auto start = std::chrono::steady_clock::now();
  Outcome outcome;
  outcome.student = entry.student;
  const fs::path folder = options.out / entry.student;
  fs::create_directories(folder);
  const std::string hash = submission_hash(entry.submission);
  const std::string key = hash.empty() ? "" : hash + " " + settings;
  const fs::path hash_file = folder / "graded.hash";
  if (!options.regrade && !key.empty() && fs::exists(folder / "report" / "results.json") && fs::exists(hash_file) &&
      text::trim(text::read_file(hash_file)) == key) {
    outcome.kind = Outcome::Kind::unchanged;
    return outcome;
  }
  // `rooflab grade` takes a local folder, zip or repository: a URL is cloned
  // first (its last commit, as grading a local repository takes).
  std::string submission = entry.submission;
  if (is_git_url(submission)) {
    const fs::path clone = folder / "repository";
    fs::remove_all(clone);
    const ProcessResult cloned = run_process({"git", "clone", "--quiet", "--depth", "1", submission, clone.string()},
                                             folder, folder / "clone.log", ProcessLimits::timeout(600));
    if (!cloned.succeeded()) {
      outcome.why = "cannot clone " + submission + " (see clone.log)";
      return outcome;
    }
    submission = clone.string();
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
  if (options.seed) argv.insert(argv.end(), {"--seed", std::to_string(*options.seed)});
  ProcessLimits limits = ProcessLimits::timeout(options.timeout_s);
  const ProcessResult result = run_process(argv, folder, folder / "grade.log", limits);
  outcome.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!fs::exists(partial / "results.json")) {
    outcome.why = result.timed_out ? "grading took longer than " + std::to_string(options.timeout_s) + " s"
                                   : "no report (exit " + std::to_string(result.exit_code) + "; see grade.log)";
    return outcome;
  }
  keep_earlier(folder / "report");
  fs::rename(partial, folder / "report");
  text::write_file(hash_file, key + "\n");
  outcome.kind = Outcome::Kind::graded;
  return outcome;
}

// <student>/outcome.json: what happened to one submission, for the gradebook's
// summary (written by whoever graded it: a local worker or a Slurm task).
void write_outcome(const fs::path& out, const Outcome& outcome) {
  const char* kind = outcome.kind == Outcome::Kind::graded      ? "graded"
                     : outcome.kind == Outcome::Kind::unchanged ? "unchanged"
                                                                : "failed";
  text::write_file(out / outcome.student / "outcome.json",
                   nlohmann::json{{"kind", kind}, {"why", outcome.why}, {"seconds", outcome.seconds}}.dump() + "\n");
}

std::optional<Outcome> read_outcome(const fs::path& out, const std::string& student) {
  const fs::path path = out / student / "outcome.json";
  if (!fs::exists(path)) return std::nullopt;
  const nlohmann::json json = nlohmann::json::parse(text::read_file(path), nullptr, false);
  if (json.is_discarded()) return std::nullopt;
  Outcome outcome;
  outcome.student = student;
  const std::string kind = json.value("kind", "failed");
  outcome.kind = kind == "graded"      ? Outcome::Kind::graded
                 : kind == "unchanged" ? Outcome::Kind::unchanged
                                       : Outcome::Kind::failed;
  outcome.why = json.value("why", "");
  outcome.seconds = json.value("seconds", 0.0);
  return outcome;
}

std::string clock(double seconds) {
  const long s = static_cast<long>(seconds + 0.5);
  char text[32];
  std::snprintf(text, sizeof text, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
  return text;
}

std::string csv(const std::string& field) {
  if (field.find_first_of(",\"\n") == std::string::npos) return field;
  std::string quoted = "\"";
  for (const char c : field) quoted += c == '"' ? std::string("\"\"") : std::string(1, c == '\n' ? ' ' : c);
  return quoted + "\"";
}

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.10g", value);
  return text;
}

struct Totals {
  double score = 0, max_score = 0;
};

// gradebook.csv from every student's report; returns each student's total.
std::map<std::string, Totals> write_gradebook(const std::vector<RosterEntry>& roster, const fs::path& out) {
  std::map<std::string, Totals> totals;
  std::string book = "student,assignment,group,score,max_score\n";
  for (const RosterEntry& entry : roster) {
    const fs::path results = out / entry.student / "report" / "results.json";
    if (!fs::exists(results)) continue;
    const nlohmann::json json = nlohmann::json::parse(text::read_file(results), nullptr, false);
    if (json.is_discarded() || !json.contains("tests")) continue;
    std::map<std::pair<std::string, std::string>, Totals> groups;  // (assignment, group)
    for (const auto& test : json["tests"]) {
      const auto& tags = test.value("tags", nlohmann::json::array());
      if (tags.size() < 2) continue;  // build lines and plots: worth nothing
      Totals& group = groups[{tags[0].get<std::string>(), tags[1].get<std::string>()}];
      group.score += test.value("score", 0.0);
      group.max_score += test.value("max_score", 0.0);
    }
    Totals& total = totals[entry.student];
    total.score = json.value("score", 0.0);
    for (const auto& [name, group] : groups) {
      book += entry.student + "," + csv(name.first) + "," + csv(name.second) + "," + number(group.score) + "," +
              number(group.max_score) + "\n";
      total.max_score += group.max_score;
    }
    book += entry.student + ",total,," + number(total.score) + "," + number(total.max_score) + "\n";
  }
  text::write_file(out / "gradebook.csv", book);
  return totals;
}

// histogram.csv (10 bins of the total's fraction), and histogram.png where gnuplot runs.
void write_histogram(const std::map<std::string, Totals>& totals, const fs::path& out) {
  std::vector<int> bins(10, 0);
  for (const auto& [student, total] : totals) {
    const double fraction = total.max_score > 0 ? total.score / total.max_score : 0;
    ++bins[static_cast<std::size_t>(std::clamp(static_cast<int>(fraction * 10), 0, 9))];
  }
  std::string data = "percent_from,percent_to,students\n";
  for (int i = 0; i < 10; ++i)
    data += std::to_string(10 * i) + "," + std::to_string(10 * (i + 1)) + "," + std::to_string(bins[i]) + "\n";
  text::write_file(out / "histogram.csv", data);
  text::write_file(out / "histogram.gp",
                   "set terminal pngcairo size 800,450\nset output 'histogram.png'\nset datafile separator ','\n"
                   "set title 'Total scores'\nset xlabel 'score (% of the maximum)'\nset ylabel 'students'\n"
                   "set style fill solid 0.6\nset boxwidth 9\nset xrange [0:100]\nset yrange [0:*]\n"
                   "plot 'histogram.csv' every ::1 using (($1+$2)/2):3 with boxes notitle\n");
  run_process({"gnuplot", "histogram.gp"}, out, out / "histogram.log", ProcessLimits::timeout(60));
}

void write_summary(const std::vector<Outcome>& outcomes, const std::map<std::string, Totals>& totals,
                   const fs::path& out, double seconds) {
  int graded = 0, unchanged = 0, failed = 0;
  std::string failures;
  for (const Outcome& outcome : outcomes) {
    if (outcome.kind == Outcome::Kind::graded) ++graded;
    if (outcome.kind == Outcome::Kind::unchanged) ++unchanged;
    if (outcome.kind == Outcome::Kind::failed) {
      ++failed;
      failures += "- " + outcome.student + ": " + outcome.why + "\n";
    }
  }
  std::vector<double> percents;
  for (const auto& [student, total] : totals)
    percents.push_back(total.max_score > 0 ? 100 * total.score / total.max_score : 0);
  std::sort(percents.begin(), percents.end());
  std::string md = "# Grading of the class\n\n";
  md += "| submissions | graded now | unchanged since their last grading | could not be graded | time |\n";
  md += "|---:|---:|---:|---:|---:|\n";
  md += "| " + std::to_string(outcomes.size()) + " | " + std::to_string(graded) + " | " + std::to_string(unchanged) +
        " | " + std::to_string(failed) + " | " + clock(seconds) + " |\n\n";
  if (!percents.empty()) {
    const double mean = std::accumulate(percents.begin(), percents.end(), 0.0) / static_cast<double>(percents.size());
    const auto percent = [](double value) {
      char text[16];
      std::snprintf(text, sizeof text, "%.1f", value);
      return std::string(text);
    };
    md += "Total score, % of the maximum: mean " + percent(mean) + ", median " +
          percent(percents[percents.size() / 2]) + ", lowest " + percent(percents.front()) + ", highest " +
          percent(percents.back()) + ". Per student and group: `gradebook.csv`.\n\n";
    md += "![Total scores](histogram.png)\n\n";
  }
  if (!failures.empty()) md += "## Could not be graded\n\n" + failures;
  text::write_file(out / "summary.md", md);
}

}  // namespace

std::string submission_hash(const std::string& submission) {
  Fnv hash;
  if (is_git_url(submission)) {
    const fs::path scratch = fs::temp_directory_path() / ("rooflab-ls-remote-" + std::to_string(::getpid()));
    const ProcessResult result = run_process({"git", "ls-remote", submission, "HEAD"}, fs::temp_directory_path(),
                                             scratch, ProcessLimits::timeout(60));
    fs::remove(scratch);
    if (!result.succeeded() || result.output.size() < 40) return "";
    hash.add(result.output.substr(0, 40));
    return hash.hex();
  }
  const fs::path path = submission;
  if (fs::is_regular_file(path)) {
    hash.add(text::read_file(path));
    return hash.hex();
  }
  std::vector<fs::path> files;
  for (auto it = fs::recursive_directory_iterator(path); it != fs::recursive_directory_iterator(); ++it) {
    const std::string name = it->path().filename().string();
    if (it->is_directory() && (name == ".git" || name == "build")) {
      it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file()) files.push_back(it->path().lexically_relative(path));
  }
  std::sort(files.begin(), files.end());
  for (const fs::path& file : files) {
    hash.add(file.string());
    hash.add(text::read_file(path / file));
  }
  return hash.hex();
}

namespace {

// Progress lines, one per finished submission, with the time left at the pace so far.
class Progress {
 public:
  Progress(std::size_t total, int parallel) : total_(total), parallel_(parallel) {}
  void finished(const Outcome& outcome) {
    const std::lock_guard<std::mutex> lock(mutex_);
    ++done_;
    if (outcome.kind == Outcome::Kind::graded) {
      graded_seconds_ += outcome.seconds;
      ++graded_;
    }
    const double pace = graded_ ? graded_seconds_ / static_cast<double>(graded_) : 0;
    const double left = pace * static_cast<double>(total_ - done_) / parallel_;
    const std::string what = outcome.kind == Outcome::Kind::graded      ? "graded in " + clock(outcome.seconds)
                             : outcome.kind == Outcome::Kind::unchanged ? "unchanged, not regraded"
                                                                        : "FAILED: " + outcome.why;
    std::cerr << "[" << done_ << "/" << total_ << "] " << outcome.student << ": " << what
              << (done_ < total_ && graded_ ? " (about " + clock(left) + " left)" : "") << std::endl;
  }

 private:
  std::mutex mutex_;
  std::size_t total_, done_ = 0, graded_ = 0;
  int parallel_;
  double graded_seconds_ = 0;
};

Outcome grade_guarded(const RosterEntry& entry, const GradeAllOptions& options, const std::string& settings) {
  try {
    return grade_one(entry, options, settings);
  } catch (const std::exception& error) {  // one submission's trouble is its own
    Outcome outcome;
    outcome.student = entry.student;
    outcome.why = error.what();
    return outcome;
  }
}

// Local workers: `workers` threads, each taking the next submission.
std::vector<Outcome> grade_locally(const std::vector<RosterEntry>& roster, const GradeAllOptions& options,
                                   const std::string& settings, int workers) {
  std::vector<Outcome> outcomes(roster.size());
  std::atomic<std::size_t> next{0};
  Progress progress(roster.size(), workers);
  const auto work = [&] {
    for (std::size_t i = next++; i < roster.size(); i = next++) {
      outcomes[i] = grade_guarded(roster[i], options, settings);
      write_outcome(options.out, outcomes[i]);
      progress.finished(outcomes[i]);
    }
  };
  std::vector<std::thread> threads;
  for (int w = 0; w < workers; ++w) threads.emplace_back(work);
  for (std::thread& thread : threads) thread.join();
  return outcomes;
}

// Whether the graded labs have CUDA kernels (then each task asks Slurm for a GPU).
bool needs_gpu(const GradeAllOptions& options) {
  for (const AssignmentInfo& info : Manifest::load(options.manifest).assignments) {
    const bool graded =
        options.only.empty() || std::find(options.only.begin(), options.only.end(), info.name) != options.only.end();
    const bool cuda = std::any_of(info.cuda_files.begin(), info.cuda_files.end(),
                                  [](const std::string& file) { return !file.empty(); });
    if (graded && cuda) return true;
  }
  return false;
}

std::string shell_quoted(const std::string& text) {
  std::string quoted = "'";
  for (const char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

// A Slurm job array: one task per submission, each this program with --task N
// writing into the shared output folder. sbatch --wait returns when all are
// done; meanwhile the tasks' outcome files give the progress.
std::vector<Outcome> grade_on_slurm(const std::vector<RosterEntry>& roster, const GradeAllOptions& options,
                                    int workers) {
  const fs::path slurm = options.out / "slurm";
  fs::create_directories(slurm);
  for (const RosterEntry& entry : roster) fs::remove(options.out / entry.student / "outcome.json");
  std::string task = "exec " + shell_quoted(options.rooflab.string()) + " grade-all " +
                     shell_quoted(fs::absolute(options.roster).string()) + " --out " +
                     shell_quoted(fs::absolute(options.out).string()) + " --task \"$SLURM_ARRAY_TASK_ID\"" +
                     " --test-jobs " + std::to_string(options.jobs) + " --timeout " + number(options.timeout_s);
  for (const std::string& name : options.only) task += " --assignment " + shell_quoted(name);
  if (options.seed) task += " --seed " + std::to_string(*options.seed);
  if (options.regrade) task += " --regrade";
  text::write_file(slurm / "grade_one.sh",
                   "#!/bin/sh\n# One submission of the roster, as Slurm array task N.\n" + task + "\n");
  fs::permissions(slurm / "grade_one.sh", fs::perms::owner_all, fs::perm_options::add);

  std::vector<std::string> sbatch{"sbatch",
                                  "--wait",
                                  "--parsable",
                                  "--job-name=rooflab-grade",
                                  "--array=0-" + std::to_string(roster.size() - 1) + "%" + std::to_string(workers),
                                  "--cpus-per-task=" + std::to_string(options.jobs),
                                  "--time=" + std::to_string(static_cast<long>(options.timeout_s / 60) + 5),
                                  "--output=" + (slurm / "task-%a.log").string()};
  const std::string gres = options.slurm_gres == "auto" ? (needs_gpu(options) ? "gpu:1" : "") : options.slurm_gres;
  if (!gres.empty() && gres != "none") sbatch.push_back("--gres=" + gres);
  sbatch.insert(sbatch.end(), options.sbatch_options.begin(), options.sbatch_options.end());
  sbatch.push_back((slurm / "grade_one.sh").string());
  std::cerr << "grade-all: a Slurm job array of " << roster.size() << " tasks, " << workers << " at a time"
            << (gres.empty() || gres == "none" ? "" : ", each with --gres=" + gres) << "\n";

  ProcessResult submitted;
  std::atomic<bool> finished{false};
  std::thread waiter([&] {
    submitted = run_process(sbatch, slurm, slurm / "sbatch.log",
                            ProcessLimits::timeout(options.timeout_s * static_cast<double>(roster.size()) + 600));
    finished = true;
  });
  Progress progress(roster.size(), workers);
  std::vector<bool> reported(roster.size(), false);
  const auto report_new = [&] {
    for (std::size_t i = 0; i < roster.size(); ++i) {
      if (reported[i]) continue;
      if (const auto outcome = read_outcome(options.out, roster[i].student)) {
        reported[i] = true;
        progress.finished(*outcome);
      }
    }
  };
  while (!finished) {
    report_new();
    std::this_thread::sleep_for(std::chrono::seconds(2));
  }
  waiter.join();
  report_new();
  if (!submitted.succeeded())
    std::cerr << "grade-all: sbatch ended with exit " << submitted.exit_code << ": " << submitted.output.substr(0, 2000)
              << "\n";

  std::vector<Outcome> outcomes;
  for (std::size_t i = 0; i < roster.size(); ++i) {
    if (auto outcome = read_outcome(options.out, roster[i].student)) {
      outcomes.push_back(*outcome);
      continue;
    }
    Outcome missing;
    missing.student = roster[i].student;
    missing.why = "its Slurm task left no outcome (see slurm/task-" + std::to_string(i) + ".log)";
    outcomes.push_back(missing);
  }
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

  // What decides "unchanged" beside the content: the labs and the seed asked for.
  std::string settings = "labs:";
  for (const std::string& name : options.only) settings += name + ",";
  settings += options.seed ? " seed:" + std::to_string(*options.seed) : " seed:drawn";

  if (options.task) {  // one Slurm array task: one submission, no gradebook
    if (*options.task >= roster.size()) {
      std::cerr << "grade-all: --task " << *options.task << ": the roster has " << roster.size() << " entries\n";
      return 2;
    }
    const Outcome outcome = grade_guarded(roster[*options.task], options, settings);
    write_outcome(options.out, outcome);
    return outcome.kind == Outcome::Kind::failed ? 1 : 0;
  }

  const auto start = std::chrono::steady_clock::now();
  const int workers = std::max(1, std::min<int>(options.workers, static_cast<int>(roster.size())));
  std::vector<Outcome> outcomes;
  if (options.slurm) {
    outcomes = grade_on_slurm(roster, options, workers);
  } else {
    std::cerr << "grade-all: " << roster.size() << " submissions, " << workers << " at a time\n";
    outcomes = grade_locally(roster, options, settings, workers);
  }

  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const auto totals = write_gradebook(roster, options.out);
  write_histogram(totals, options.out);
  write_summary(outcomes, totals, options.out, seconds);
  const bool all = std::all_of(outcomes.begin(), outcomes.end(),
                               [](const Outcome& outcome) { return outcome.kind != Outcome::Kind::failed; });
  std::cout << "grade-all: " << roster.size() << " submissions in " << clock(seconds) << "; gradebook "
            << (options.out / "gradebook.csv").string() << ", summary " << (options.out / "summary.md").string()
            << "\n";
  return all ? 0 : 1;
}

}  // namespace rooflab
