#include "report/report_text.hpp"

#include <cstdio>

#include "text/text.hpp"

namespace rooflab::report {

std::string points(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.2f", value);
  std::string text = buffer;
  while (text.back() == '0') text.pop_back();
  if (text.back() == '.') text.pop_back();
  return text;
}

std::string xml_escape(const std::string& raw) {
  std::string out;
  for (const char c : raw) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        // XML 1.0 forbids most control characters; student output may contain them.
        if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t' && c != '\r')
          out += "?";
        else
          out += c;
    }
  }
  return out;
}

std::vector<std::string> capped(const std::vector<std::string>& entries, std::size_t cap) {
  if (entries.size() <= cap) return entries;
  std::vector<std::string> shown(entries.begin(), entries.begin() + static_cast<std::ptrdiff_t>(cap));
  shown.push_back("[... and " + std::to_string(entries.size() - cap) + " more not shown]");
  return shown;
}

std::string json_text(const std::string& raw, std::size_t cap) { return text::untrusted(raw, cap); }

std::string isolation(const GradeResult& result) {
  return std::string(result.sandboxed ? "Student code ran in the bubblewrap sandbox"
                                      : "Student code ran WITHOUT the sandbox (rlimits only)") +
         "; every verdict came from a process holding no student code. Hidden-test inputs: seed " +
         std::to_string(result.seed) + " (`rooflab grade --seed " + std::to_string(result.seed) + "` reproduces them).";
}

std::string describe_outcome(const GradedTest& test) {
  std::string what;
  if (test.outcome.status != TestStatus::passed) {
    what = std::string(to_string(test.outcome.status)) + ": " + test.outcome.message;
  } else if (!test.withheld_by.empty()) {
    what = "passed, but its points are earned only together with tests that did not pass:";
    for (const auto& required : test.withheld_by) what += "\n  " + required;
    if (!test.gate_reason.empty()) what += "\n(" + test.gate_reason + ")";
  }
  if (!test.gpu_verdict.empty())
    what += std::string(what.empty() || what.back() == '\n' ? "" : "\n") + "[GPU cross-check: " + test.gpu_verdict +
            ". The score counts the CPU runtime's verdict, as on every machine.]";
  return what;
}

std::string leaderboard_summary(const LeaderboardResult& leaderboard) {
  const std::string summary = leaderboard_times(leaderboard);
  return leaderboard.busy.empty() ? summary : summary + ". " + leaderboard.busy;
}

std::string leaderboard_times(const LeaderboardResult& leaderboard) {
  const auto number = [](const char* format, double value) {
    char text[64];
    std::snprintf(text, sizeof text, format, value);
    return std::string(text);
  };
  if (!leaderboard.submission_s)
    return std::string("no time on the leaderboard: its test ") + to_string(leaderboard.outcome.status) +
           " (a wrong answer, a crash or a time-out gets no place)";
  std::string line = "your best call: " + number("%.3f", *leaderboard.submission_s * 1e3) + " ms";
  if (const auto relative = leaderboard.relative_speed())
    return line + "; the reference's: " + number("%.3f", *leaderboard.reference_s * 1e3) +
           " ms, timed alternately with yours on this machine: " + number("%.2f", *relative) +
           " times the reference's speed";
  return line + " (no comparison with the reference: " + leaderboard.note + ")";
}

std::string describe_leaderboard_failure(const LeaderboardResult& leaderboard) {
  if (leaderboard.outcome.status == TestStatus::passed) return "";
  return std::string(to_string(leaderboard.outcome.status)) + ": " + leaderboard.outcome.message;
}

std::string skip_reason(const AssignmentResult& assignment) {
  for (const auto& test : assignment.tests) {
    if (test.outcome.status != TestStatus::skipped) continue;
    const auto lines = text::split_lines(test.outcome.message);
    for (std::size_t i = 0; i + 1 < lines.size(); ++i)
      if (text::ends_with(lines[i], ": Skipped")) return lines[i + 1];
  }
  return "the reason is in results.json";
}

}  // namespace rooflab::report
