#include "results.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <sstream>

#include "markdown.hpp"
#include "text.hpp"

namespace rooflab {
namespace {

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

// Caps on what a submission can make a report hold: a note or file name is one
// line of at most kLineCap bytes, a list shows at most kListCap entries, a
// failing test's message kMessageCap bytes and a build log kBuildLogCap.
constexpr std::size_t kLineCap = 300;
constexpr std::size_t kListCap = 40;
constexpr std::size_t kIgnoredCap = 100;
constexpr std::size_t kMessageCap = 8000;
constexpr std::size_t kBuildLogCap = 20000;

// The first `cap` entries, and a last one saying how many were left out.
std::vector<std::string> capped(const std::vector<std::string>& entries, std::size_t cap) {
  if (entries.size() <= cap) return entries;
  std::vector<std::string> shown(entries.begin(), entries.begin() + static_cast<std::ptrdiff_t>(cap));
  shown.push_back("[... and " + std::to_string(entries.size() - cap) + " more not shown]");
  return shown;
}

// Untrusted text for results.json and junit.xml: valid UTF-8, no control
// characters but newlines and tabs, capped.
std::string json_text(const std::string& raw, std::size_t cap) { return text::untrusted(raw, cap); }

// How the run was protected, and how to reproduce its hidden-test inputs.
std::string isolation(const GradeResult& result) {
  return std::string(result.sandboxed ? "Student code ran in the bubblewrap sandbox"
                                      : "Student code ran WITHOUT the sandbox (rlimits only)") +
         "; every verdict came from a process holding no student code. Hidden-test inputs: seed " +
         std::to_string(result.seed) + " (`rooflab grade --seed " + std::to_string(result.seed) + "` reproduces them).";
}

// What a test's entry says: nothing for a pass that earned its points; the
// status and the message otherwise, and for a pass whose points a gate
// withheld, which tests it needed.
std::string describe_outcome(const GradedTest& test) {
  if (test.outcome.status != TestStatus::passed)
    return std::string(to_string(test.outcome.status)) + ": " + test.outcome.message;
  if (test.withheld_by.empty()) return "";
  std::string why = "passed, but its points are earned only together with tests that did not pass:";
  for (const auto& required : test.withheld_by) why += "\n  " + required;
  if (!test.gate_reason.empty()) why += "\n(" + test.gate_reason + ")";
  return why;
}

// Why tests were skipped: the line gtest prints after "Skipped" (the test's
// GTEST_SKIP message) of the first skipped test, decided in the verdict process.
std::string skip_reason(const AssignmentResult& assignment) {
  for (const auto& test : assignment.tests) {
    if (test.outcome.status != TestStatus::skipped) continue;
    const auto lines = text::split_lines(test.outcome.message);
    for (std::size_t i = 0; i + 1 < lines.size(); ++i)
      if (text::ends_with(lines[i], ": Skipped")) return lines[i + 1];
  }
  return "the reason is in results.json";
}

}  // namespace

double GradeResult::score() const {
  double total = 0;
  for (const auto& assignment : assignments) total += assignment.score;
  return total;
}

double GradeResult::max_score() const {
  double total = 0;
  for (const auto& assignment : assignments) total += assignment.max_score;
  return total;
}

void write_gradescope_json(const GradeResult& result, const std::filesystem::path& path) {
  nlohmann::json json;
  json["score"] = result.score();
  json["execution_time"] = result.execution_time_s;
  std::ostringstream output;
  output << "Score " << points(result.score()) << " / " << points(result.max_score()) << "\n";
  for (const auto& assignment : result.assignments) {
    output << assignment.name << ": " << points(assignment.score) << " / " << points(assignment.max_score)
           << (assignment.built      ? ""
               : assignment.rejected ? " (refused)"
                                     : " (did not compile)")
           << "\n";
  }
  if (!result.error.empty()) output << "Grading could not finish: " << result.error << "\n";
  for (const auto& note : capped(result.notes, kListCap))
    output << "Note: " << text::untrusted_line(note, kLineCap) << "\n";
  output << isolation(result) << "\n";
  for (const auto& line : result.containment) output << line << "\n";
  if (!result.ignored_files.empty())
    output << result.ignored_files.size() << " submitted file(s) were ignored (not STUDENT_FILES)\n";
  json["output"] = json_text(output.str(), 4 * kBuildLogCap);
  json["tests"] = nlohmann::json::array();
  for (const auto& assignment : result.assignments) {
    if (!assignment.built) {
      json["tests"].push_back({{"name", assignment.name + (assignment.rejected ? ": refused" : ": build")},
                               {"score", 0},
                               {"max_score", 0},
                               {"status", "failed"},
                               {"visibility", "visible"},
                               {"output", json_text(assignment.build_log, kBuildLogCap)}});
    }
    for (const auto& test : assignment.tests) {
      nlohmann::json entry = {{"name", test.assignment + ": " + test.outcome.name},
                              {"score", test.score},
                              {"max_score", test.max_score},
                              {"visibility", test.visibility},
                              {"tags", {test.assignment, test.group}},
                              {"output", json_text(describe_outcome(test), kMessageCap)}};
      // Gradescope knows passed and failed only; a skipped test (worth 0 of 0) gets neither.
      if (test.outcome.status != TestStatus::skipped)
        entry["status"] = test.outcome.status == TestStatus::passed ? "passed" : "failed";
      json["tests"].push_back(entry);
    }
  }
  for (const auto& assignment : result.assignments) {
    if (assignment.plots.empty() && assignment.plot_notes.empty()) continue;
    std::string html =
        "<p>Measured in the sandbox with your code at growing N, beside the reference and its "
        "estimate. Informational: not scored.</p>";
    for (const auto& note : capped(assignment.plot_notes, kListCap)) {
      html += "<p>";
      html += xml_escape(text::untrusted_line(note, kLineCap));
      html += "</p>";
    }
    for (const auto& plot : assignment.plots) {
      html += "<p><img alt=\"";
      html += xml_escape(plot.filename().string());
      html += "\" src=\"data:image/png;base64,";
      html += text::base64(text::read_file(path.parent_path() / plot));
      html += "\"/></p>";
    }
    json["tests"].push_back({{"name", assignment.name + ": scaling plots"},
                             {"score", 0},
                             {"max_score", 0},
                             {"visibility", "visible"},
                             {"output_format", "html"},
                             {"output", html}});
  }
  // Every string above is valid UTF-8 already; `replace` keeps a slip from ending the grading.
  text::write_file(path, json.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
}

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
         << points(group.score) << " / " << points(group.max_score) << " |\n";
    }
    md << "\n";
    if (!assignment.plots.empty() || !assignment.plot_notes.empty()) {
      md << "### Scaling (informational, not scored)\n\nYour implementations at growing N, measured in the "
            "sandbox, beside the reference and its estimate";
      if (!assignment.plot_data.empty())
        md << " (data: [" << assignment.plot_data.string() << "](" << assignment.plot_data.string() << "))";
      md << ".\n\n";
      for (const auto& note : capped(assignment.plot_notes, kListCap))
        md << "- " << markdown::inline_text(note, kLineCap) << "\n";
      if (!assignment.plot_notes.empty()) md << "\n";
      for (const auto& plot : assignment.plots) md << "![" << plot.stem().string() << "](" << plot.string() << ")\n\n";
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
  }
  if (!result.ignored_files.empty()) {
    md << "## Ignored files\n\nThese submitted files are not STUDENT_FILES and were not used:\n\n";
    for (const auto& file : capped(result.ignored_files, kIgnoredCap)) md << "- " << markdown::code(file) << "\n";
    md << "\n";
  }
  md << "_Graded in " << points(result.execution_time_s) << " s._\n";
  text::write_file(path, md.str());
}

void write_junit_xml(const GradeResult& result, const std::filesystem::path& path) {
  std::ostringstream xml;
  xml << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\""
      << xml_escape(text::untrusted_line(result.submission, kLineCap)) << "\">\n";
  if (!result.error.empty())
    xml << "  <testsuite name=\"grading\" tests=\"1\" failures=\"1\">\n    <testcase classname=\"grading\" "
           "name=\"finish\"><failure message=\"grading could not finish\">"
        << xml_escape(json_text(result.error, kBuildLogCap)) << "</failure></testcase>\n  </testsuite>\n";
  for (const auto& assignment : result.assignments) {
    int failures = 0, skipped = 0;
    double time = 0;
    for (const auto& test : assignment.tests) {
      failures += test.outcome.status != TestStatus::passed && test.outcome.status != TestStatus::skipped;
      skipped += test.outcome.status == TestStatus::skipped;
      time += test.outcome.wall_s;
    }
    xml << "  <testsuite name=\"" << xml_escape(assignment.name) << "\" tests=\"" << assignment.tests.size()
        << "\" failures=\"" << failures << "\" skipped=\"" << skipped << "\" time=\"" << time << "\">\n";
    for (const auto& test : assignment.tests) {
      const std::string& name = test.outcome.name;
      const auto dot = name.find('.');
      xml << "    <testcase classname=\"" << xml_escape(assignment.name + "." + name.substr(0, dot)) << "\" name=\""
          << xml_escape(name.substr(dot + 1)) << "\" time=\"" << test.outcome.wall_s << "\">";
      if (test.outcome.status == TestStatus::skipped) {
        xml << "<skipped message=\"" << xml_escape(text::untrusted_line(text::trim(test.outcome.message), 200))
            << "\"/>";
      } else if (test.outcome.status != TestStatus::passed) {
        xml << "<failure message=\"" << to_string(test.outcome.status) << "\">"
            << xml_escape(json_text(test.outcome.message, kMessageCap)) << "</failure>";
      }
      xml << "</testcase>\n";
    }
    xml << "  </testsuite>\n";
  }
  xml << "</testsuites>\n";
  text::write_file(path, xml.str());
}

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
      out << "    " << (std::fabs(group.score - group.max_score) < 1e-9 ? "ok  " : "--  ") << group.name << "  "
          << group.passed << "/" << group.total << " tests, " << points(group.score) << " / " << points(group.max_score)
          << "\n";
    }
  }
  if (!result.ignored_files.empty())
    out << "  ignored " << result.ignored_files.size() << " file(s) that are not STUDENT_FILES\n";
  for (const auto& note : capped(result.notes, kListCap))
    out << "  note: " << text::untrusted_line(note, kLineCap) << "\n";
  for (const auto& line : result.containment) out << "  " << line << "\n";
}

}  // namespace rooflab
