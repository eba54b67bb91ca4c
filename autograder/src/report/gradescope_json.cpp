// Gradescope's results.json.
#include "report/results.hpp"

#include <nlohmann/json.hpp>

#include "report/report_text.hpp"
#include "text/text.hpp"

namespace rooflab {

using namespace report;

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
    if (assignment.plots.empty() && assignment.plot_notes.empty() && assignment.kernel_table.empty()) continue;
    std::string html =
        "<p>Measured in the sandbox with your code at growing N, beside the reference and its "
        "estimate. Informational: not scored.</p>";
    for (const auto& note : capped(assignment.plot_notes, kListCap)) {
      html += "<p>";
      html += xml_escape(text::untrusted_line(note, kLineCap));
      html += "</p>";
    }
    if (!assignment.kernel_table.empty()) {
      html += "<p>Your CUDA kernels as the CPU runtime counted them, and their roofline bound on an H100:</p><pre>";
      html += xml_escape(assignment.kernel_table);
      html += "</pre>";
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

}  // namespace rooflab
