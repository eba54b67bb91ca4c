// junit.xml: one testsuite per assignment, one testcase per graded test.
#include "report/results.hpp"

#include <sstream>

#include "report/report_text.hpp"
#include "text/text.hpp"

namespace rooflab {

using namespace report;

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

}  // namespace rooflab
