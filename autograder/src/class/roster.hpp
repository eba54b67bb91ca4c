// Who is graded, and from where: `lab grade-all ROSTER` reads
//   - a folder: each entry is one student's submission (a folder, a .zip, or a
//     git repository), named after the entry (alice/, bob.zip -> bob);
//   - a CSV with a header: `student` and `submission` columns (a path, relative
//     to the CSV's folder, a .zip or a git URL);
//   - GitHub Classroom's assignment export (grades CSV): `roster_identifier`
//     (or `github_username`) and `student_repository_url`. A row whose
//     roster_identifier is empty (a student not linked to the roster) falls
//     back to its github_username, with a warning; a row without a repository
//     (an assignment never accepted) is kept, and graded as failed.
// Student names come from outside: each becomes a folder name, so anything but
// letters, digits, '.', '_' and '-' is replaced, and two students may not end
// up with the same name. The original identifier is kept beside it (capped,
// control characters escaped), for the gradebook an LMS joins on.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace rooflab {

class RosterError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct RosterEntry {
  std::string identifier;  // as the roster has it (at most 256 bytes, one line): what an LMS knows the student by
  std::string student;     // safe as a folder name, derived from identifier
  std::string submission;  // a path (absolute) or a git URL; empty when the roster has none for this student
  std::string warning;     // what was odd about this row (e.g. an identifier taken from another column), or empty
};

// Throws RosterError naming the file, the line and the column or entry at fault.
std::vector<RosterEntry> read_roster(const std::filesystem::path& roster);

// True for a git URL (https://, http://, ssh://, git@…, file://): grade-all
// clones it, since `rooflab grade` takes local paths.
bool is_git_url(const std::string& text);

// A student name safe as one folder name: [A-Za-z0-9._-], not "." or "..", at
// most 64 characters.
std::string safe_student_name(const std::string& name);

}  // namespace rooflab
