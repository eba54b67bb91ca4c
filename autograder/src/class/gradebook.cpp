#include "class/gradebook.hpp"

#include <cstdio>
#include <map>

namespace rooflab {

std::string gradebook_number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.10g", value);
  return text;
}

std::string gradebook_status(const std::string& status) { return csv::text_field(text::untrusted_line(status, 300)); }

void add_row(std::string& book, const std::vector<std::string>& cells) {
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (i > 0) book += ',';
    book += cells[i];
  }
  book += '\n';
}

std::string long_gradebook(const std::vector<StudentGrades>& students) {
  std::string book;
  add_row(book, {"student", "assignment", "group", "score", "max_score", "status"});
  for (const StudentGrades& s : students) {
    const std::string status = gradebook_status(s.status);
    if (s.has_report)
      for (const GroupScore& g : s.groups)
        add_row(book, {csv::field(s.student), csv::text_field(g.assignment), csv::text_field(g.group),
                       gradebook_number(g.score), gradebook_number(g.max_score), status});
    add_row(book, {csv::field(s.student), "total", "", gradebook_number(s.has_report ? s.score : 0),
                   gradebook_number(s.has_report ? s.max_score : 0), status});
  }
  return book;
}

std::string wide_gradebook(const std::vector<StudentGrades>& students, const std::vector<std::string>& labs) {
  std::string book;
  std::vector<std::string> header{"identifier", "folder"};
  for (const std::string& lab : labs) header.push_back(csv::text_field(lab));
  header.insert(header.end(), {"total", "status", "seed", "commit"});
  add_row(book, header);
  for (const StudentGrades& s : students) {
    std::map<std::string, double> per_lab;
    if (s.has_report)
      for (const GroupScore& g : s.groups) per_lab[g.assignment] += g.score;
    std::vector<std::string> row{csv::text_field(s.identifier), csv::field(s.student)};
    for (const std::string& lab : labs) row.push_back(gradebook_number(per_lab[lab]));
    row.insert(row.end(), {gradebook_number(s.has_report ? s.score : 0), gradebook_status(s.status), csv::field(s.seed),
                           csv::field(s.commit)});
    add_row(book, row);
  }
  return book;
}

}  // namespace rooflab
