#include "class/grade_all_reports.hpp"

#include <algorithm>
#include <cstdio>
#include <numeric>

#include "class/grade_all_text.hpp"
#include "os/process.hpp"
#include "text/text.hpp"

namespace rooflab::class_grading {
namespace fs = std::filesystem;

namespace {

// Text from outside (identifiers, reasons quoting URLs or git's messages) in
// summary.md: one line, capped, in a code span so that Markdown in it stays text.
std::string md_code(const std::string& raw) {
  std::string line = text::untrusted_line(raw, 300);
  std::replace(line.begin(), line.end(), '`', '\'');
  return "`" + line + "`";
}

}  // namespace

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

void write_summary(const std::vector<RosterEntry>& roster, const std::vector<Outcome>& outcomes,
                   const std::map<std::string, Totals>& totals, const GradeAllOptions& options, double seconds) {
  int graded = 0, unchanged = 0, failed = 0;
  std::string failures, notes, warnings;
  for (const RosterEntry& entry : roster)
    if (!entry.warning.empty()) warnings += "- " + md_code(entry.warning) + "\n";
  for (const Outcome& outcome : outcomes) {
    const std::string who = outcome.student + " (" + md_code(outcome.identifier) + ")";
    if (outcome.kind == Outcome::Kind::graded) ++graded;
    if (outcome.kind == Outcome::Kind::unchanged) ++unchanged;
    if (outcome.kind == Outcome::Kind::failed) {
      ++failed;
      failures += "- " + who + ": " + md_code(outcome.why) + "\n";
    }
    if (!outcome.note.empty()) notes += "- " + who + ": " + md_code(outcome.note) + "\n";
  }
  std::vector<double> percents;
  for (const auto& [student, total] : totals)
    percents.push_back(total.max_score > 0 ? 100 * total.score / total.max_score : 0);
  std::sort(percents.begin(), percents.end());
  std::string md = "# Grading of the class\n\n";
  md += "| submissions | graded now | unchanged since their last grading | could not be graded | time |\n";
  md += "|---:|---:|---:|---:|---:|\n";
  md += "| " + std::to_string(outcomes.size()) + " | " + std::to_string(graded) + " | " + std::to_string(unchanged) +
        " | " + std::to_string(failed) + " | " + clock_text(seconds) + " |\n\n";
  if (!percents.empty()) {
    const double mean = std::accumulate(percents.begin(), percents.end(), 0.0) / static_cast<double>(percents.size());
    const auto percent = [](double value) {
      char text[16];
      std::snprintf(text, sizeof text, "%.1f", value);
      return std::string(text);
    };
    md += "Total score, % of the maximum (students with a report): mean " + percent(mean) + ", median " +
          percent(percents[percents.size() / 2]) + ", lowest " + percent(percents.front()) + ", highest " +
          percent(percents.back()) + ". Per student and group: `gradebook.csv`.\n\n";
    md += "![Total scores](histogram.png)\n\n";
  }
  md +=
      "For an LMS: `gradebook_wide.csv`, one row per student keyed by the roster's identifier, one column per "
      "lab; a student who could not be graded has 0 and a status saying why.\n\n";
  md += options.seed
            ? "Hidden-test seeds: each student's is derived from the course seed " + std::to_string(*options.seed) +
                  " and their roster identifier (splitmix64(seed XOR FNV-1a(identifier))), so a regrade "
                  "reproduces it and no two students share inputs; it is in `gradebook_wide.csv` "
                  "(`rooflab grade --seed S` reproduces one grading).\n\n"
            : "Hidden-test seeds: drawn at random for each grading (no `--seed`); each student's is in "
              "`gradebook_wide.csv` and their report.\n\n";
  if (options.deadline)
    md += "Deadline " + options.deadline->utc +
          ": each git submission was graded at its last commit at or before it, by committer date (which a "
          "student can set: compare with the push times your git host records); the commit graded is in "
          "`gradebook_wide.csv` and `<student>/graded_commit`.\n\n";
  if (!warnings.empty()) md += "## Roster warnings\n\n" + warnings + "\n";
  if (!failures.empty()) md += "## Could not be graded\n\nIn the gradebooks with 0 points.\n\n" + failures + "\n";
  if (!notes.empty()) md += "## Notes\n\n" + notes;
  text::write_file(options.out / "summary.md", md);
}

}  // namespace rooflab::class_grading
