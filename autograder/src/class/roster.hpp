// Who is graded, and from where: `lab grade-all ROSTER` reads
//   - a folder: each entry is one student's submission (a folder, a .zip, or a
//     git repository), named after the entry (alice/, bob.zip -> bob);
//   - a CSV with a header: `student` and `submission` columns (a path, relative
//     to the CSV's folder, a .zip or a git URL);
//   - GitHub Classroom's assignment export (grades CSV): `github_username` (or
//     `roster_identifier`) and `student_repository_url`.
// Student names come from outside: each becomes a folder name, so anything but
// letters, digits, '.', '_' and '-' is replaced, and two students may not end
// up with the same name.
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
  std::string student;     // safe as a folder name
  std::string submission;  // a path (absolute) or a git URL
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
