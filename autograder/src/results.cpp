#include "results.hpp"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <sstream>

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

// Keeps a fenced block fenced whatever the student's output contains.
std::string fence(const std::string& body) {
  std::string ticks = "```";
  while (body.find(ticks) != std::string::npos) ticks += '`';
  return ticks + "text\n" + body + (body.empty() || body.back() == '\n' ? "" : "\n") + ticks + "\n";
}

// How the run was protected, and how to reproduce its hidden-test inputs.
std::string isolation(const GradeResult& result) {
  return std::string(result.sandboxed ? "Student code ran in the bubblewrap sandbox"
                                      : "Student code ran WITHOUT the sandbox (rlimits only)") +
         "; every verdict came from a process holding no student code. Hidden-test inputs: seed " +
         std::to_string(result.seed) + " (`rooflab grade --seed " + std::to_string(result.seed) + "` reproduces them).";
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
  for (const auto& note : result.notes) output << "Note: " << note << "\n";
  output << isolation(result) << "\n";
  if (!result.ignored_files.empty())
    output << result.ignored_files.size() << " submitted file(s) were ignored (not STUDENT_FILES)\n";
  json["output"] = output.str();
  json["tests"] = nlohmann::json::array();
  for (const auto& assignment : result.assignments) {
    if (!assignment.built) {
      json["tests"].push_back({{"name", assignment.name + (assignment.rejected ? ": refused" : ": build")},
                               {"score", 0},
                               {"max_score", 0},
                               {"status", "failed"},
                               {"visibility", "visible"},
                               {"output", text::truncate(assignment.build_log, 20000)}});
    }
    for (const auto& test : assignment.tests) {
      nlohmann::json entry = {
          {"name", test.assignment + ": " + test.outcome.name},
          {"score", test.score},
          {"max_score", test.max_score},
          {"visibility", test.visibility},
          {"tags", {test.assignment, test.group}},
          {"output", test.outcome.status == TestStatus::passed
                         ? std::string()
                         : std::string(to_string(test.outcome.status)) + ": " + test.outcome.message}};
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
    for (const auto& note : assignment.plot_notes) {
      html += "<p>";
      html += xml_escape(note);
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
  text::write_file(path, json.dump(2) + "\n");
}

void write_markdown_report(const GradeResult& result, const std::filesystem::path& path) {
  std::ostringstream md;
  md << "# Grading report: " << result.submission << "\n\n";
  md << "**Score: " << points(result.score()) << " / " << points(result.max_score()) << "**\n\n";
  for (const auto& note : result.notes) md << "> " << note << "\n\n";
  md << isolation(result) << "\n\n";
  for (const auto& assignment : result.assignments) {
    md << "## " << assignment.name << ": " << points(assignment.score) << " / " << points(assignment.max_score)
       << "\n\n";
    for (const auto& note : assignment.notes) md << "- " << note << "\n";
    if (!assignment.notes.empty()) md << "\n";
    if (assignment.rejected) {
      md << "The submission was refused before any of its code ran; every test scores 0.\n\n"
         << fence(text::truncate(assignment.build_log, 20000)) << "\n";
    } else if (!assignment.built) {
      md << "The assignment did not compile; every test scores 0. Compiler messages:\n\n"
         << fence(text::truncate(assignment.build_log, 20000)) << "\n";
    }
    md << "| group | passed | points |\n|---|---:|---:|\n";
    for (const auto& group : assignment.groups) {
      md << "| " << group.name << " | " << group.passed << " / " << group.total << " | " << points(group.score) << " / "
         << points(group.max_score) << " |\n";
    }
    md << "\n";
    if (!assignment.plots.empty() || !assignment.plot_notes.empty()) {
      md << "### Scaling (informational, not scored)\n\nYour implementations at growing N, measured in the "
            "sandbox, beside the reference and its estimate";
      if (!assignment.plot_data.empty())
        md << " (data: [" << assignment.plot_data.string() << "](" << assignment.plot_data.string() << "))";
      md << ".\n\n";
      for (const auto& note : assignment.plot_notes) md << "- " << note << "\n";
      if (!assignment.plot_notes.empty()) md << "\n";
      for (const auto& plot : assignment.plots) md << "![" << plot.stem().string() << "](" << plot.string() << ")\n\n";
    }
    bool heading = false;
    for (const auto& test : assignment.tests) {
      if (test.outcome.status == TestStatus::passed || !assignment.built) continue;
      if (!heading) md << "### Tests that did not pass\n\n";
      heading = true;
      md << "**" << test.outcome.name << "** (" << to_string(test.outcome.status) << ", " << test.group << ")\n\n"
         << fence(test.outcome.message) << "\n";
    }
  }
  if (!result.ignored_files.empty()) {
    md << "## Ignored files\n\nThese submitted files are not STUDENT_FILES and were not used:\n\n";
    for (const auto& file : result.ignored_files) md << "- `" << file << "`\n";
    md << "\n";
  }
  md << "_Graded in " << points(result.execution_time_s) << " s._\n";
  text::write_file(path, md.str());
}

void write_junit_xml(const GradeResult& result, const std::filesystem::path& path) {
  std::ostringstream xml;
  xml << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"" << xml_escape(result.submission) << "\">\n";
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
        xml << "<skipped message=\"" << xml_escape(text::trim(test.outcome.message).substr(0, 200)) << "\"/>";
      } else if (test.outcome.status != TestStatus::passed) {
        xml << "<failure message=\"" << to_string(test.outcome.status) << "\">" << xml_escape(test.outcome.message)
            << "</failure>";
      }
      xml << "</testcase>\n";
    }
    xml << "  </testsuite>\n";
  }
  xml << "</testsuites>\n";
  text::write_file(path, xml.str());
}

void print_summary(const GradeResult& result, std::ostream& out) {
  out << "\n" << result.submission << ": " << points(result.score()) << " / " << points(result.max_score()) << "\n";
  for (const auto& assignment : result.assignments) {
    out << "  " << assignment.name << "  " << points(assignment.score) << " / " << points(assignment.max_score)
        << (assignment.built      ? ""
            : assignment.rejected ? "  (refused)"
                                  : "  (did not compile)")
        << "\n";
    for (const auto& group : assignment.groups) {
      out << "    " << (group.passed == group.total ? "ok  " : "--  ") << group.name << "  " << group.passed << "/"
          << group.total << " tests, " << points(group.score) << " / " << points(group.max_score) << "\n";
    }
  }
  if (!result.ignored_files.empty())
    out << "  ignored " << result.ignored_files.size() << " file(s) that are not STUDENT_FILES\n";
  for (const auto& note : result.notes) out << "  note: " << note << "\n";
}

}  // namespace rooflab
