// The terminal summary `rooflab grade` prints at the end.
#include "report/results.hpp"

#include <cmath>
#include <ostream>

#include "report/report_text.hpp"
#include "text/text.hpp"

namespace rooflab {

using namespace report;

void print_summary(const GradeResult& result, std::ostream& out) {
  out << "\n"
      << text::untrusted_line(result.submission, kLineCap) << ": " << points(result.score()) << " / "
      << points(result.max_score()) << "\n";
  for (const auto& assignment : result.assignments) {
    out << "  " << assignment.name << "  " << points(assignment.score) << " / " << points(assignment.max_score)
        << (assignment.built      ? ""
            : assignment.rejected ? "  (refused)"
                                  : "  (did not compile)")
        << "\n";
    for (const auto& group : assignment.groups) {
      const double most = group.bonus_points > 0 ? group.bonus_points : group.max_score;
      out << "    " << (std::fabs(group.score - most) < 1e-9 ? "ok  " : "--  ") << group.name << "  " << group.passed
          << "/" << group.total << " tests, " << points(group.score) << " / " << points(most)
          << (group.bonus_points > 0 ? " (bonus)" : "") << "\n";
    }
    if (assignment.leaderboard)
      out << "    leaderboard (not scored): " << leaderboard_summary(*assignment.leaderboard) << "\n";
  }
  if (!result.ignored_files.empty())
    out << "  ignored " << result.ignored_files.size() << " file(s) that are not STUDENT_FILES\n";
  for (const auto& note : capped(result.notes, kListCap))
    out << "  note: " << text::untrusted_line(note, kLineCap) << "\n";
  for (const auto& line : result.containment) out << "  " << line << "\n";
}

}  // namespace rooflab
