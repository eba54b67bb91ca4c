// report.md: the report people read.
#include "report/results.hpp"

#include <sstream>

#include "report/markdown.hpp"

#include "report/report_text.hpp"
#include "text/text.hpp"

namespace rooflab {

using namespace report;

void write_markdown_report(const GradeResult& result, const std::filesystem::path& path) {
  std::ostringstream md;
  md << "# Grading report: " << markdown::inline_text(result.submission) << "\n\n";
  md << "**Score: " << points(result.score()) << " / " << points(result.max_score()) << "**\n\n";
  if (!result.error.empty())
    md << "**Grading could not finish**, so nothing was scored:\n\n"
       << markdown::fenced(result.error, kBuildLogCap) << "\n";
  for (const auto& note : capped(result.notes, kListCap)) md << "> " << markdown::inline_text(note, kLineCap) << "\n\n";
  md << isolation(result) << "\n\n";
  for (const auto& line : result.containment) md << "- " << line << "\n";
  if (!result.containment.empty()) md << "\n";
  for (const auto& assignment : result.assignments) {
    md << "## " << assignment.name << ": " << points(assignment.score) << " / " << points(assignment.max_score)
       << "\n\n";
    for (const auto& note : capped(assignment.notes, kListCap))
      md << "- " << markdown::inline_text(note, kLineCap) << "\n";
    if (!assignment.notes.empty()) md << "\n";
    if (assignment.rejected) {
      md << "The submission was refused before any of its code ran; every test scores 0.\n\n"
         << markdown::fenced(assignment.build_log, kBuildLogCap) << "\n";
    } else if (!assignment.built) {
      md << "The assignment did not compile; every test scores 0. Compiler messages:\n\n"
         << markdown::fenced(assignment.build_log, kBuildLogCap) << "\n";
    }
    md << "| group | passed | points |\n|---|---:|---:|\n";
    for (const auto& group : assignment.groups) {
      md << "| " << markdown::inline_text(group.name) << " | " << group.passed << " / " << group.total << " | "
         << points(group.score) << " / "
         << (group.bonus_points > 0 ? points(group.bonus_points) + " (bonus)" : points(group.max_score)) << " |\n";
    }
    md << "\n";
    if (assignment.leaderboard) {
      // The grader's own numbers; a failure's message may hold the worker's output.
      md << "**Leaderboard** (" << markdown::inline_text(assignment.leaderboard->name)
         << ", not scored): " << markdown::inline_text(leaderboard_summary(*assignment.leaderboard), 2 * kLineCap)
         << ".\n\n";
      if (const std::string failure = describe_leaderboard_failure(*assignment.leaderboard); !failure.empty())
        md << markdown::fenced(failure, kMessageCap) << "\n";
    }
    if (!assignment.plots.empty() || !assignment.plot_notes.empty() || !assignment.kernel_table.empty()) {
      md << "### Scaling (informational, not scored)\n\nYour code, run by the assignment's profile in the "
            "sandbox, beside the reference";
      if (!assignment.plot_data.empty())
        md << " (data: [" << assignment.plot_data.string() << "](" << assignment.plot_data.string() << "))";
      md << ".\n\n";
      for (const auto& note : capped(assignment.plot_notes, kListCap))
        md << "- " << markdown::inline_text(note, kLineCap) << "\n";
      if (!assignment.plot_notes.empty()) md << "\n";
      if (!assignment.kernel_table.empty())
        md << "Your CUDA kernels as the CPU runtime counted them (Nsight Compute's definitions: "
              "docs/06_cuda_attention.md), where they would sit on an H100's roofline (a bound, not a "
              "measured time), and where the GPU model puts them.\n\n"
           << assignment.kernel_table << "\n";
      for (const auto& plot : assignment.plots) {
        md << "![" << plot.stem().string() << "](" << plot.string() << ")\n\n";
        // Its numbers come from the submission's profile: inert text, in italics.
        if (const auto caption = assignment.plot_captions.find(plot); caption != assignment.plot_captions.end())
          md << "*" << markdown::inline_text(caption->second, 2 * kLineCap) << "*\n\n";
      }
    }
    std::vector<std::string> skipped;
    for (const auto& test : assignment.tests)
      if (test.outcome.status == TestStatus::skipped) skipped.push_back(test.outcome.name);
    if (!skipped.empty()) {
      md << "Skipped on this grading machine, worth 0 of 0 (" << markdown::inline_text(skip_reason(assignment))
         << "):\n\n";
      for (const auto& name : capped(skipped, kListCap)) md << "- " << markdown::code(name) << "\n";
      md << "\n";
    }
    bool heading = false;
    for (const auto& test : assignment.tests) {
      if ((test.outcome.status == TestStatus::passed && test.withheld_by.empty()) ||
          test.outcome.status == TestStatus::skipped || !assignment.built)
        continue;
      if (!heading) md << "### Tests that did not earn their points\n\n";
      heading = true;
      md << "**" << markdown::inline_text(test.outcome.name) << "** (" << to_string(test.outcome.status) << ", "
         << markdown::inline_text(test.group) << ")\n\n"
         << markdown::fenced(describe_outcome(test), kMessageCap) << "\n";
    }
    // Passes the GPU cross-check disagreed with: the failures above say it in their own entries.
    heading = false;
    for (const auto& test : assignment.tests) {
      if (test.gpu_verdict.empty() || test.outcome.status != TestStatus::passed || !test.withheld_by.empty()) continue;
      if (!heading) md << "### Passed here, not on this machine's GPU\n\n";
      heading = true;
      md << "**" << markdown::inline_text(test.outcome.name) << "** (" << markdown::inline_text(test.group) << ")\n\n"
         << markdown::fenced(describe_outcome(test), kMessageCap) << "\n";
    }
  }
  if (!result.ignored_files.empty()) {
    md << "## Ignored files\n\nThese submitted files are not STUDENT_FILES and were not used:\n\n";
    for (const auto& file : capped(result.ignored_files, kIgnoredCap)) md << "- " << markdown::code(file) << "\n";
    md << "\n";
  }
  md << "_Graded in " << points(result.execution_time_s) << " s._\n";
  text::write_file(path, md.str());
}

}  // namespace rooflab
